// Host buffers: named, typed, shaped (with strides) memory that kernels
// read and write through tl::Ptr. A buffer owns its storage or wraps
// memory the caller owns.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dtype.h"

namespace tl {

class Buffer {
 public:
  Buffer() = default;
  // Owned, dense row-major storage, zero-filled.
  Buffer(std::string name, DType dtype, std::vector<int64_t> shape);
  // Wraps caller-owned memory; strides in elements (row-major if empty).
  static Buffer wrap(std::string name, DType dtype, void* data, std::vector<int64_t> shape,
                     std::vector<int64_t> strides = {});

  Buffer(const Buffer& o);
  Buffer& operator=(const Buffer& o);
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;

  const std::string& name() const { return name_; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int64_t numel() const;       // product of the shape
  int64_t extent() const { return extent_; }  // element offsets [0, extent) are in bounds
  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  size_t size_bytes() const { return static_cast<size_t>(extent_) * byte_size(dtype_); }

  // Element access by flat element offset, converting through double
  // (integers up to 2^53 exactly); get_bits/set_bits for raw patterns.
  double get(int64_t offset) const;
  void set(int64_t offset, double v);
  uint64_t get_bits(int64_t offset) const;
  void set_bits(int64_t offset, uint64_t bits);
  void fill(double v);
  void fill_bits(uint64_t bits);
  // The element offset of a multi-index (shape order).
  int64_t offset_of(const std::vector<int64_t>& index) const;
  // The multi-index of an element offset of a dense buffer ("[2, 5]").
  std::string index_str(int64_t offset) const;

  // Marks every element "never written" (an output the host did not fill):
  // the sanitizer then flags loads of elements no launch has stored to, and
  // reports elements a launch that writes the buffer leaves unwritten.
  void mark_unwritten() { written_.assign(static_cast<size_t>(extent_), 0); }
  bool tracks_writes() const { return !written_.empty(); }
  // Per element 0/1 once mark_unwritten() was called (empty otherwise).
  std::vector<uint8_t>& written_map() { return written_; }
  const std::vector<uint8_t>& written_map() const { return written_; }

  template <class T>
  T* as() { return reinterpret_cast<T*>(data_); }
  template <class T>
  const T* as() const { return reinterpret_cast<const T*>(data_); }

 private:
  std::string name_;
  DType dtype_ = DType::f32;
  std::vector<int64_t> shape_, strides_;
  int64_t extent_ = 0;
  std::vector<std::byte> owned_;
  std::byte* data_ = nullptr;
  std::vector<uint8_t> written_;
  void init_layout();
};

}  // namespace tl
