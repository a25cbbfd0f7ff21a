// A stand-in for libcuda.so.1 that only records who calls cuInit: the pid
// of each caller is appended to the file named by $TILESCOPE_FAKE_CUINIT_LOG.
// It answers "no device", so NVRTC (which calls cuInit while it compiles)
// goes on as it does on a machine without a GPU. Loaded by one test only,
// in a child process; nothing links it.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

extern "C" int cuInit(unsigned) {
  if (const char* log = std::getenv("TILESCOPE_FAKE_CUINIT_LOG")) {
    if (std::FILE* f = std::fopen(log, "a")) {
      std::fprintf(f, "%d\n", static_cast<int>(::getpid()));
      std::fclose(f);
    }
  }
  return 100;  // CUDA_ERROR_NO_DEVICE
}

extern "C" int cuDriverGetVersion(int* version) {
  *version = 13000;
  return 0;
}
