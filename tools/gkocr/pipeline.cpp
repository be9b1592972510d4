#include "tools/gkocr/pipeline.h"

#include "runtime/tensor_io.h"
#include "tools/gkocr/crop.h"
#include "tools/gkocr/preprocess.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <numeric>

namespace gk::ocr {
namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Result<std::shared_ptr<Session>> open_model(const std::string& dir, const char* file, const Kit& kit) {
  const std::filesystem::path path = std::filesystem::path(dir) / file;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return invalid_argument("{}: model not found (--models DIR must hold {})", path.string(), file);
  SessionOptions so;
  so.kit = kit;
  // The three models reuse node names (p2o.Conv.28 is in det and rec): keep their
  // profile rows apart.
  so.profile_prefix = std::filesystem::path(file).stem().string() + "/";
  auto s = Session::open(path.string(), so);
  if (!s.ok()) return s.status().with_context(path.string());
  return s;
}

// One output tensor of a single-output model, checked for rank and dims.
Result<const HostTensor*> only_output(const std::vector<NamedTensor>& outs, size_t rank, const char* model) {
  if (outs.size() != 1 || outs[0].tensor.dtype() != DType::kF32 || outs[0].tensor.shape().size() != rank)
    return invalid_model("{}: expected one float output of rank {}, got {} output(s)", model, rank, outs.size());
  return &outs[0].tensor;
}

// Crop indices ordered by aspect ratio, so a batch pads little (PaddleOCR does so).
std::vector<size_t> by_aspect(const std::vector<Image>& crops) {
  std::vector<size_t> order(crops.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return static_cast<double>(crops[a].width) / crops[a].height < static_cast<double>(crops[b].width) / crops[b].height;
  });
  return order;
}

}  // namespace

Result<std::unique_ptr<OcrPipeline>> OcrPipeline::open(const OcrOptions& options) {
  std::unique_ptr<OcrPipeline> p(new OcrPipeline());
  p->options_ = options;
  if (options.batch < 1) return invalid_argument("--batch {}: must be at least 1", options.batch);
  GK_TRY(p->kit_, open_kit(options.backend, -1, options.threads, 0));
  GK_TRY(p->det_, open_model(options.models_dir, ModelFiles::kDet, p->kit_));
  if (options.use_classifier) {
    GK_TRY(p->cls_, open_model(options.models_dir, ModelFiles::kCls, p->kit_));
  }
  GK_TRY(p->rec_, open_model(options.models_dir, ModelFiles::kRec, p->kit_));
  GK_TRY(p->charset_, load_charset((std::filesystem::path(options.models_dir) / ModelFiles::kKeys).string()));
  if (!options.dump_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.dump_dir, ec);
    if (ec) return invalid_argument("--dump {}: cannot create the folder ({})", options.dump_dir, ec.message());
  }
  return p;
}

Status OcrPipeline::dump(const std::string& name, const HostTensor& tensor) const {
  if (options_.dump_dir.empty()) return ok_status();
  return write_npy((std::filesystem::path(options_.dump_dir) / (name + ".npy")).string(), tensor);
}

Result<OcrResult> OcrPipeline::run(const Image& image, Profiler* profiler) const {
  OcrResult result;
  RunOptions ro;
  ro.profiler = profiler;
  const double start = now_ms();

  double t = now_ms();
  GK_TRY(DetInput in, det_preprocess(image));
  GK_RETURN_IF_ERROR(dump("det_x", in.tensor));
  result.ms.preprocess = now_ms() - t;

  // The probability map comes to the host once; boxes are read straight from it.
  t = now_ms();
  GK_TRY(std::vector<NamedTensor> det_out, det_->run({{det_->inputs()[0].name, in.tensor}}, ro));
  result.ms.det = now_ms() - t;
  GK_TRY(const HostTensor* prob, only_output(det_out, 4, "detector"));
  const Shape& ps = prob->shape();
  if (ps[0] != 1 || ps[1] != 1 || ps[2] != in.height || ps[3] != in.width)
    return invalid_model("detector: output shape [{}, {}, {}, {}], expected [1, 1, {}, {}]", ps[0], ps[1], ps[2], ps[3],
                         in.height, in.width);
  GK_RETURN_IF_ERROR(dump("det_y", *prob));

  t = now_ms();
  std::vector<DetBox> boxes = db_boxes(prob->data<float>(), in.width, in.height, image.width, image.height, options_.db);
  result.ms.postprocess = now_ms() - t;
  result.boxes = static_cast<int>(boxes.size());

  t = now_ms();
  std::vector<Image> crops;
  crops.reserve(boxes.size());
  for (const DetBox& b : boxes) crops.push_back(crop_text(image, b.box));
  result.ms.crop = now_ms() - t;

  std::vector<OcrLine> lines(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) lines[i].box = boxes[i].box;
  if (cls_ && !crops.empty()) {
    t = now_ms();
    int dump_index = 0;
    GK_TRY(std::vector<bool> flip, classify(crops, ro, &dump_index));
    for (size_t i = 0; i < crops.size(); ++i)
      if (flip[i]) {
        crops[i] = rotate180(crops[i]);
        lines[i].rotated = true;
      }
    result.ms.cls = now_ms() - t;
  }
  if (!crops.empty()) GK_RETURN_IF_ERROR(recognise(crops, ro, &lines, &result.ms));

  for (OcrLine& line : lines)
    if (line.confidence >= options_.drop_score) result.lines.push_back(std::move(line));
  if (profiler) GK_RETURN_IF_ERROR(profiler->resolve());
  result.ms.total = now_ms() - start;
  return result;
}

Result<std::vector<bool>> OcrPipeline::classify(const std::vector<Image>& crops, const RunOptions& ro,
                                                int* dump_index) const {
  std::vector<bool> flip(crops.size(), false);
  const std::vector<size_t> order = by_aspect(crops);
  for (size_t begin = 0; begin < order.size(); begin += options_.batch) {
    const size_t end = std::min(order.size(), begin + options_.batch);
    std::vector<const Image*> batch;
    for (size_t i = begin; i < end; ++i) batch.push_back(&crops[order[i]]);
    GK_TRY(HostTensor x, cls_preprocess(batch));
    GK_TRY(std::vector<NamedTensor> out, cls_->run({{cls_->inputs()[0].name, x}}, ro));
    GK_TRY(const HostTensor* probs, only_output(out, 2, "classifier"));
    if (probs->shape()[0] != static_cast<int64_t>(batch.size()) || probs->shape()[1] != 2)
      return invalid_model("classifier: output [{}, {}], expected [{}, 2]", probs->shape()[0], probs->shape()[1],
                           batch.size());
    const std::string tag = std::to_string((*dump_index)++);
    GK_RETURN_IF_ERROR(dump("cls_x_" + tag, x));
    GK_RETURN_IF_ERROR(dump("cls_y_" + tag, *probs));
    // Label 1 is "180"; PaddleOCR turns the crop only when it is sure (> 0.9).
    const float* p = probs->data<float>();
    for (size_t i = 0; i < batch.size(); ++i) flip[order[begin + i]] = p[2 * i + 1] > p[2 * i] && p[2 * i + 1] > 0.9f;
  }
  return flip;
}

Status OcrPipeline::recognise(const std::vector<Image>& crops, const RunOptions& ro, std::vector<OcrLine>* lines,
                              OcrTimings* ms) const {
  const std::vector<size_t> order = by_aspect(crops);
  int dump_index = 0;
  for (size_t begin = 0; begin < order.size(); begin += options_.batch) {
    const size_t end = std::min(order.size(), begin + options_.batch);
    std::vector<const Image*> batch;
    for (size_t i = begin; i < end; ++i) batch.push_back(&crops[order[i]]);
    double t = now_ms();
    GK_TRY(HostTensor x, rec_preprocess(batch));
    GK_TRY(std::vector<NamedTensor> out, rec_->run({{rec_->inputs()[0].name, x}}, ro));
    ms->rec += now_ms() - t;
    GK_TRY(const HostTensor* probs, only_output(out, 3, "recogniser"));
    const Shape& s = probs->shape();
    if (s[0] != static_cast<int64_t>(batch.size()))
      return invalid_model("recogniser: output batch {}, expected {}", s[0], batch.size());
    const std::string tag = std::to_string(dump_index++);
    GK_RETURN_IF_ERROR(dump("rec_x_" + tag, x));
    GK_RETURN_IF_ERROR(dump("rec_y_" + tag, *probs));
    t = now_ms();
    const int height = static_cast<int>(x.shape()[2]), width = static_cast<int>(x.shape()[3]);
    for (size_t i = 0; i < batch.size(); ++i) {
      LineEvidence evidence;
      evidence.probs = probs->data<float>() + i * s[1] * s[2];
      evidence.steps = s[1];
      evidence.classes = s[2];
      GK_TRY(Decoded d, ctc_greedy_decode(evidence.probs, s[1], s[2], charset_));
      OcrLine& line = (*lines)[order[begin + i]];
      line.confidence = d.confidence;
      line.raw_text = d.text;
      if (!options_.word_gaps.enabled || d.chars.size() < 2) {
        line.text = std::move(d.text);
        continue;
      }
      evidence.ink = ink_columns(x.data<float>() + i * 3 * height * width, height, width,
                                 crop_input_width(*batch[i], width));
      evidence.px_per_step = static_cast<double>(width) / static_cast<double>(s[1]);
      evidence.height = height;
      line.text = space_words(d, charset_, evidence, options_.word_gaps);
    }
    ms->decode += now_ms() - t;
  }
  return ok_status();
}

}  // namespace gk::ocr
