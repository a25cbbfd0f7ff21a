// Your own kernel with tilescope: a row-wise layer norm, written, launched,
// checked and traced from an ordinary program through the public API only.
// It is the README's worked example, and CI builds it as an outside project
// against an installed tilescope (tests/consumer_check.cmake).
#include <tilescope/tilescope.h>

#include <cmath>
#include <cstdio>
#include <cstring>

// y = (x - mean(x)) / sqrt(var(x) + eps) * w + b, over each row of x [M, N];
// one program per row, BLOCK_N >= N lanes of which the first N are the row.
// BUG = 1 plants a real mistake: the load of w has no mask, so the lanes
// past N read outside w (on a GPU: whatever lies there, or a fault).
void row_layer_norm(tl::Ptr x, tl::Ptr y, tl::Ptr w, tl::Ptr b, tl::Int M, tl::Int N, tl::Float eps,
                    tl::Const BLOCK_N, tl::Const BUG) {
  (void)M;  // for the declared shapes
  auto cols = tl::arange(0, BLOCK_N);
  auto mask = cols < N;
  auto row = x + tl::program_id(0) * N;
  auto xv = tl::load(row + cols, mask, 0.0f);
  auto mean = tl::sum(xv) / N;
  auto diff = tl::where(mask, xv - mean, 0.0f);
  auto rstd = tl::rsqrt(tl::sum(diff * diff) / N + eps);
  auto wv = BUG ? tl::load(w + cols) : tl::load(w + cols, mask);
  auto bv = tl::load(b + cols, mask);
  tl::store(y + tl::program_id(0) * N + cols, diff * rstd * wv + bv, mask);
}

// Names and shapes of the parameters: a launch with a buffer of another
// dtype or shape is refused with an error at the launch line.
const tilescope::Kernel layer_norm("row_layer_norm", row_layer_norm,
                                   {{"x", tl::f32, {"M", "N"}},
                                    {"y", tl::f32, {"M", "N"}},
                                    {"w", tl::f32, {"N"}},
                                    {"b", tl::f32, {"N"}},
                                    {"M"}, {"N"}, {"eps"}, {"BLOCK_N"}, {"BUG"}});

int main(int argc, char** argv) {
  const int M = 64, N = 100;  // N is not a power of two: every row has masked lanes
  tilescope::Buffer x("x", tl::f32, {M, N}), y("y", tl::f32, {M, N});
  float w_data[N], b_data[N];  // memory the program owns, wrapped
  tilescope::Buffer w = tilescope::wrap("w", w_data, {N}), b = tilescope::wrap("b", b_data, {N});
  for (int i = 0; i < M * N; ++i) x.as<float>()[i] = std::sin(0.37f * i) * (1 + i % 7);
  for (int j = 0; j < N; ++j) w_data[j] = 1.0f + 0.01f * j, b_data[j] = 0.5f - 0.02f * j;

  // layer_norm[(M,)](x, y, w, b, M, N, eps, BLOCK_N=128, BUG=0), traced.
  tilescope::Options options;
  options.trace = tilescope::Tracing::Full;
  const tilescope::Result ok = tilescope::launch(layer_norm, {M}, {x, y, w, b, M, N, 1e-5f, 128, 0}, options);
  std::fputs(ok.report().c_str(), stdout);
  if (!ok.error.empty()) return 1;

  // The kernel against a plain C++ reference.
  double max_err = 0;
  for (int i = 0; i < M; ++i) {
    double mean = 0, var = 0;
    for (int j = 0; j < N; ++j) mean += x.as<float>()[i * N + j] / double(N);
    for (int j = 0; j < N; ++j) var += std::pow(x.as<float>()[i * N + j] - mean, 2) / N;
    for (int j = 0; j < N; ++j) {
      const double ref = (x.as<float>()[i * N + j] - mean) / std::sqrt(var + 1e-5) * w_data[j] + b_data[j];
      max_err = std::fmax(max_err, std::fabs(ref - y.as<float>()[i * N + j]));
    }
  }
  std::printf("row_layer_norm: max |y - reference| = %.3g\n", max_err);

  if (tilescope::Status s = tilescope::save_trace(ok, "layer_norm_trace.json"); !s)
    std::fprintf(stderr, "%s\n", s.message.c_str());
  else
    std::printf("trace saved: tilescope view layer_norm_trace.json\n");
  if (argc > 1 && !std::strcmp(argv[1], "--view"))  // needs a display
    if (tilescope::Status s = tilescope::view(ok); !s) std::fprintf(stderr, "%s\n", s.message.c_str());

  // The same launch with the planted bug: the values are still right (the
  // stray lanes are never stored), but the sanitizer reports the load.
  const tilescope::Result bug = tilescope::launch(layer_norm, {M}, {x, y, w, b, M, N, 1e-5f, 128, 1});
  std::fputs(bug.report().c_str(), stdout);

  const bool caught = bug.findings.size() == 1 && bug.findings[0].kind == tl::FindingKind::OutOfBoundsLoad;
  return ok.ok() && max_err < 1e-4 && caught ? 0 : 1;
}
