// The OCR pipeline: detector -> DB boxes -> rectified crops -> direction
// classifier -> recogniser -> CTC text. Three sessions share one Kit (one device,
// one pool, one profiler device); the recogniser re-plans per batch width through
// its plan cache.
#pragma once

#include "runtime/session.h"
#include "tools/gkocr/ctc_decode.h"
#include "tools/gkocr/db_postprocess.h"
#include "tools/gkocr/image.h"
#include "tools/gkocr/line_join.h"
#include "tools/gkocr/word_gaps.h"

#include <memory>
#include <string>
#include <vector>

namespace gk::ocr {

struct OcrOptions {
  std::string models_dir;        // holds the four files named in ModelFiles
  std::string backend = "auto";  // auto | cpu | cuda
  int threads = 0;
  bool use_classifier = true;
  int batch = 6;                 // crops per cls/rec run (PaddleOCR's rec_batch_num)
  float drop_score = 0.5f;       // lines below this confidence are dropped
  std::string dump_dir;          // when set: every model input/output as .npy
  // The unclip ratio and the crop padding were chosen on the tuning set
  // (tests/ocr/render_tuneset.sh, 134 lines; tools/gkocr/sweep_params.py; the
  // table is in docs/ocr-tuning.md). PaddleOCR's unclip ratio, 1.5, gives boxes
  // that end at the ink, and the recogniser then reads "Invoice" as "Inv0ice".
  DbOptions db{.unclip_ratio = 2.1f};
  JoinOptions join;              // boxes the detector split on one line become one line
  float crop_pad_x = 0.1f;       // each end of a crop grows by this x the box height (pad_box)
  float crop_pad_y = 0;          // its top and bottom likewise
  WordGapOptions word_gaps;      // spaces between words from the CTC alignment and the crop
};

struct ModelFiles {
  static constexpr const char* kDet = "ch_PP-OCRv4_det_infer.onnx";
  static constexpr const char* kCls = "ch_ppocr_mobile_v2.0_cls_infer.onnx";
  static constexpr const char* kRec = "ch_PP-OCRv4_rec_infer.onnx";
  static constexpr const char* kKeys = "ppocr_keys_v1.txt";
};

struct OcrLine {
  std::string text;
  std::string raw_text; // the recogniser's characters, before word-gap spacing
  float confidence = 0;
  Quad box;             // image coordinates, clockwise from top-left
  bool rotated = false; // the classifier turned the crop by 180 degrees
};

struct OcrTimings {     // wall milliseconds of one image
  double preprocess = 0, det = 0, postprocess = 0, crop = 0, cls = 0, rec = 0, decode = 0, total = 0;
};

struct OcrResult {
  std::vector<OcrLine> lines;
  OcrTimings ms;
  int boxes = 0;        // detected before the confidence filter
  int joined = 0;       // boxes that joined another one's line (boxes - lines before the filter)
};

class OcrPipeline {
 public:
  static Result<std::unique_ptr<OcrPipeline>> open(const OcrOptions& options);

  Result<OcrResult> run(const Image& image, Profiler* profiler = nullptr) const;

  Kit kit() const { return kit_; }
  const Session& det() const { return *det_; }
  const Session& cls() const { return *cls_; }
  const Session& rec() const { return *rec_; }
  const Charset& charset() const { return charset_; }

 private:
  OcrPipeline() = default;
  Result<std::vector<bool>> classify(const std::vector<Image>& crops, const RunOptions& ro, int* dump_index) const;
  // gap_heights[i]: the share of crop i's height the word-gap rule measures
  // against (the reference box without padding).
  Status recognise(const std::vector<Image>& crops, const std::vector<double>& gap_heights, const RunOptions& ro,
                   std::vector<OcrLine>* lines, OcrTimings* ms) const;
  Status dump(const std::string& name, const HostTensor& tensor) const;

  OcrOptions options_;
  Kit kit_;
  std::shared_ptr<Session> det_, cls_, rec_;
  Charset charset_;
};

}  // namespace gk::ocr
