#include "child_process.h"

#include <sys/wait.h>
#include <execinfo.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace tl::gpu {

namespace {

// The pipe carries frames: a kind byte, an 8-byte length, the bytes. Data
// frames make up the payload; an error frame carries an exception's text.
constexpr char kData = 'D', kError = 'E';

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent went away; nothing more to do
    done += static_cast<size_t>(n);
  }
}

void send_frame(int fd, char kind, const std::string& bytes) {
  std::string frame(1 + 8, '\0');
  frame[0] = kind;
  uint64_t n = bytes.size();
  std::memcpy(&frame[1], &n, 8);
  write_all(fd, frame + bytes);
}

// Splits what the child wrote into payload and error text; a frame cut off
// by a crash is dropped.
void decode_frames(const std::string& raw, ChildOutcome& out) {
  size_t at = 0;
  while (at + 9 <= raw.size()) {
    uint64_t n;
    std::memcpy(&n, &raw[at + 1], 8);
    if (at + 9 + n > raw.size()) break;
    (raw[at] == kError ? out.failure : out.payload).append(raw, at + 9, n);
    at += 9 + n;
  }
}

// TILESCOPE_CHILD_BACKTRACE=1: a child that crashes writes its stack to
// stderr first, for machines without a debugger (the GPU hosts).
void write_backtrace_and_die(int sig) {
  void* frames[64];
  const int n = ::backtrace(frames, 64);
  const char head[] = "tilescope GPU child: fatal signal, stack:\n";
  (void)!::write(2, head, sizeof head - 1);
  ::backtrace_symbols_fd(frames, n, 2);
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

ChildOutcome run_in_child_streaming(const std::function<void(const std::function<void(const std::string&)>&)>& work) {
  ChildOutcome out;
  int fds[2];
  if (::pipe(fds) != 0) {
    out.failure = std::string("pipe() failed: ") + std::strerror(errno);
    return out;
  }
  // Buffered output would otherwise be printed twice, once by each process.
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid < 0) {
    out.failure = std::string("fork() failed: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return out;
  }
  if (pid == 0) {
    ::close(fds[0]);
    // A crash ends the child plainly (the parent reports the signal), not
    // in a handler the parent installed, such as a test framework's.
    const bool backtrace_on_crash = std::getenv("TILESCOPE_CHILD_BACKTRACE") != nullptr;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
      std::signal(sig, backtrace_on_crash ? write_backtrace_and_die : SIG_DFL);
    int status = 0;
    try {
      work([&](const std::string& piece) { send_frame(fds[1], kData, piece); });
    } catch (const std::exception& e) {
      send_frame(fds[1], kError, e.what());
      status = 1;
    } catch (...) {
      send_frame(fds[1], kError, "unknown exception");
      status = 1;
    }
    ::close(fds[1]);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(status);  // no atexit handlers or static destructors of the parent's state
  }
  ::close(fds[1]);
  std::string raw;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    raw.append(buf, static_cast<size_t>(n));
  }
  decode_frames(raw, out);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    out.completed = out.failure.empty();
  } else if (!out.failure.empty()) {
    // The work threw; its text is the reason.
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    out.failure = "the GPU process was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  } else {
    out.failure = "the GPU process exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return out;
}

ChildOutcome run_in_child(const std::function<std::string()>& work) {
  return run_in_child_streaming([&](const std::function<void(const std::string&)>& send) { send(work()); });
}

}  // namespace tl::gpu
