#include "model_modes.h"

namespace viz {

const char* color_mode_name(ColorMode m) {
  switch (m) {
    case ColorMode::Access: return "access";
    case ColorMode::Coverage: return "coverage";
    case ColorMode::Values: return "values";
  }
  return "?";
}

std::optional<ColorMode> parse_color_mode(std::string_view s) {
  for (ColorMode m : kColorModes)
    if (s == color_mode_name(m)) return m;
  return std::nullopt;
}

const char* value_source_name(ValueSource s) {
  switch (s) {
    case ValueSource::Before: return "before";
    case ValueSource::After: return "after";
    case ValueSource::Stored: return "stored";
  }
  return "?";
}

std::optional<ValueSource> parse_value_source(std::string_view s) {
  for (ValueSource v : kValueSources)
    if (s == value_source_name(v)) return v;
  return std::nullopt;
}

}  // namespace viz
