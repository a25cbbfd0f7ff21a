// What the tensor panes color their cells by, and the names the command
// line and the menus use for each choice.
#pragma once
#include <optional>
#include <string_view>

namespace viz {

enum class ColorMode {
  Access,    // the current event: loaded / stored / masked / out of bounds
  Coverage,  // every element by how many programs loaded or stored it
  Values,    // a heatmap of the values
};
inline constexpr ColorMode kColorModes[] = {ColorMode::Access, ColorMode::Coverage, ColorMode::Values};

enum class ValueSource {
  Before,  // the buffer before the launch (inputs as given)
  After,   // after it (final outputs)
  Stored,  // the values the current store wrote, over the buffer before the launch
};
inline constexpr ValueSource kValueSources[] = {ValueSource::Before, ValueSource::After, ValueSource::Stored};

const char* color_mode_name(ColorMode m);  // "access", "coverage", "values"
std::optional<ColorMode> parse_color_mode(std::string_view s);
const char* value_source_name(ValueSource s);  // "before", "after", "stored"
std::optional<ValueSource> parse_value_source(std::string_view s);

}  // namespace viz
