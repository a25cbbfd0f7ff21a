// Puzzle 10 — Two-Dimensional Convolution (`conv2d`).
#include "puzzle_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Puzzle 10 - Two-Dimensional Convolution (conv2d)

A batch of N0 single-channel H x W images, each correlated with one KH x KW
kernel. The output has the same H x W size as the input: the window anchored
at (h, w) extends down and to the right, and image pixels outside the image
(row >= H or column >= W) count as 0. The kernel is not flipped
(cross-correlation). Each program owns B0 images; it loops over all output
positions (h, w), loads a [B0, KH, KW] window tile (masked at the image
border and at the batch end), multiplies it by the kernel tile and reduces
the last two axes.

Math:        for i < N0, h < H, w < W:
               z[i, h, w] = sum over kh < KH, kw < KW of k[kh, kw] * X(i, h + kh, w + kw)
               X(i, r, c) = x[i, r, c] if r < H and c < W, 0 otherwise
Inputs:      x: f32[N0, H, W]  (x[i, r, c] at (i*H + r)*W + c),
             k: f32[KH, KW]    (k[kh, kw] at kh*KW + kw)
Output:      z: f32[N0, H, W]
Parameters:  (x, k, z, N0, H, W | KH, KW, B0); KH and KW are compile-time
             powers of two (tile extents) and may exceed H or W
Canonical:   N0 = 4, H = 8, W = 8, KH = 4, KW = 4, B0 = 2,
             grid (cdiv(4, 2), 1, 1) = (2, 1, 1)
Owner:       z[i, h, w] belongs to program (i / B0, 0, 0)
Operations:  program_id(0), arange, rank-3 expand ([B0,1,1], [1,KH,1],
             [1,1,KW]), unmasked 2-D load of k, two nested runtime loops over
             h and w, 3-D masked load with fill 0 (mask i < N0 and h+kh < H
             and w+kw < W), broadcasting multiply by the kernel tile, two sum
             reductions (axis 2 then axis 1), masked store of a [B0] tile at
             offsets (i*H + h)*W + w
)";

// Reference solution: one [B0, KH, KW] window per output position.
void conv2d_kernel(tl::Ptr x, tl::Ptr k, tl::Ptr z, tl::Int N0, tl::Int H, tl::Int W, tl::Const KH, tl::Const KW,
                   tl::Const B0) {
  auto off_i = tl::program_id(0) * B0 + tl::arange(0, B0);
  auto off_kh = tl::arange(0, KH);
  auto off_kw = tl::arange(0, KW);
  auto kv = tl::load(k + off_kh.col() * KW + off_kw.row());  // [KH, KW], the whole kernel
  auto i3 = tl::expand_dims(off_i, {1, 2});                  // [B0, 1, 1]
  auto kh3 = tl::expand_dims(off_kh, {0, 2});                // [1, KH, 1]
  auto kw3 = tl::expand_dims(off_kw, {0, 1});                // [1, 1, KW]
  auto mask_i = off_i < N0;
  for (auto h : tl::range(0, H)) {
    for (auto w : tl::range(0, W)) {
      auto r = h + kh3;  // window rows
      auto c = w + kw3;  // window columns
      auto mask = (i3 < N0) & (r < H) & (c < W);  // past the bottom/right edge counts as 0
      auto window = tl::load(x + (i3 * H + r) * W + c, mask, 0.0f);
      auto zv = tl::sum(tl::sum(window * kv, 2), 1);  // [B0]
      tl::store(z + (off_i * H + h) * W + w, zv, mask_i);
    }
  }
}

// The stub leaves every parameter for the learner to use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
void conv2d_stub(tl::Ptr x, tl::Ptr k, tl::Ptr z, tl::Int N0, tl::Int H, tl::Int W, tl::Const KH, tl::Const KW,
                 tl::Const B0) {
  // Finish me!
}
#pragma GCC diagnostic pop

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const float* x = in[0].as<float>();
  const float* k = in[1].as<float>();
  const int64_t n0 = s["N0"], h_len = s["H"], w_len = s["W"], kh_len = s["KH"], kw_len = s["KW"];
  std::vector<double> z(n0 * h_len * w_len, 0.0);
  for (int64_t i = 0; i < n0; ++i)
    for (int64_t h = 0; h < h_len; ++h)
      for (int64_t w = 0; w < w_len; ++w) {
        double acc = 0;
        for (int64_t kh = 0; kh < kh_len; ++kh)
          for (int64_t kw = 0; kw < kw_len; ++kw) {
            const int64_t r = h + kh, c = w + kw;
            if (r < h_len && c < w_len) acc += double(k[kh * kw_len + kw]) * double(x[(i * h_len + r) * w_len + c]);
          }
        z[(i * h_len + h) * w_len + w] = acc;
      }
  return z;
}

SizeSet set(std::string name, int64_t n0, int64_t h, int64_t w, int64_t kh, int64_t kw, int64_t b0,
            std::string stresses) {
  return SizeSet{std::move(name), {{"N0", n0}, {"H", h}, {"W", w}}, {{"KH", kh}, {"KW", kw}}, {{"B0", b0}},
                 std::move(stresses), {}};
}

}  // namespace

Puzzle make_conv2d() {
  const std::vector<std::string> names{"x", "k", "z", "N0", "H", "W", "KH", "KW", "B0"};
  static const tl::KernelDef solution("conv2d", conv2d_kernel, names);
  static const tl::KernelDef stub("conv2d_stub", conv2d_stub, names);
  Puzzle p;
  p.number = 10;
  p.id = "conv2d";
  p.title = "Two-Dimensional Convolution";
  p.statement = kStatement;
  p.tolerance = 1e-4;
  p.inputs = {{"x", tl::f32, dims({"N0", "H", "W"})}, {"k", tl::f32, dims({"KH", "KW"})}};
  p.output = {"z", tl::f32, dims({"N0", "H", "W"})};
  p.output_axes = {0, -1, -1};
  p.sets = {set("canonical", 4, 8, 8, 4, 4, 2, "windows cross the bottom and right edges"),
            set("10a", 3, 5, 7, 4, 4, 2, "H != W, neither a power of two; batch tail"),
            set("10b", 1, 2, 3, 4, 2, 4, "kernel taller than the image; KH != KW; B0 > N0"),
            set("10c", 5, 20, 13, 2, 8, 4, "larger image; wide kernel; batch tail 1 of 4")};
  p.solution = &solution;
  p.stub = &stub;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
