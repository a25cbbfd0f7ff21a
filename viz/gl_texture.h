// An RGBA8 OpenGL texture holding a GridImage, drawn by ImGui as one quad.
// Needs a current OpenGL context for its whole life.
#pragma once
#include <cstdint>

#include "model_grid_image.h"

namespace viz {

class GlTexture {
 public:
  GlTexture() = default;
  ~GlTexture();
  GlTexture(const GlTexture&) = delete;
  GlTexture& operator=(const GlTexture&) = delete;
  GlTexture(GlTexture&& o) noexcept;
  GlTexture& operator=(GlTexture&& o) noexcept;

  // Replaces the contents (reallocating only when the size changes).
  void upload(const GridImage& img);
  bool valid() const { return id_ != 0 && width_ > 0 && height_ > 0; }
  // ImTextureID is void* in Dear ImGui 1.86; the OpenGL 3 backend reads it
  // back as the texture name.
  void* imgui_id() const { return reinterpret_cast<void*>(static_cast<intptr_t>(id_)); }
  int64_t width() const { return width_; }
  int64_t height() const { return height_; }
  int64_t step() const { return step_; }  // cells per texel

 private:
  void release();
  unsigned id_ = 0;
  int64_t width_ = 0, height_ = 0, step_ = 1;
};

// The largest texture side the driver takes (16384 on Mesa's llvmpipe).
int64_t max_texture_size();

}  // namespace viz
