// Saving a launch's trace and opening the viewer on it. The viewer is the
// `tilescope view` command run as a child process: the API library then
// needs no ImGui, GLFW or OpenGL, and a program without a display still
// links and runs.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "tilescope/tilescope.h"

extern char** environ;

namespace tilescope {

namespace {

Status failed(std::string message) { return Status{false, std::move(message)}; }

std::string executable_for(const ViewOptions& o, const char* default_executable) {
  if (!o.executable.empty()) return o.executable;
  if (const char* env = std::getenv("TILESCOPE_EXECUTABLE"); env && *env) return env;
  // The installed executable when it is there, else whatever PATH finds.
  if (default_executable && *default_executable && std::filesystem::exists(default_executable))
    return default_executable;
  return "tilescope";
}

// Runs `argv` and waits; its output goes where this process's goes.
Status run_and_wait(const std::vector<std::string>& argv) {
  std::vector<char*> raw;
  for (const std::string& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
  raw.push_back(nullptr);
  pid_t pid = 0;
  const bool search_path = argv[0].find('/') == std::string::npos;
  const int err = search_path ? posix_spawnp(&pid, raw[0], nullptr, nullptr, raw.data(), environ)
                              : posix_spawn(&pid, raw[0], nullptr, nullptr, raw.data(), environ);
  if (err != 0)
    return failed("cannot run '" + argv[0] + "': " + std::strerror(err) +
                  " (set ViewOptions::executable or $TILESCOPE_EXECUTABLE to the tilescope executable)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return failed("waiting for '" + argv[0] + "' failed: " + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status))
    return failed("'" + argv[0] + " view' exited with status " + std::to_string(WEXITSTATUS(status)) +
                  " (its message is above)");
  return failed("'" + argv[0] + " view' was ended by signal " + std::to_string(WTERMSIG(status)));
}

}  // namespace

Status save_trace(const Result& result, const std::string& path) {
  if (!result.error.empty()) return failed("the launch did not run, so there is no trace to save");
  if (!result.trace)
    return failed("the launch was not traced: launch with options.trace = tilescope::Tracing::Full (or Filtered)");
  try {
    tl::save_trace(*result.trace, path);
  } catch (const std::exception& e) {
    return failed(e.what());
  }
  return {};
}

namespace detail {

Status view_file(const std::string& trace_path, const ViewOptions& options, const char* default_executable) {
  if (!std::filesystem::exists(trace_path)) return failed("no trace file at '" + trace_path + "'");
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display)
    return failed("no display (DISPLAY is not set), so the viewer cannot open here; open the trace where one is "
                  "with 'tilescope view " + trace_path + "', or render a PNG headless with 'xvfb-run -a tilescope view " +
                  trace_path + " --screenshot out.png'");
  std::vector<std::string> argv = {executable_for(options, default_executable), "view", trace_path};
  if (options.program) {
    const Program& p = *options.program;
    argv.insert(argv.end(), {"--program", std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2])});
  }
  if (!options.screenshot.empty()) argv.insert(argv.end(), {"--screenshot", options.screenshot});
  return run_and_wait(argv);
}

Status view_result(const Result& result, const ViewOptions& options, const char* default_executable) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) return failed("no temporary directory for the trace: " + ec.message());
  const std::string name = result.run.kernel_name.empty() ? "kernel" : result.run.kernel_name;
  const std::string path = (dir / ("tilescope-" + name + "-" + std::to_string(getpid()) + ".json")).string();
  if (Status s = save_trace(result, path); !s) return s;
  return view_file(path, options, default_executable);
}

}  // namespace detail

}  // namespace tilescope
