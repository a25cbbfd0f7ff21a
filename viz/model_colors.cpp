#include "model_colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace viz {

Rgba mix(Rgba a, Rgba b, double t) {
  t = std::clamp(t, 0.0, 1.0);
  auto channel = [t](uint8_t x, uint8_t y) {
    return static_cast<uint8_t>(std::lround(x + (static_cast<double>(y) - x) * t));
  };
  return rgba(channel(red_of(a), red_of(b)), channel(green_of(a), green_of(b)), channel(blue_of(a), blue_of(b)),
              channel(alpha_of(a), alpha_of(b)));
}

Rgba heat_color(double t) {
  // Viridis sampled at nine points; linear in between is indistinguishable
  // from the full table at cell sizes.
  static constexpr std::array<Rgba, 9> kStops = {
      rgba(68, 1, 84),    rgba(71, 44, 122),  rgba(59, 81, 139),  rgba(44, 113, 142), rgba(33, 144, 141),
      rgba(39, 173, 129), rgba(92, 200, 99),  rgba(170, 220, 50), rgba(253, 231, 37),
  };
  if (!(t >= 0)) t = 0;  // NaN included
  t = std::min(t, 1.0);
  const double pos = t * (kStops.size() - 1);
  const size_t i = std::min(static_cast<size_t>(pos), kStops.size() - 2);
  return mix(kStops[i], kStops[i + 1], pos - static_cast<double>(i));
}

Rgba read_count_color(uint32_t programs) {
  if (programs == 0) return palette::untouched;
  // 1 program: the load blue; each doubling moves a step towards violet.
  const double steps = std::log2(static_cast<double>(programs));
  return mix(palette::loaded, rgba(110, 60, 200), steps / 4.0);
}

}  // namespace viz
