// Runs a generated CUDA kernel on the CPU: the source is compiled as host
// C++ with gpu_host_emulation.h force-included, loaded with dlopen, and
// every block is run on the calling thread, its CUDA threads as fibers.
// Launch arguments are packed by the GPU runtime's own KernelArgs, with
// host pointers in place of device pointers, straight into the host buffers.
//
// The compiled libraries are cached (test_cache.h): the host compiler is
// most of these tests' time, and CI runs them in two builds.
#pragma once
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen.h"
#include "device_runtime.h"
#include "nvrtc_compiler.h"
#include "test_cache.h"

namespace gpu_host {

class HostKernel {
 public:
  HostKernel(const tl::ir::Kernel& ir, const tl::gpu::LoweredKernel& k) : ir_(ir), k_(k) {
    namespace fs = std::filesystem;
    dir_ = fs::temp_directory_path() / ("tilescope-host-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // A fresh name every time: dlclose need not unload a library (its
    // thread_locals keep it), and dlopen of a loaded path returns the old one.
    static int serial = 0;
    const std::string stem = k.name + "_" + std::to_string(serial++);
    files_ = {dir_ / (stem + ".cpp"), dir_ / (stem + ".so"), dir_ / (stem + ".log")};
    const fs::path &src = files_[0], &lib = files_[1], &log = files_[2];
    const std::string source = k.source + wrapper();
    std::ofstream(src) << source;
    const std::string tests = std::string(TILESCOPE_SOURCE_DIR) + "/tests";
    const std::string emulation = tests + "/gpu_host_emulation.h";
    // Its parts by -I (the precompiled copy below lives elsewhere). Under
    // the sanitizers the kernel is instrumented for AddressSanitizer too, so
    // the sanitized test run checks every generated kernel's accesses on the
    // host, as compute-sanitizer memcheck does on a GPU: a pair of E4's
    // split-K adds planted one element early was reported there.
#ifdef TILESCOPE_SANITIZED
    const std::string sanitize = " -fsanitize=address -fno-omit-frame-pointer";
#else
    const std::string sanitize;
#endif
    const std::string flags = std::string(TILESCOPE_HOST_CXX) + " -std=c++20 -O1" + sanitize + " -ffp-contract=off -w -fPIC -I'" +
                              tl::gpu::default_cuda_include_dir() + "' -I'" + tests + "'";
    static const std::string emulation_text = emulation_sources(tests);
    static const std::string include = precompiled(flags, emulation, emulation_text);
    const std::string compiler = flags + " -shared -include '" + include + "'";
    // The cache key: everything the library is made of, but the file names.
    const std::string key = compiler + "\n" + emulation_text + "\n" + source;
    if (!cached(key, lib)) {
      const std::string cmd = compiler + " '" + src.string() + "' -o '" + lib.string() + "' > '" + log.string() + "' 2>&1";
      if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("host compile of " + k.name + " failed:\n" + read(log));
      keep(key, lib);
    }
    handle_ = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    run_block_ = reinterpret_cast<RunBlockFn>(dlsym(handle_, "emu_run"));
    if (!run_block_) throw std::runtime_error("emulation entry point missing");
  }
  ~HostKernel() {
    if (handle_) dlclose(handle_);
    std::error_code ec;
    for (const auto& f : files_) std::filesystem::remove(f, ec);
    std::filesystem::remove(dir_, ec);  // only once empty: other kernels may still use it
  }
  HostKernel(const HostKernel&) = delete;
  HostKernel& operator=(const HostKernel&) = delete;

  // One launch over host buffers, as tl::run takes them.
  // Whether launches may describe their tensors to the (emulated) TMA
  // unit; off, kernels with tensor maps run their cp.async copies.
  void set_tma(bool on) { tma_ = on; }
  // Whether the last launch's tensor maps were all encoded (its TMA form ran).
  bool tma_used() const { return tma_used_; }
  // The emulation's encoding of a tensor map (gpu_host_emulation.h's
  // ts_tma_load_2d reads it back).
  static bool encode_tensor_map(const tl::gpu::TensorMapRequest& r, void* map) {
    const unsigned long long words[16] = {static_cast<unsigned long long>(r.base),
                                          static_cast<unsigned long long>(r.cols),
                                          static_cast<unsigned long long>(r.rows),
                                          static_cast<unsigned long long>(r.row_stride * tl::byte_size(r.dtype)),
                                          static_cast<unsigned long long>(r.box_cols),
                                          static_cast<unsigned long long>(r.box_rows),
                                          static_cast<unsigned long long>(tl::byte_size(r.dtype)),
                                          r.swizzle128 ? 1ull : 0ull,
                                          static_cast<unsigned long long>(r.batches),
                                          r.batched ? static_cast<unsigned long long>(r.batch_stride * tl::byte_size(r.dtype)) : 0ull};
    std::memcpy(map, words, sizeof words);
    return true;
  }

  void run(tl::Grid grid, const std::vector<tl::Arg>& args) {
    tl::gpu::KernelArgs packed(ir_, k_, args, [](tl::Buffer* b) { return reinterpret_cast<CUdeviceptr>(b->data()); },
                               tma_ ? tl::gpu::TensorMapEncoder(encode_tensor_map) : tl::gpu::TensorMapEncoder{});
    tma_used_ = packed.tma_ok();
    // Clusters of two where the device launcher would form them.
    clusters_used_ = clusters_ && tl::gpu::clusters_fit(k_, grid, packed);
    packed.set_clusters(clusters_used_);
    const int axis = clusters_used_ ? k_.cluster_axis : -1;
    void** a = packed.pointers();
    for (int64_t z = 0; z < grid.z; z += axis == 2 ? 2 : 1)
      for (int64_t y = 0; y < grid.y; y += axis == 1 ? 2 : 1)
        for (int64_t x = 0; x < grid.x; x += axis == 0 ? 2 : 1) {
          const unsigned ids[6] = {static_cast<unsigned>(x),      static_cast<unsigned>(y),
                                   static_cast<unsigned>(z),      static_cast<unsigned>(grid.x),
                                   static_cast<unsigned>(grid.y), static_cast<unsigned>(grid.z)};
          run_block_(a, ids, k_.threads, axis, static_cast<size_t>(k_.smem_bytes));
        }
  }
  // Off: kernels that share tiles in clusters run one block at a time.
  void set_clusters(bool on) { clusters_ = on; }
  // Whether the last launch ran in clusters of two (ts_tma_launch 2).
  bool clusters_used() const { return clusters_used_; }

 private:
  using RunBlockFn = void (*)(void**, const unsigned*, int, int, size_t);

  static std::string read(const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // The cache (test_cache.h): <hash>.so and <hash>.key in its "host"
  // folder, the key in full: a hit needs the same compiler command,
  // emulation header and source, byte for byte.
  static std::string hash_name(const std::string& key) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
    std::ostringstream s;
    s << std::hex << h;
    return s.str();
  }
  // The emulation's text: the header and its parts (gpu_host_emu_*.h, in
  // name order), what a compiled kernel depends on besides its source.
  static std::string emulation_sources(const std::string& tests) {
    std::vector<std::filesystem::path> parts;
    for (const auto& e : std::filesystem::directory_iterator(tests)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("gpu_host_emu_", 0) == 0 && e.path().extension() == ".h") parts.push_back(e.path());
    }
    std::sort(parts.begin(), parts.end());
    std::string text = read(tests + "/gpu_host_emulation.h");
    for (const auto& p : parts) text += "\n// " + p.filename().string() + "\n" + read(p);
    return text;
  }
  // The emulation header to -include, precompiled: parsing it (CUDA's
  // half and bfloat16 headers, <barrier>) is half of each kernel's compile.
  // A copy in the cache folder named by the emulation's text (`all`, its
  // parts included) and the flags, with the .gch beside it, where g++ looks
  // for one; the header itself where that cannot be made (g++ then parses
  // it, as before).
  static std::string precompiled(const std::string& flags, const std::string& header, const std::string& all) {
    const std::filesystem::path dir = test_cache::dir("host");
    if (dir.empty()) return header;
    const std::string text = read(header);
    const std::string copy = (dir / ("emulation-" + hash_name(flags + "\n" + all) + ".h")).string();
    std::error_code ec;
    if (std::filesystem::exists(copy + ".gch", ec) && read(copy) == text) return copy;
    std::filesystem::create_directories(dir, ec);
    const std::string mine = "." + std::to_string(::getpid());
    std::ofstream(copy + mine, std::ios::binary) << text;
    std::filesystem::rename(copy + mine, copy, ec);  // the same text whoever writes it
    if (ec) return header;
    const std::string cmd = flags + " -x c++-header '" + copy + "' -o '" + copy + ".gch" + mine + "' > /dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) return header;
    std::filesystem::rename(copy + ".gch" + mine, copy + ".gch", ec);
    return ec ? header : copy;
  }
  // A hit is copied to `lib`, the fresh path this kernel loads, as a
  // compile would have written it: nothing is shared with another load.
  static bool cached(const std::string& key, const std::filesystem::path& lib) {
    const std::filesystem::path dir = test_cache::dir("host");
    if (dir.empty()) return false;
    const std::filesystem::path entry = dir / hash_name(key);
    std::error_code ec;
    if (read(entry.string() + ".key") != key) return false;
    return std::filesystem::copy_file(entry.string() + ".so", lib, ec) && !ec;
  }
  // A new entry: the library first, then its key, each written under a
  // name of this process and renamed into place (atomic), so that another
  // process finds either no entry or a complete one.
  void keep(const std::string& key, const std::filesystem::path& lib) const {
    const std::filesystem::path dir = test_cache::dir("host");
    if (dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string entry = (dir / hash_name(key)).string();
    const std::string mine = "." + std::to_string(::getpid()) + "." + files_[1].filename().string();
    if (!std::filesystem::copy_file(lib, entry + ".so" + mine, ec) || ec) return;
    std::filesystem::rename(entry + ".so" + mine, entry + ".so", ec);
    if (ec) return;
    std::ofstream(entry + ".key" + mine, std::ios::binary) << key;
    std::filesystem::rename(entry + ".key" + mine, entry + ".key", ec);
  }

  // The entry point appended to the kernel's source: one block, its
  // threads run as fibers (gpu_host_emulation.h).
  std::string wrapper() const {
    std::string call = k_.name + "(";
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const tl::ir::Param& p = ir_.params[k_.params[i]];
      std::string t = p.kind == tl::ir::ParamKind::Pointer ? tl::gpu::cuda_memory_type(p.dtype) + "*"
                                                            : tl::gpu::cuda_register_type(p.dtype);
      call += (i ? ", *(" : "*(") + t + "*)a[" + std::to_string(i) + "]";
    }
    size_t at = k_.params.size();
    for (size_t i = 0; i < k_.tensor_maps.size(); ++i, ++at) call += ", *(ts_tensor_map*)a[" + std::to_string(at) + "]";
    if (!k_.tensor_maps.empty()) call += ", *(int*)a[" + std::to_string(at) + "]";
    call += ");";
    return "\nstatic void emu_kernel_body(void** a) {\n  " + call +
           "\n}\n"
           "extern \"C\" void emu_run(void** a, const unsigned* block_and_grid, int threads, int cluster_axis, "
           "size_t smem_bytes) {\n"
           "  emu_run_block(emu_kernel_body, a, block_and_grid, threads, cluster_axis, smem_bytes);\n}\n";
  }

  const tl::ir::Kernel& ir_;
  tl::gpu::LoweredKernel k_;
  std::filesystem::path dir_;
  std::vector<std::filesystem::path> files_;
  void* handle_ = nullptr;
  RunBlockFn run_block_ = nullptr;
  bool tma_ = true, tma_used_ = false, clusters_ = true, clusters_used_ = false;
};

}  // namespace gpu_host
