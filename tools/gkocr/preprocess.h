// The three models' input tensors, built as PaddleOCR builds them (images in BGR
// channel order, as cv2 reads them and the models were trained).
#pragma once

#include "runtime/kit/host_tensor.h"
#include "tools/gkocr/image.h"

#include <vector>

namespace gk::ocr {

// DetResizeForTest (limit_type "max"): scale so the longer side is at most
// `limit_side`, round each side to a multiple of 32 (at least 32); then
// NormalizeImage with ImageNet mean/std on BGR/255, CHW.
struct DetInput {
  HostTensor tensor;  // 1 x 3 x H x W
  int width = 0, height = 0;
};
Result<DetInput> det_preprocess(const Image& image, int limit_side = 960);

// The direction classifier's batch: each crop resized to height 48 and width
// min(ceil(48 * w / h), 192), (x/255 - 0.5) / 0.5, zero-padded to 192.
Result<HostTensor> cls_preprocess(const std::vector<const Image*>& crops);

// The recogniser's batch: width int(48 * max(320/48, widest w/h in the batch)),
// each crop resized to height 48 keeping its aspect (capped at that width),
// (x/255 - 0.5) / 0.5, zero-padded on the right.
Result<HostTensor> rec_preprocess(const std::vector<const Image*>& crops);

// The columns a crop fills in a cls/rec batch slot of max_width: its width at
// height 48, aspect kept, at least 1 and at most max_width.
int crop_input_width(const Image& crop, int max_width);

// Writes one image into a CHW float slot of `width` columns: resized to
// resized_w x 48, scaled (x/255 - 0.5) / 0.5, the rest left as it was (zeros).
void fill_normalized_crop(const Image& crop, int resized_w, int width, float* chw);

}  // namespace gk::ocr
