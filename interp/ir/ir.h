// The tile IR: the one contract between the front end and the backends.
//
// A kernel is a list of instructions over virtual registers. Every register
// has a static type (element dtype, pointer or not, tile shape). Registers
// may be assigned more than once: a loop body that writes a register defined
// outside it carries that value into the next iteration, which is how
// loop-carried tiles are expressed without phi nodes. Control flow is
// structured (For, If, While), each with nested blocks.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dtype.h"
#include "source_loc.h"

namespace tl::ir {

using Shape = std::vector<int64_t>;
int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[32, 16]", "[]" for 0-d

struct Type {
  DType dtype = DType::i32;
  bool is_ptr = false;  // a tile of pointers to `dtype`
  Shape shape;
  bool operator==(const Type&) const = default;
  std::string str() const;  // "f32[32,16]", "ptr<f32>[32]", "i32"
};

// libdevice's float functions that C's math library has under the same
// name (f32 and f64 only): X(Op, name). Their IR op is the Op, printed as
// the name; each back end calls the library function of that name.
#define TL_LIBDEVICE_UNARY(X)                                                                               \
  X(Acos, acos) X(Acosh, acosh) X(Asin, asin) X(Asinh, asinh) X(Atan, atan) X(Atanh, atanh) X(Cbrt, cbrt) \
  X(Cosh, cosh) X(Sinh, sinh) X(Tan, tan) X(Log10, log10) X(Trunc, trunc) X(Erfc, erfc) X(Lgamma, lgamma) \
  X(Tgamma, tgamma) X(Logb, logb)
#define TL_LIBDEVICE_BINARY(X)                                                                            \
  X(Atan2, atan2) X(Hypot, hypot) X(Fmod, fmod) X(Copysign, copysign) X(Fdim, fdim) X(Nextafter, nextafter) \
  X(Remainder, remainder)

// One list of node kinds. Elementwise ops take operands of the result's
// shape (the front end inserts Broadcast); comparisons give i1.
enum class Op : uint8_t {
  // Leaves.
  PtrParam,     // pointer parameter `param_index`
  ScalarParam,  // runtime scalar parameter `param_index`
  Const,        // 0-d constant: `ival` for integers, `fval` for floats
  Arange,       // [ival, ival2) as i32
  ProgramId,    // axis `axis`
  NumPrograms,  // axis `axis`
  // Elementwise, one operand.
  Neg, Not, Abs, Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sigmoid, Tanh, Sin, Cos, Floor, Ceil,
  Cast,     // to the result dtype (SEMANTICS §5)
  Bitcast,  // same width, bits reinterpreted
  Copy,     // dst := arg (assignment to a mutable register)
  // Elementwise, two operands.
  Add, Sub, Mul, Div, Mod, And, Or, Xor, Shl, Shr,
  Eq, Ne, Lt, Le, Gt, Ge, Maximum, Minimum,
  PtrAdd,  // pointer + integer offset (in elements)
  // Elementwise, three operands.
  Where,  // cond ? a : b
  Fma,    // a * b + c, one rounding
  // Shape.
  Broadcast,  // to the result shape (right-aligned)
  Reshape,    // same count, row-major order kept (expand_dims too)
  Permute,    // result axis i = input axis dims[i]
  // Reductions and contractions.
  Reduce,  // kind `reduce`, over axis `axis`; result drops the axis
  Dot,     // a [.., M, K] x b [.., K, N] + acc -> [.., M, N]
  // Memory.
  Load,       // args: ptr, [mask], [other]  (flags say which)
  Store,      // args: ptr, value, [mask]
  AtomicAdd,  // args: ptr, value, [mask]; result: old values
  // Debugging.
  Print,  // args: values; `text` is the prefix
  Assert, // runtime check: arg is i1; `text` is the message
  // Control flow.
  For,  // args: lo, hi, step; dst is the induction variable; body
  If,   // args: cond; body, else_body
  // No args. cond_body is run before every iteration and leaves the 0-d i1
  // `cond_reg`; while it is true, body runs. Registers the two blocks
  // write that live outside are loop-carried, as in For.
  While,
  // Scans, sorts and permutations
  // Scan / ReduceWith: args are N tiles of one shape, combined along `axis`
  // by the instruction's `combine` block; dst is output number `ival2` of
  // the N (a tuple scan is N instructions, one per output). Scan walks the
  // axis from its start (from its end when ival != 0) and keeps the shape;
  // ReduceWith folds it left to right and drops it.
  Scan,
  ReduceWith,
  Sort,       // along the last axis, stable; ival != 0: descending; NaN above every number
  Flip,       // reversed along `axis`
  Join,       // a, b of one shape -> shape + [2]: result[..., 0] = a, [..., 1] = b
  Split,      // x [..., 2] -> x[..., ival] (ival 0 or 1)
  Gather,     // src, index (index's shape): src with the `axis` coordinate replaced by index
  Histogram,  // x (integers), [mask] (has_mask) -> i32[ival]: counts of each value in [0, ival)
  // Atomics and math
  // args: ptr, value, [mask], [cmp (Cas only)]; kind `atomic`, ordering
  // `sem` and `scope`; result: old values (0 on masked lanes).
  AtomicRMW,
  Erf, Log1p, Expm1,  // elementwise, one float operand
  Rint,               // round half to even (libdevice rint)
  Round,              // round half away from zero (libdevice round)
  Pow,                // elementwise, two float operands
  UMulHi,             // high half of the full product of two integers
#define TL_X(OP, NAME) OP,
  TL_LIBDEVICE_UNARY(TL_X)   // elementwise, one float operand: first Acos, last Logb
  TL_LIBDEVICE_BINARY(TL_X)  // elementwise, two float operands: first Atan2, last Remainder
#undef TL_X
};

enum class ReduceKind : uint8_t { Sum, Max, Min, ArgMax, ArgMin };
enum class Precision : uint8_t { tf32, tf32x3, ieee };
enum class AtomicKind : uint8_t { Max, Min, And, Or, Xor, Xchg, Cas };
// Triton's sem= and scope= of atomics (acq_rel and gpu by default).
enum class MemSem : uint8_t { acq_rel, acquire, release, relaxed };
enum class MemScope : uint8_t { gpu, cta, sys };
// f32 -> f16/bf16 rounding of a Cast (Triton's fp_downcast_rounding).
enum class Rounding : uint8_t { rtne, rtz };

const char* op_name(Op op);
const char* reduce_name(ReduceKind k);
const char* precision_name(Precision p);
const char* atomic_name(AtomicKind k);  // "max", ..., "cas"
const char* sem_name(MemSem s);
const char* scope_name(MemScope s);
bool is_unary(Op op);
bool is_atomic(Op op);  // AtomicAdd or AtomicRMW: ordered among themselves
bool is_binary(Op op);
bool is_compare(Op op);
bool is_libdevice_unary(Op op);   // TL_LIBDEVICE_UNARY's ops
bool is_libdevice_binary(Op op);  // TL_LIBDEVICE_BINARY's ops

struct Block;

struct Instr {
  Op op;
  int dst = -1;           // result register, -1 if none
  std::vector<int> args;  // operand registers
  // Attributes; which are meaningful depends on `op`.
  int cond_reg = -1;  // While: the i1 its cond_body leaves
  int64_t ival = 0, ival2 = 0;
  double fval = 0;
  int axis = 0;
  int param_index = -1;
  std::vector<int> dims;  // Permute order
  ReduceKind reduce = ReduceKind::Sum;
  Precision precision = Precision::tf32;
  AtomicKind atomic = AtomicKind::Max;  // AtomicRMW
  MemSem sem = MemSem::acq_rel;         // AtomicAdd, AtomicRMW
  MemScope scope = MemScope::gpu;       // AtomicAdd, AtomicRMW
  Rounding rounding = Rounding::rtne;   // Cast to f16/bf16 from a wider float
  bool has_mask = false, has_other = false, has_acc = false;
  bool propagate_nan = false;  // Reduce max/min, Maximum/Minimum
  std::string text;            // Print prefix, Assert message
  // Load/Store through a block pointer: the block dims that are not
  // boundary-checked. For each, two trailing 0-d i64 args (the block's
  // offset on that dim, the tensor's extent there) let the sanitizer flag
  // active lanes outside the block pointer's shape; backends ignore them.
  std::vector<int> shape_dims;
  SrcLoc loc;
  std::unique_ptr<Block> body, else_body;
  std::unique_ptr<Block> cond_body;  // While: computes cond_reg
  // Scan / ReduceWith: the combine function, built once. It reads
  // `block_args` (2N 0-d registers: the running values, then the next
  // element's) and leaves `yields` (N 0-d registers). Only elementwise ops
  // on 0-d values live in it; for_each_instr does not enter it.
  std::unique_ptr<Block> combine;
  std::vector<int> block_args, yields;
};

struct Block {
  std::vector<Instr> instrs;
};

enum class ParamKind : uint8_t { Pointer, Scalar, Constant };

struct Param {
  ParamKind kind;
  std::string name;  // may be empty: names come from the launch
  DType dtype;       // pointee dtype, scalar dtype; i64 for constants
  int64_t value = 0; // constants only
};

struct Register {
  Type type;
  std::string hint;  // readable name for dumps, may be empty
};

struct Kernel {
  std::string name;
  std::vector<Param> params;
  std::vector<Register> regs;
  Block body;
  SrcLoc loc;  // where the kernel function is (first op seen)
  // Buffers (pointer parameter indices) that stores or atomics may touch.
  std::vector<bool> param_written;
  bool has_atomics = false;
  bool has_print = false;
  const Type& type(int reg) const { return regs[reg].type; }
};

// Readable text form, one instruction per line with its kernel line.
std::string print(const Kernel& k, bool with_locations = true);
// Structural checks: registers defined before use, operand types agree with
// each op's rule. Returns the problems found (empty: valid).
std::vector<std::string> verify(const Kernel& k);
// Number of instructions, nested blocks included.
size_t instruction_count(const Block& b);
// Every instruction of `b` and of the blocks nested in it, in program
// order (an instruction before its blocks: a While's cond_body before its
// body), each with the block holding it.
void for_each_instr(const Block& b, const std::function<void(const Instr&, const Block&)>& fn);
// The number of leading args that are the op's own operands (a block
// pointer's trailing shape-check args left out).
size_t operand_count(const Instr& in);

}  // namespace tl::ir
