#include "gl_texture.h"

#include <GL/gl.h>

#include <utility>

namespace viz {

GlTexture::~GlTexture() { release(); }

GlTexture::GlTexture(GlTexture&& o) noexcept
    : id_(std::exchange(o.id_, 0)), width_(o.width_), height_(o.height_), step_(o.step_) {}

GlTexture& GlTexture::operator=(GlTexture&& o) noexcept {
  if (this != &o) {
    release();
    id_ = std::exchange(o.id_, 0);
    width_ = o.width_;
    height_ = o.height_;
    step_ = o.step_;
  }
  return *this;
}

void GlTexture::release() {
  if (id_ != 0) {
    GLuint name = id_;
    glDeleteTextures(1, &name);
  }
  id_ = 0;
  width_ = height_ = 0;
}

void GlTexture::upload(const GridImage& img) {
  if (img.width <= 0 || img.height <= 0) {
    release();
    return;
  }
  const bool resize = id_ == 0 || img.width != width_ || img.height != height_;
  if (id_ == 0) {
    GLuint name = 0;
    glGenTextures(1, &name);
    id_ = name;
  }
  glBindTexture(GL_TEXTURE_2D, id_);
  // Nearest: a cell is a flat block of color at any zoom, which is what a
  // grid should look like and what pixel tests sample.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  const auto w = static_cast<GLsizei>(img.width), h = static_cast<GLsizei>(img.height);
  if (resize) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
  }
  width_ = img.width;
  height_ = img.height;
  step_ = img.step;
}

int64_t max_texture_size() {
  GLint n = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &n);
  return n > 0 ? n : 2048;
}

}  // namespace viz
