// 8-bit RGB images read from PNG/JPEG and written as PNG with stb (Debian's
// libstb-dev): the one stb configuration and its two calls, shared by this example
// and gkocr (tools/gkocr/image.cpp). Header-only, because the example also builds
// outside the tree against the installed package, where no gkrun tool library
// exists. stb is compiled static (STB_IMAGE_STATIC), so each including .cpp gets its
// own private copy and two users in one program do not collide.
#pragma once

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STB_IMAGE_WRITE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stb_rgb {

// A decoded image: width x height pixels, 3 bytes each, row-major; `error` is
// stb's reason when the file could not be read (then the rest is empty).
struct Decoded {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
  std::string error;
};

inline Decoded read(const std::string& path) {
  Decoded out;
  int channels = 0;
  // stb rejects images above 2^24 pixels per side; a decoded image is w*h*3 bytes.
  unsigned char* data = stbi_load(path.c_str(), &out.width, &out.height, &channels, 3);
  if (data == nullptr) {
    out.width = out.height = 0;
    out.error = stbi_failure_reason() ? stbi_failure_reason() : "unknown error";
    return out;
  }
  out.rgb.assign(data, data + static_cast<size_t>(out.width) * out.height * 3);
  stbi_image_free(data);
  return out;
}

// False when the file could not be written.
inline bool write_png(const std::string& path, int width, int height, const uint8_t* rgb) {
  return stbi_write_png(path.c_str(), width, height, 3, rgb, width * 3) != 0;
}

}  // namespace stb_rgb
