// The byte format GPU child processes answer in: unsigned 64-bit numbers
// and length-prefixed strings, in the order the writer put them. A reader
// that runs short (a child that crashed mid-answer) says so instead of
// reading past the end.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

namespace tl::gpu::wire {

inline void put(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
inline void put(std::string& out, const std::string& s) {
  put(out, static_cast<uint64_t>(s.size()));
  out += s;
}

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  bool done() const { return at_ >= s_.size(); }
  bool u64(uint64_t& v) {
    if (s_.size() - at_ < sizeof v) return false;
    std::memcpy(&v, s_.data() + at_, sizeof v);
    at_ += sizeof v;
    return true;
  }
  bool str(std::string& v) {
    uint64_t n;
    if (!u64(n) || s_.size() - at_ < n) return false;
    v.assign(s_, at_, n);
    at_ += n;
    return true;
  }

 private:
  const std::string& s_;
  size_t at_ = 0;
};

}  // namespace tl::gpu::wire
