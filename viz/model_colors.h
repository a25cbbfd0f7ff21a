// The colors the viewer paints cells with. Packed 8-bit RGBA with red in the
// low byte: the layout of ImGui's IM_COL32 and of an RGBA8 texture in
// memory, so the model picks colors, the UI draws them unchanged, and tests
// compare them with screenshot pixels.
#pragma once
#include <cstdint>

namespace viz {

using Rgba = uint32_t;

constexpr Rgba rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return Rgba{r} | Rgba{g} << 8 | Rgba{b} << 16 | Rgba{a} << 24;
}
constexpr uint8_t red_of(Rgba c) { return c & 0xff; }
constexpr uint8_t green_of(Rgba c) { return (c >> 8) & 0xff; }
constexpr uint8_t blue_of(Rgba c) { return (c >> 16) & 0xff; }
constexpr uint8_t alpha_of(Rgba c) { return c >> 24; }

// One name per meaning; every pane uses these, so "blue" always means loaded.
namespace palette {
inline constexpr Rgba untouched = rgba(62, 66, 76);        // an element no shown access touched
inline constexpr Rgba beyond_tensor = rgba(24, 26, 30);    // canvas outside the tensor
inline constexpr Rgba loaded = rgba(66, 135, 245);         // blue
inline constexpr Rgba stored = rgba(245, 140, 40);         // orange
inline constexpr Rgba atomic = rgba(186, 96, 226);         // purple
inline constexpr Rgba masked = rgba(128, 128, 128);        // grey, hatched
inline constexpr Rgba masked_hatch = rgba(92, 92, 92);
inline constexpr Rgba out_of_bounds = rgba(232, 36, 36);   // red
inline constexpr Rgba never_written = rgba(206, 30, 150);  // magenta: an output element nothing stored
inline constexpr Rgba written_once = rgba(64, 168, 96);    // green: one program stored it
inline constexpr Rgba overlap = rgba(240, 206, 40);        // yellow: several programs stored it (a race)
inline constexpr Rgba conflict = rgba(40, 232, 232);       // cyan outline: a write conflict (two programs stored it)
inline constexpr Rgba match = rgba(52, 120, 72);           // diff grids: within tolerance
inline constexpr Rgba mismatch = rgba(232, 36, 36);
inline constexpr Rgba not_a_number = rgba(206, 30, 150);
inline constexpr Rgba clean_program = rgba(64, 168, 96);
inline constexpr Rgba flagged_program = rgba(232, 36, 36);
inline constexpr Rgba untraced_program = rgba(70, 70, 70);
inline constexpr Rgba highlight = rgba(255, 255, 255);
}  // namespace palette

// a + (b - a) * t per channel, t clamped to [0, 1].
Rgba mix(Rgba a, Rgba b, double t);

// A perceptually ordered colormap (viridis) at t in [0, 1].
Rgba heat_color(double t);

// Shades of blue for "read by k programs": 1 light, growing darker blue-violet.
Rgba read_count_color(uint32_t programs);

}  // namespace viz
