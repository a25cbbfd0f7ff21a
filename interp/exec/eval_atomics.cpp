// One lane of an atomic read-modify-write, as a GPU applies it. Float
// max/min follow Triton's lowering exactly: the bits of a value whose sign
// bit is clear are combined with a signed-integer max (min), those of a
// value with the sign bit set with an unsigned-integer min (max). That
// orders ordinary floats by value and decides what NaN and -0.0 do.
#include <cstring>
#include <type_traits>

#include "eval.h"

namespace tl::eval {

namespace {

template <size_t W> struct Bits;
template <> struct Bits<2> { using S = int16_t; using U = uint16_t; };
template <> struct Bits<4> { using S = int32_t; using U = uint32_t; };
template <> struct Bits<8> { using S = int64_t; using U = uint64_t; };

template <DType D>
void rmw(ir::AtomicKind k, void* addr, const void* value, const void* cmp, void* old) {
  using T = typename StorageOf<D>::type;
  constexpr size_t W = sizeof(T);
  if constexpr (W >= 2) {
    using SI = typename Bits<W>::S;
    using UI = typename Bits<W>::U;
    UI cur, v;
    std::memcpy(&cur, addr, W);
    std::memcpy(&v, value, W);
    std::memcpy(old, addr, W);
    UI next = cur;
    const bool sign = (v >> (W * 8 - 1)) & 1;
    auto smax = [](UI a, UI b) { return static_cast<SI>(a) > static_cast<SI>(b) ? a : b; };
    auto smin = [](UI a, UI b) { return static_cast<SI>(a) < static_cast<SI>(b) ? a : b; };
    auto umax = [](UI a, UI b) { return a > b ? a : b; };
    auto umin = [](UI a, UI b) { return a < b ? a : b; };
    switch (k) {
      case ir::AtomicKind::Max:
        if constexpr (is_float(D)) next = sign ? umin(cur, v) : smax(cur, v);
        else if constexpr (is_signed_int(D)) next = smax(cur, v);
        else next = umax(cur, v);
        break;
      case ir::AtomicKind::Min:
        if constexpr (is_float(D)) next = sign ? umax(cur, v) : smin(cur, v);
        else if constexpr (is_signed_int(D)) next = smin(cur, v);
        else next = umin(cur, v);
        break;
      case ir::AtomicKind::And: next = cur & v; break;
      case ir::AtomicKind::Or: next = cur | v; break;
      case ir::AtomicKind::Xor: next = cur ^ v; break;
      case ir::AtomicKind::Xchg: next = v; break;
      case ir::AtomicKind::Cas: {
        UI c;
        std::memcpy(&c, cmp, W);
        if (cur == c) next = v;  // compared bitwise, as cmpxchg does
        break;
      }
    }
    std::memcpy(addr, &next, W);
  } else {
    (void)k, (void)addr, (void)value, (void)cmp, (void)old;  // the front end refuses 8-bit atomics
  }
}

}  // namespace

void atomic_rmw(ir::AtomicKind k, DType d, void* addr, const void* value, const void* cmp, void* old) {
  dispatch(d, [&]<DType D>() { rmw<D>(k, addr, value, cmp, old); });
}

}  // namespace tl::eval
