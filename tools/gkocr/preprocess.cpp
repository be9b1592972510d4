#include "tools/gkocr/preprocess.h"

#include <algorithm>
#include <cmath>

namespace gk::ocr {
namespace {

constexpr int kRecHeight = 48;
constexpr int kRecWidth = 320;  // rec_image_shape 3,48,320
constexpr int kClsWidth = 192;  // cls_image_shape 3,48,192

Result<HostTensor> batch_tensor(const std::vector<const Image*>& crops, int width, int max_resized) {
  const int64_t n = static_cast<int64_t>(crops.size());
  GK_TRY(HostTensor t, HostTensor::allocate(DType::kF32, {n, 3, kRecHeight, width}));
  float* data = t.mutable_data<float>();
  for (int64_t i = 0; i < n; ++i)
    fill_normalized_crop(*crops[i], crop_input_width(*crops[i], max_resized), width,
                         data + i * 3 * kRecHeight * width);
  return t;
}

}  // namespace

int crop_input_width(const Image& crop, int max_width) {
  const double ratio = static_cast<double>(crop.width) / crop.height;
  return std::max(1, static_cast<int>(std::min<double>(std::ceil(kRecHeight * ratio), max_width)));
}

Result<DetInput> det_preprocess(const Image& image, int limit_side) {
  const int longer = std::max(image.width, image.height);
  const double ratio = longer > limit_side ? static_cast<double>(limit_side) / longer : 1.0;
  // Python's round() on the side / 32: half to even, like std::nearbyint.
  auto to32 = [](double side) { return std::max(32, static_cast<int>(std::nearbyint(std::floor(side) / 32) * 32)); };
  DetInput out;
  out.width = to32(image.width * ratio);
  out.height = to32(image.height * ratio);
  const Image resized = resize_bilinear(image, out.width, out.height);
  GK_TRY(out.tensor, HostTensor::allocate(DType::kF32, {1, 3, out.height, out.width}));
  static constexpr float kMean[3] = {0.485f, 0.456f, 0.406f};
  static constexpr float kStd[3] = {0.229f, 0.224f, 0.225f};
  float* data = out.tensor.mutable_data<float>();
  const int64_t plane = static_cast<int64_t>(out.width) * out.height;
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const uint8_t* px = resized.at(x, y);
      for (int c = 0; c < 3; ++c)  // tensor channel c is BGR channel c
        data[c * plane + static_cast<int64_t>(y) * out.width + x] = (px[2 - c] / 255.0f - kMean[c]) / kStd[c];
    }
  return out;
}

void fill_normalized_crop(const Image& crop, int resized_w, int width, float* chw) {
  const Image resized = resize_bilinear(crop, resized_w, kRecHeight);
  const int64_t plane = static_cast<int64_t>(kRecHeight) * width;
  for (int y = 0; y < kRecHeight; ++y)
    for (int x = 0; x < std::min(resized_w, width); ++x) {
      const uint8_t* px = resized.at(x, y);
      for (int c = 0; c < 3; ++c) chw[c * plane + static_cast<int64_t>(y) * width + x] = (px[2 - c] / 255.0f - 0.5f) / 0.5f;
    }
}

Result<HostTensor> cls_preprocess(const std::vector<const Image*>& crops) {
  return batch_tensor(crops, kClsWidth, kClsWidth);
}

Result<HostTensor> rec_preprocess(const std::vector<const Image*>& crops) {
  double max_ratio = static_cast<double>(kRecWidth) / kRecHeight;
  for (const Image* c : crops) max_ratio = std::max(max_ratio, static_cast<double>(c->width) / c->height);
  const int width = static_cast<int>(kRecHeight * max_ratio);
  return batch_tensor(crops, width, width);
}

}  // namespace gk::ocr
