// Checks on generated CUDA source that the code-generation tests share.
#pragma once
#include <string>

namespace codegen_text {

inline bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// The kernel itself: the source from its __global__ on, after the prelude
// and the helpers it calls.
inline std::string body_of(const std::string& source) { return source.substr(source.find("__global__")); }

}  // namespace codegen_text
