// PNG encoding of a rendered picture with libstb (Debian's libstb-dev). A
// picture holds a few dozen colors: written as an indexed-color PNG (one
// byte a pixel, compressed with stb's zlib), it takes about a third of the
// time of stb's RGBA writer and a fraction of the bytes, which matters for
// notebooks that embed one per puzzle. Past 256 colors, stb's RGBA writer.
#include <stb/stb_image_write.h>

#include <array>
#include <cstdlib>
#include <unordered_map>

#include "render_raster.h"

// stb's deflate, exported by libstb but declared only in the header's
// implementation part.
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

namespace viz {

namespace {

uint32_t crc32(const unsigned char* p, size_t n, uint32_t crc = 0) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

void put32(std::string& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>((v >> s) & 0xff));
}

void chunk(std::string& out, const char* type, const std::string& data) {
  put32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.append(type, 4);
  out += data;
  put32(out, crc32(reinterpret_cast<const unsigned char*>(out.data() + start), out.size() - start));
}

// Palette indices of every pixel, each row led by filter byte 0; false when
// the image has more than 256 colors.
bool index_pixels(const RgbaImage& image, std::vector<Rgba>& palette, std::string& rows) {
  std::unordered_map<Rgba, uint8_t> index;
  rows.resize(static_cast<size_t>(image.width + 1) * image.height);
  Rgba last = 0;
  uint8_t last_index = 0;
  bool have_last = false;
  size_t o = 0;
  for (int y = 0; y < image.height; ++y) {
    rows[o++] = 0;
    const Rgba* row = &image.pixels[static_cast<size_t>(y) * image.width];
    for (int x = 0; x < image.width; ++x) {
      const Rgba c = row[x];
      if (!have_last || c != last) {
        auto [it, added] = index.try_emplace(c, static_cast<uint8_t>(palette.size()));
        if (added) {
          if (palette.size() == 256) return false;
          palette.push_back(c);
        }
        last = c;
        last_index = it->second;
        have_last = true;
      }
      rows[o++] = static_cast<char>(last_index);
    }
  }
  return true;
}

std::string rgba_png(const RgbaImage& image) {
  std::string out;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  // Rgba is red in the low byte: in memory, R G B A per pixel, what stb reads.
  stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.pixels.data(), image.width * 4);
  return out;
}

}  // namespace

std::string encode_png(const RgbaImage& image) {
  if (image.width <= 0 || image.height <= 0) return {};
  std::vector<Rgba> palette;
  std::string rows;
  if (!index_pixels(image, palette, rows)) return rgba_png(image);
  int zlen = 0;
  unsigned char* z = stbi_zlib_compress(reinterpret_cast<unsigned char*>(rows.data()), static_cast<int>(rows.size()),
                                        &zlen, 5);
  if (!z) return rgba_png(image);
  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  put32(header, static_cast<uint32_t>(image.width));
  put32(header, static_cast<uint32_t>(image.height));
  header += std::string("\x08\x03\x00\x00\x00", 5);  // 8-bit indices, color type 3 (palette)
  chunk(out, "IHDR", header);
  std::string plte;
  for (Rgba c : palette) {
    plte.push_back(static_cast<char>(red_of(c)));
    plte.push_back(static_cast<char>(green_of(c)));
    plte.push_back(static_cast<char>(blue_of(c)));
  }
  chunk(out, "PLTE", plte);
  chunk(out, "IDAT", std::string(reinterpret_cast<const char*>(z), static_cast<size_t>(zlen)));
  std::free(z);
  chunk(out, "IEND", "");
  return out;
}

}  // namespace viz
