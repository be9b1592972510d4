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

// A crop with a margin (crop padding, a large unclip ratio) lets the recogniser
// emit its space class on the blank margin at either end (" gkrun reads this
// line " at unclip 1.8, pad_x 0.2), and a word gap wider than the model has seen
// (a line the detector split, joined) may come out as two spaces a blank apart or
// as the ideographic space U+3000 ("Train departs\u3000at", Serif at
// -interword-spacing 36): U+3000 becomes ' ', runs of spaces become one, and
// none starts or ends a line.
std::string normalize_spaces(const std::string& s) {
  static const std::string kIdeographicSpace = "\xE3\x80\x80";
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (s.compare(i, kIdeographicSpace.size(), kIdeographicSpace) == 0) c = ' ', i += kIdeographicSpace.size() - 1;
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
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

  const std::vector<LineGroup> groups = group_line_boxes(boxes, options_.join);
  result.joined = static_cast<int>(boxes.size() - groups.size());
  const bool per_part = options_.join.enabled && !options_.join.before_recognition;
  const float pad_x = options_.crop_pad_x, pad_y = options_.crop_pad_y;

  t = now_ms();
  std::vector<Image> part_crops;  // one per detector box
  part_crops.reserve(boxes.size());
  for (const DetBox& b : boxes) part_crops.push_back(crop_text(image, pad_box(b.box, pad_x, pad_y)));
  result.ms.crop = now_ms() - t;

  // The classifier sees each detector box: a joined line squeezed into its 192
  // columns can look upside down to it (wide_mono.png of the tuning set at
  // unclip 2.1: turned, then read as "   "). A line turns when the parts holding
  // most of its width say so.
  std::vector<bool> line_flip(groups.size(), false);
  if (cls_ && !part_crops.empty()) {
    t = now_ms();
    int dump_index = 0;
    GK_TRY(std::vector<bool> flip, classify(part_crops, ro, &dump_index));
    for (size_t g = 0; g < groups.size(); ++g) {
      int64_t turned = 0, total = 0;
      for (size_t part : groups[g].parts) {
        total += part_crops[part].width;
        if (flip[part]) turned += part_crops[part].width;
      }
      line_flip[g] = 2 * turned > total;
    }
    result.ms.cls = now_ms() - t;
  }

  // The recogniser reads one crop per line (a joined line is cropped anew from
  // its joined box), or one per detector box when the parts are read apart and
  // their texts joined.
  t = now_ms();
  std::vector<Image> crops;
  std::vector<size_t> crop_line;    // the group each crop belongs to
  std::vector<double> gap_heights;  // per crop: the share of its rows word gaps are measured against
  // The word-gap thresholds are fractions of the box's height at the reference
  // unclip ratio and without padding, where they were measured.
  auto add = [&](size_t g, Image crop, const DetBox& b) {
    crops.push_back(line_flip[g] ? rotate180(crop) : std::move(crop));
    crop_line.push_back(g);
    gap_heights.push_back(b.height_scale / (1.0 + 2.0 * pad_y));
  };
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::vector<size_t>& parts = groups[g].parts;
    if (per_part || parts.size() == 1) {
      for (size_t part : parts) add(g, part_crops[part], boxes[part]);
    } else {
      add(g, crop_text(image, pad_box(groups[g].box.box, pad_x, pad_y)), groups[g].box);
    }
  }
  result.ms.crop += now_ms() - t;

  std::vector<OcrLine> pieces(crops.size());
  if (!crops.empty()) GK_RETURN_IF_ERROR(recognise(crops, gap_heights, ro, &pieces, &result.ms));

  // A line's pieces left to right; each piece below drop_score is dropped as
  // PaddleOCR drops a box, and the line's confidence is the kept pieces' mean,
  // weighted by their characters.
  std::vector<OcrLine> lines(groups.size());
  std::vector<double> weight(groups.size(), 0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    OcrLine& piece = pieces[i];
    if (piece.confidence < options_.drop_score || piece.text.empty()) continue;
    const size_t g = crop_line[i];
    OcrLine& line = lines[g];
    const double w = static_cast<double>(std::max<size_t>(1, piece.raw_text.size()));
    if (!line.raw_text.empty()) line.text += ' ', line.raw_text += ' ';
    line.text += piece.text;
    line.raw_text += piece.raw_text;
    line.confidence = static_cast<float>((line.confidence * weight[g] + piece.confidence * w) / (weight[g] + w));
    weight[g] += w;
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    lines[g].box = groups[g].box.box;
    lines[g].rotated = line_flip[g];
    if (weight[g] > 0) result.lines.push_back(std::move(lines[g]));
  }
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

Status OcrPipeline::recognise(const std::vector<Image>& crops, const std::vector<double>& gap_heights,
                              const RunOptions& ro, std::vector<OcrLine>* lines, OcrTimings* ms) const {
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
        line.text = normalize_spaces(d.text);
        continue;
      }
      evidence.ink = ink_columns(x.data<float>() + i * 3 * height * width, height, width,
                                 crop_input_width(*batch[i], width));
      evidence.px_per_step = static_cast<double>(width) / static_cast<double>(s[1]);
      evidence.height = height * gap_heights[order[begin + i]];
      line.text = normalize_spaces(space_words(d, charset_, evidence, options_.word_gaps));
    }
    ms->decode += now_ms() - t;
  }
  return ok_status();
}

}  // namespace gk::ocr
