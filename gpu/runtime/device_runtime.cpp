#include "device_runtime.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <stdexcept>

#include "eval.h"

namespace tl::gpu {

// ---- DeviceMemory -------------------------------------------------------------

DeviceMemory::DeviceMemory(CudaDriver& d, size_t bytes, const std::string& what) : d_(&d), bytes_(bytes), what_(what) {
  // Zero-sized buffers still get an address, so every pointer is valid.
  d.check(d.mem_alloc(&ptr_, bytes ? bytes : 16), "cuMemAlloc", what + " (" + std::to_string(bytes) + " bytes)");
}

DeviceMemory::~DeviceMemory() {
  if (ptr_) d_->mem_free(ptr_);  // errors here (a lost context) cannot be acted on
}

DeviceMemory::DeviceMemory(DeviceMemory&& o) noexcept : d_(o.d_), ptr_(o.ptr_), bytes_(o.bytes_), what_(std::move(o.what_)) {
  o.ptr_ = 0;
}

void DeviceMemory::upload(const void* src, size_t n) {
  if (n) d_->check(d_->memcpy_htod(ptr_, src, n), "cuMemcpyHtoD", what_);
}

void DeviceMemory::download(void* dst, size_t n) const {
  if (n) d_->check(d_->memcpy_dtoh(dst, ptr_, n), "cuMemcpyDtoH", what_);
}

// ---- LoadedKernel -------------------------------------------------------------

LoadedKernel::LoadedKernel(CudaDriver& d, const Cubin& cubin, const LoweredKernel& k, const CompileOptions& options,
                           CubinCache* cache)
    : d_(&d), k_(k), options_(options), cache_(cache) {
  d.check(d.module_load_data(&module_, cubin.image.data()), "cuModuleLoadData", "kernel " + k.name);
  d.check(d.module_get_function(&fn_, module_, k.name.c_str()), "cuModuleGetFunction", "kernel " + k.name);
  if (k.smem_bytes > 48 * 1024) {
    // Above 48 KB a block must opt in to its dynamic shared memory.
    if (k.smem_bytes > d.device().max_smem_per_block)
      throw std::invalid_argument("kernel " + k.name + " needs " + std::to_string(k.smem_bytes) +
                                  " bytes of shared memory; the device allows " +
                                  std::to_string(d.device().max_smem_per_block));
    d.check(d.func_set_attribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(k.smem_bytes)),
            "cuFuncSetAttribute", "kernel " + k.name);
  }
  d.check(d.func_get_attribute(&registers_, CU_FUNC_ATTRIBUTE_NUM_REGS, fn_), "cuFuncGetAttribute", "kernel " + k.name);
  d.check(d.func_get_attribute(&local_bytes_, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn_), "cuFuncGetAttribute",
          "kernel " + k.name);
}

LoadedKernel::~LoadedKernel() {
  if (module_) d_->module_unload(module_);
}

const LoadedKernel& LoadedKernel::for_args(const KernelArgs& args) const {
  if (k_.tensor_maps.empty() || args.tma_ok()) return *this;
  if (!cp_async_) {
    const LoweredKernel form = cp_async_form(k_);
    cp_async_ = std::make_unique<LoadedKernel>(*d_, compile_cubin(form, options_, cache_), form, options_, cache_);
  }
  return *cp_async_;
}

// ---- Arguments and launches ---------------------------------------------------------

KernelArgs::KernelArgs(const ir::Kernel& ir, const LoweredKernel& k, const std::vector<Arg>& args,
                       const std::function<CUdeviceptr(Buffer*)>& device_of, const TensorMapEncoder& encode) {
  values_.assign(k.params.size() + (k.tensor_maps.empty() ? 0 : 1), 0);
  for (size_t i = 0; i < k.params.size(); ++i) {
    const int pi = k.params[i];
    const ir::Param& p = ir.params[pi];
    if (pi >= static_cast<int>(args.size()))
      throw std::invalid_argument("kernel " + k.name + " takes more arguments than the launch gives");
    const Arg& a = args[pi];
    if (p.kind == ir::ParamKind::Pointer) {
      if (a.kind() != Arg::Kind::Buffer) throw std::invalid_argument("kernel " + k.name + ": argument " + std::to_string(pi) + " must be a buffer");
      CUdeviceptr ptr = device_of(a.buffer());
      std::memcpy(&values_[i], &ptr, sizeof ptr);
    } else if (is_float(p.dtype)) {
      // The interpreter's conversion of a launch scalar to the parameter's type.
      double v = a.kind() == Arg::Kind::Float ? a.float_value() : static_cast<double>(a.int_value());
      eval::from_double_into(p.dtype, &values_[i], 0, v);
    } else {
      eval::constant(p.dtype, a.int_value(), 0, &values_[i]);
    }
  }
  if (!k.tensor_maps.empty()) {
    maps_.resize(k.tensor_maps.size());
    tma_ok_ = true;
    for (size_t i = 0; i < k.tensor_maps.size() && tma_ok_; ++i) {
      const TensorMapSpec& t = k.tensor_maps[i];
      // Bounds, stride and base as the kernel receives them: the values
      // packed above (the bounds' parameters are i32: codegen_tma.cpp).
      auto packed = [&](int param) {
        const auto at = std::find(k.params.begin(), k.params.end(), param);
        if (at == k.params.end())
          throw std::logic_error("kernel " + k.name + ": tensor map parameter " + std::to_string(param) + " is not passed");
        return &values_[static_cast<size_t>(at - k.params.begin())];
      };
      bool wrapped = false;
      auto value = [&](const TensorMapSpec::Value& v) -> int64_t {
        if (v.param < 0) return v.constant;
        int32_t x = 0;
        std::memcpy(&x, packed(v.param), sizeof x);
        // The product the kernel computes in i32.
        int32_t x2 = 1;
        if (v.param2 >= 0) std::memcpy(&x2, packed(v.param2), sizeof x2);
        const __int128 product = static_cast<__int128>(x) * x2 * v.scale;
        if (product < INT32_MIN || product > INT32_MAX) wrapped = true;
        return static_cast<int64_t>(product);
      };
      TensorMapRequest r;
      std::memcpy(&r.base, packed(t.base_param), sizeof r.base);
      r.dtype = t.dtype;
      r.cols = value(t.cols);
      r.rows = value(t.rows);
      r.row_stride = value(t.row_stride);
      r.box_cols = t.box_cols;
      r.box_rows = t.box_rows;
      r.swizzle128 = t.swizzle128;
      if (t.batched) {
        r.batched = true;
        r.batches = value(t.batches);
        r.batch_stride = value(t.batch_stride);
      }
      tma_why_not_ = !encode ? "no TMA encoder for this launch" : wrapped ? "a bound or stride past i32" : tensor_map_unusable(r);
      if (tma_why_not_.empty() && !encode(r, maps_[i].bytes)) tma_why_not_ = "the driver refused the tensor map";
      tma_ok_ = tma_why_not_.empty();
    }
    set_clusters(false);  // ts_tma_launch: 1 or 0 until launch() forms clusters
  }
  for (size_t i = 0; i < k.params.size(); ++i) ptrs_.push_back(&values_[i]);
  for (MapBytes& m : maps_) ptrs_.push_back(m.bytes);
  if (!k.tensor_maps.empty()) ptrs_.push_back(&values_.back());
}

void KernelArgs::set_clusters(bool on) {
  clusters_ = on && tma_ok_;
  if (!maps_.empty()) {
    const int32_t ok = !tma_ok_ ? 0 : clusters_ ? 2 : 1;
    std::memcpy(&values_.back(), &ok, sizeof ok);
  }
}

bool clusters_fit(const LoweredKernel& k, Grid grid, const KernelArgs& args) {
  const int64_t along = k.cluster_axis == 0 ? grid.x : k.cluster_axis == 1 ? grid.y : grid.z;
  return k.cluster_axis >= 0 && args.tma_ok() && along % 2 == 0;
}

std::string tensor_map_unusable(const TensorMapRequest& r) {
  const int64_t elem = static_cast<int64_t>(byte_size(r.dtype));
  if (r.cols < 1 || r.rows < 1) return "empty tensor";
  if (r.row_stride < r.cols) return "rows overlap (row stride below the column bound)";
  if (r.base % 16 != 0) return "base address not 16-byte aligned";
  if (r.row_stride % (16 / elem) != 0) return "row stride not a multiple of 16 bytes";
  if (r.row_stride >= (int64_t{1} << 36)) return "row stride too large";
  if (r.box_cols < 1 || r.box_rows < 1 || r.box_cols > 256 || r.box_rows > 256) return "box larger than 256";
  if (r.batches < 1) return "empty tensor";
  if (r.batched && r.batch_stride < r.rows * r.row_stride) return "batches overlap (batch stride below rows x row stride)";
  if (r.batched && r.batch_stride % (16 / elem) != 0) return "batch stride not a multiple of 16 bytes";
  if (r.batched && r.batch_stride >= (int64_t{1} << 36)) return "batch stride too large";
  // The largest offset the mask admits, computed by the kernel in i32.
  const __int128 last = static_cast<__int128>(r.batches - 1) * r.batch_stride +
                        static_cast<__int128>(r.rows - 1) * r.row_stride + (r.cols - 1);
  if (last > INT32_MAX) return "element offsets past i32";
  return "";
}

TensorMapEncoder driver_tensor_map_encoder(CudaDriver& d) {
  if (!d.tensor_map_encode_tiled) return {};
  return [&d](const TensorMapRequest& r, void* map) {
    const CUtensorMapDataType type = r.dtype == DType::f32    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                     : r.dtype == DType::f16  ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                     : r.dtype == DType::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                              : CU_TENSOR_MAP_DATA_TYPE_UINT8;
    if (type == CU_TENSOR_MAP_DATA_TYPE_UINT8) return false;
    // A batched tensor is 3-D, its box one deep along the batch.
    const bool batched = r.batched;
    const cuuint64_t dims[3] = {static_cast<cuuint64_t>(r.cols), static_cast<cuuint64_t>(r.rows),
                                static_cast<cuuint64_t>(r.batches)};
    const cuuint64_t strides[2] = {static_cast<cuuint64_t>(r.row_stride) * byte_size(r.dtype),
                                   static_cast<cuuint64_t>(r.batch_stride) * byte_size(r.dtype)};
    const cuuint32_t box[3] = {static_cast<cuuint32_t>(r.box_cols), static_cast<cuuint32_t>(r.box_rows), 1};
    const cuuint32_t element_strides[3] = {1, 1, 1};
    return d.tensor_map_encode_tiled(static_cast<CUtensorMap*>(map), type, batched ? 3 : 2, reinterpret_cast<void*>(r.base), dims,
                                     strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                     r.swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                     CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  };
}

void launch(CudaDriver& d, const LoadedKernel& kernel, Grid grid, KernelArgs& args, CUstream stream) {
  const LoadedKernel& k = kernel.for_args(args);
  const LoweredKernel& lk = k.lowered();
  if (grid.x < 1 || grid.y < 1 || grid.z < 1 || grid.x >= (int64_t{1} << 31) || grid.y > 65535 || grid.z > 65535)
    throw std::invalid_argument("kernel " + lk.name + ": grid (" + std::to_string(grid.x) + ", " +
                                std::to_string(grid.y) + ", " + std::to_string(grid.z) +
                                ") cannot be launched (x < 2^31, y and z <= 65535, all >= 1)");
  if (clusters_fit(lk, grid, args) && d.launch_kernel_ex) {
    CUlaunchAttribute cluster{};
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = lk.cluster_axis == 0 ? 2 : 1;
    cluster.value.clusterDim.y = lk.cluster_axis == 1 ? 2 : 1;
    cluster.value.clusterDim.z = lk.cluster_axis == 2 ? 2 : 1;
    CUlaunchConfig c{};
    c.gridDimX = static_cast<unsigned>(grid.x);
    c.gridDimY = static_cast<unsigned>(grid.y);
    c.gridDimZ = static_cast<unsigned>(grid.z);
    c.blockDimX = static_cast<unsigned>(lk.threads);
    c.blockDimY = c.blockDimZ = 1;
    c.sharedMemBytes = static_cast<unsigned>(lk.smem_bytes);
    c.hStream = stream;
    c.attrs = &cluster;
    c.numAttrs = 1;
    args.set_clusters(true);
    // A device that cannot place the clusters (shared memory, its SMs'
    // grouping) refuses at once: the kernel then runs without them.
    if (d.launch_kernel_ex(&c, k.function(), args.pointers(), nullptr) == CUDA_SUCCESS) return;
  }
  args.set_clusters(false);
  d.check(d.launch_kernel(k.function(), static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
                          static_cast<unsigned>(grid.z), static_cast<unsigned>(lk.threads), 1, 1,
                          static_cast<unsigned>(lk.smem_bytes), stream, args.pointers(), nullptr),
          "cuLaunchKernel", "kernel " + lk.name);
}

void synchronize(CudaDriver& d, const std::string& kernel) {
  d.check(d.ctx_synchronize(), "cuCtxSynchronize", "kernel " + kernel);
}

// ---- EventTimer ---------------------------------------------------------------------

EventTimer::EventTimer(CudaDriver& d) : d_(&d) {
  d.check(d.event_create(&start_, CU_EVENT_DEFAULT), "cuEventCreate", "timing");
  d.check(d.event_create(&stop_, CU_EVENT_DEFAULT), "cuEventCreate", "timing");
}

EventTimer::~EventTimer() {
  if (start_) d_->event_destroy(start_);
  if (stop_) d_->event_destroy(stop_);
}

void EventTimer::start() { d_->check(d_->event_record(start_, nullptr), "cuEventRecord", "timing"); }
void EventTimer::stop() { d_->check(d_->event_record(stop_, nullptr), "cuEventRecord", "timing"); }

float EventTimer::elapsed_ms() {
  d_->check(d_->event_synchronize(stop_), "cuEventSynchronize", "timing");
  float ms = 0;
  d_->check(d_->event_elapsed_time(&ms, start_, stop_), "cuEventElapsedTime", "timing");
  return ms;
}

// ---- One launch over host buffers ------------------------------------------------------

void run_on_device(CudaDriver& d, const LoadedKernel& k, const ir::Kernel& ir, Grid grid, const std::vector<Arg>& args,
                   bool* tma_used, bool* clusters_used) {
  // One device copy per distinct host buffer: a buffer passed twice aliases
  // on the device as it does in the interpreter.
  std::map<Buffer*, DeviceMemory> dev;
  for (const Arg& a : args) {
    if (a.kind() != Arg::Kind::Buffer || dev.count(a.buffer())) continue;
    Buffer* b = a.buffer();
    auto [it, _] = dev.emplace(b, DeviceMemory(d, b->size_bytes(), "buffer " + b->name() + " of kernel " + k.lowered().name));
    it->second.upload(b->data(), b->size_bytes());
  }
  KernelArgs kargs(ir, k.lowered(), args, [&](Buffer* b) { return dev.at(b).ptr(); }, driver_tensor_map_encoder(d));
  if (tma_used) *tma_used = kargs.tma_ok();
  launch(d, k, grid, kargs);
  if (clusters_used) *clusters_used = kargs.clusters();
  synchronize(d, k.lowered().name);
  for (auto& [b, mem] : dev) mem.download(b->data(), b->size_bytes());
}

}  // namespace tl::gpu
