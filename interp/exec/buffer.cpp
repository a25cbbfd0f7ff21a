#include "buffer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "eval.h"

namespace tl {

Buffer::Buffer(std::string name, DType dtype, std::vector<int64_t> shape)
    : name_(std::move(name)), dtype_(dtype), shape_(std::move(shape)) {
  init_layout();
  owned_.assign(size_bytes(), std::byte{0});
  data_ = owned_.data();
}

Buffer Buffer::wrap(std::string name, DType dtype, void* data, std::vector<int64_t> shape,
                    std::vector<int64_t> strides) {
  Buffer b;
  b.name_ = std::move(name);
  b.dtype_ = dtype;
  b.shape_ = std::move(shape);
  b.strides_ = std::move(strides);
  b.init_layout();
  b.data_ = static_cast<std::byte*>(data);
  return b;
}

void Buffer::init_layout() {
  for (int64_t d : shape_)
    if (d < 0) throw std::invalid_argument("buffer '" + name_ + "': negative dimension in its shape");
  if (strides_.empty()) {
    strides_.assign(shape_.size(), 1);
    for (int i = static_cast<int>(shape_.size()) - 2; i >= 0; --i) strides_[i] = strides_[i + 1] * shape_[i + 1];
  }
  if (strides_.size() != shape_.size())
    throw std::invalid_argument("buffer '" + name_ + "': " + std::to_string(strides_.size()) + " strides for " +
                                std::to_string(shape_.size()) + " dimensions");
  // Elements reachable through the shape span [0, max offset]; a kernel's
  // flat offsets are valid inside that span.
  int64_t last = 0;
  bool empty = false;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (strides_[i] < 0) throw std::invalid_argument("buffer '" + name_ + "': negative strides are not supported");
    if (shape_[i] == 0) empty = true;
    else last += (shape_[i] - 1) * strides_[i];
  }
  extent_ = empty ? 0 : last + 1;
}

Buffer::Buffer(const Buffer& o)
    : name_(o.name_),
      dtype_(o.dtype_),
      shape_(o.shape_),
      strides_(o.strides_),
      extent_(o.extent_),
      owned_(o.owned_),
      written_(o.written_) {
  data_ = o.owned_.empty() && o.extent_ > 0 ? o.data_ : owned_.data();
}

Buffer& Buffer::operator=(const Buffer& o) {
  if (this != &o) {
    Buffer tmp(o);
    *this = std::move(tmp);
  }
  return *this;
}

Buffer::Buffer(Buffer&& o) noexcept
    : name_(std::move(o.name_)),
      dtype_(o.dtype_),
      shape_(std::move(o.shape_)),
      strides_(std::move(o.strides_)),
      extent_(o.extent_),
      written_(std::move(o.written_)) {
  bool owned = o.data_ == o.owned_.data();
  owned_ = std::move(o.owned_);
  data_ = owned ? owned_.data() : o.data_;
  o.data_ = nullptr;
  o.extent_ = 0;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    bool owned = o.data_ == o.owned_.data();
    name_ = std::move(o.name_);
    dtype_ = o.dtype_;
    shape_ = std::move(o.shape_);
    strides_ = std::move(o.strides_);
    extent_ = o.extent_;
    written_ = std::move(o.written_);
    owned_ = std::move(o.owned_);
    data_ = owned ? owned_.data() : o.data_;
    o.data_ = nullptr;
    o.extent_ = 0;
  }
  return *this;
}

int64_t Buffer::numel() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

namespace {
void check(const Buffer& b, int64_t off) {
  if (off < 0 || off >= b.extent())
    throw std::out_of_range("buffer '" + b.name() + "': element offset " + std::to_string(off) + " outside [0, " +
                            std::to_string(b.extent()) + ")");
}
}  // namespace

double Buffer::get(int64_t off) const {
  check(*this, off);
  return eval::to_double(dtype_, data_, off);
}
void Buffer::set(int64_t off, double v) {
  check(*this, off);
  eval::from_double_into(dtype_, data_, off, v);
}
uint64_t Buffer::get_bits(int64_t off) const {
  check(*this, off);
  uint64_t bits = 0;
  std::memcpy(&bits, data_ + off * byte_size(dtype_), byte_size(dtype_));
  return bits;
}
void Buffer::set_bits(int64_t off, uint64_t bits) {
  check(*this, off);
  std::memcpy(data_ + off * byte_size(dtype_), &bits, byte_size(dtype_));
}
void Buffer::fill(double v) {
  for (int64_t i = 0; i < extent_; ++i) eval::from_double_into(dtype_, data_, i, v);
}
void Buffer::fill_bits(uint64_t bits) {
  auto fill = [&](auto v) {
    auto* d = reinterpret_cast<decltype(v)*>(data_);
    std::fill(d, d + extent_, v);
  };
  switch (byte_size(dtype_)) {
    case 1: fill(static_cast<uint8_t>(bits)); break;
    case 2: fill(static_cast<uint16_t>(bits)); break;
    case 4: fill(static_cast<uint32_t>(bits)); break;
    default: fill(bits); break;
  }
}

int64_t Buffer::offset_of(const std::vector<int64_t>& index) const {
  if (index.size() != shape_.size()) throw std::invalid_argument("buffer '" + name_ + "': index rank mismatch");
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * strides_[i];
  return off;
}

std::string Buffer::index_str(int64_t off) const {
  // Decompose by strides from the outermost axis (exact for dense layouts).
  std::string s = "[";
  int64_t rest = off;
  for (size_t i = 0; i < shape_.size(); ++i) {
    int64_t st = strides_[i] == 0 ? 1 : strides_[i];
    int64_t v = rest / st;
    rest -= v * st;
    s += (i ? ", " : "") + std::to_string(v);
  }
  return s + "]";
}

}  // namespace tl
