// gkocr IMAGE: text detection and recognition with PaddleOCR's PP-OCRv4 models on
// the gkrun executor.
//   gkocr IMAGE... [--out annotated.png] [--json] [--backend auto|cpu|cuda] [--models DIR]
//         [--profile] [--dump DIR] [--runs N] [--threads N] [--no-cls] [--no-word-gaps]
//         [--unclip-ratio R] [--crop-pad-x P] [--crop-pad-y P] [--join-gap G] [--join text|boxes|off]
// Several images share one pipeline (the sessions load once); --json then prints
// one object per image, a line each.
#include "tools/gkocr/draw.h"
#include "tools/gkocr/pipeline.h"
#include "tools/gkrun/json.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

namespace {

using namespace gk::ocr;

constexpr int kExitOk = 0, kExitInvalid = 2, kExitRuntime = 3;

struct Flags {
  std::vector<std::string> images;
  std::string out, models, backend = "auto", dump, join = "boxes";
  bool json = false, profile = false, no_cls = false, no_word_gaps = false;
  int runs = 1, threads = 0;
  gk::ocr::OcrOptions defaults;  // the tuned parameters; the flags below start from them
};

int fail(const gk::Status& s) {
  fmt::print(stderr, "gkocr: {}\n", s.to_string());
  const auto c = s.code();
  return c == gk::StatusCode::kInvalidArgument || c == gk::StatusCode::kInvalidModel ||
                 c == gk::StatusCode::kUnimplemented
             ? kExitInvalid
             : kExitRuntime;
}

std::string default_models() {
  if (const char* env = std::getenv("GK_OCR_MODELS")) return env;
  return GK_OCR_DEFAULT_MODELS;
}

double pct(double part, double total) { return total > 0 ? 100.0 * part / total : 0.0; }

std::string box_text(const Quad& q) {
  return fmt::format("{},{} {},{} {},{} {},{}", q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y);
}

// Wall times of one image's runs: the first (plans, packs) and the median of the
// rest (warm), which is steadier than the last one on a shared machine.
struct RunTimes {
  double first_ms = 0, warm_median_ms = 0;
  double warm_models_median_ms = 0;  // det + cls + rec, what tools/ort/ocr_ort.js times
};

// The median of runs 2..N (of the only run when N = 1).
double warm_median(std::vector<double> v) {
  if (v.size() > 1) v.erase(v.begin());
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

RunTimes run_times(const std::vector<OcrTimings>& runs) {
  RunTimes t;
  if (runs.empty()) return t;
  std::vector<double> totals, models;
  for (const OcrTimings& r : runs) totals.push_back(r.total), models.push_back(r.det + r.cls + r.rec);
  t.first_ms = totals.front();
  t.warm_median_ms = warm_median(totals);
  t.warm_models_median_ms = warm_median(models);
  return t;
}

void print_json(const std::string& image, const OcrPipeline& p, const OcrResult& r, const RunTimes& times,
                const gk::Profiler* prof) {
  gk::cli::JsonWriter w;
  w.begin_object().field("image", image).field("backend", p.kit().backend() == gk::BackendKind::kCuda ? "cuda" : "cpu");
  w.begin_array("lines");
  for (const OcrLine& l : r.lines) {
    w.begin_object().field("text", l.text).field("raw_text", l.raw_text);
    w.field("confidence", static_cast<double>(l.confidence));
    w.field("rotated", l.rotated);
    w.raw("box", fmt::format("[[{},{}],[{},{}],[{},{}],[{},{}]]", l.box[0].x, l.box[0].y, l.box[1].x, l.box[1].y,
                             l.box[2].x, l.box[2].y, l.box[3].x, l.box[3].y));
    w.end_object();
  }
  w.end_array();
  w.begin_object("timings");
  w.field("total_ms", r.ms.total).field("first_run_ms", times.first_ms).field("warm_median_ms", times.warm_median_ms);
  w.field("warm_models_median_ms", times.warm_models_median_ms);
  w.field("preprocess_ms", r.ms.preprocess);
  w.field("det_ms", r.ms.det).field("postprocess_ms", r.ms.postprocess).field("crop_ms", r.ms.crop);
  w.field("cls_ms", r.ms.cls).field("rec_ms", r.ms.rec).field("decode_ms", r.ms.decode);
  w.end_object();
  w.field("boxes", r.boxes).field("joined", r.joined).field("rec_plans", p.rec().plans_created()).field("det_plans", p.det().plans_created());
  if (prof) w.raw("profile", prof->json(20));
  w.end_object();
  fmt::print("{}\n", w.str());
}

void print_text(const OcrPipeline& p, const OcrResult& r, const RunTimes& times, int runs) {
  for (const OcrLine& l : r.lines) fmt::print("{}  {:.3f}  {}\n", l.text, l.confidence, box_text(l.box));
  const OcrTimings& t = r.ms;
  const double other = t.total - t.det - t.cls - t.rec;
  fmt::print("time  {:.1f} ms end to end{}: det {:.1f} ms ({:.0f}%), cls {:.1f} ms ({:.0f}%), rec {:.1f} ms ({:.0f}%), "
             "other {:.1f} ms ({:.0f}%)\n",
             t.total, runs > 1 ? fmt::format(" (run {}; first run {:.1f} ms; median of runs 2-{} {:.1f} ms, models {:.1f} ms)",
                                   runs, times.first_ms, runs, times.warm_median_ms, times.warm_models_median_ms)
                     : "", t.det,
             pct(t.det, t.total), t.cls, pct(t.cls, t.total), t.rec, pct(t.rec, t.total), other, pct(other, t.total));
  fmt::print("lines {} of {} boxes ({} joined into others' lines); recogniser plans created {}; backend {} ({})\n",
             r.lines.size(), r.boxes, r.joined, p.rec().plans_created(), p.kit().backend() == gk::BackendKind::kCuda ? "cuda" : "cpu",
             p.kit().device().info().name);
}

// Runs one image f.runs times and prints the last run.
int run_image(const Flags& f, const std::string& path, const OcrPipeline& p) {
  auto image = load_image(path);
  if (!image.ok()) return fail(image.status());
  gk::Profiler profiler(p.kit().device());
  std::vector<OcrTimings> times;
  gk::Result<OcrResult> result = gk::internal_error("gkocr: no run");
  for (int i = 0; i < f.runs; ++i) {
    // Profile the last run only: earlier ones include planning and kernel compiles.
    result = p.run(*image, f.profile && i + 1 == f.runs ? &profiler : nullptr);
    if (!result.ok()) return fail(result.status().with_context(path));
    times.push_back(result->ms);
  }
  if (!f.out.empty()) {
    Image annotated = *image;
    for (size_t i = 0; i < result->lines.size(); ++i) {
      const Quad& q = result->lines[i].box;
      draw_quad(annotated, q, Rgb{230, 30, 30});
      draw_number(annotated, static_cast<int>(q[0].x), std::max(0, static_cast<int>(q[0].y) - 14), static_cast<int>(i + 1),
                  Rgb{230, 30, 30});
    }
    gk::Status st = write_png(f.out, annotated);
    if (!st.ok()) return fail(st);
  }
  if (f.json) {
    print_json(path, p, *result, run_times(times), f.profile ? &profiler : nullptr);
  } else {
    if (f.images.size() > 1) fmt::print("== {}\n", path);
    print_text(p, *result, run_times(times), f.runs);
    if (f.profile) fmt::print("\n{}", profiler.table(20));
  }
  return kExitOk;
}

int run(const Flags& f) {
  if (f.images.size() > 1 && (!f.out.empty() || !f.dump.empty()))
    return fail(gk::invalid_argument("--out and --dump take one image, got {}", f.images.size()));
  OcrOptions o = f.defaults;
  o.models_dir = f.models.empty() ? default_models() : f.models;
  o.backend = f.backend;
  o.threads = f.threads;
  o.use_classifier = !f.no_cls;
  o.word_gaps.enabled = !f.no_word_gaps;
  o.join.enabled = f.join != "off";
  o.join.before_recognition = f.join == "boxes";
  o.dump_dir = f.dump;
  auto pipeline = OcrPipeline::open(o);
  if (!pipeline.ok()) return fail(pipeline.status());
  for (const std::string& path : f.images)
    if (int rc = run_image(f, path, **pipeline); rc != kExitOk) return rc;
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  CLI::App app{"gkocr: text detection and recognition (PP-OCRv4) on the gkrun runtime"};
  Flags f;
  app.add_option("image", f.images, "PNG or JPEG images")->required();
  app.add_option("--out", f.out, "write the image with numbered boxes (PNG)");
  app.add_flag("--json", f.json, "one JSON object on stdout");
  app.add_option("--backend", f.backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app.add_option("--models", f.models, "folder with the PP-OCR models and ppocr_keys_v1.txt (default: GK_OCR_MODELS or the npm package)");
  app.add_flag("--profile", f.profile, "print the hot-kernel table of the whole pipeline");
  app.add_option("--dump", f.dump, "write every model input and output as .npy into DIR");
  app.add_option("--runs", f.runs, "run the image N times and report the last run (warm)")->check(CLI::Range(1, 1000));
  app.add_option("--threads", f.threads, "CPU worker threads (default: all cores)");
  app.add_flag("--no-cls", f.no_cls, "skip the 180-degree direction classifier");
  app.add_flag("--no-word-gaps", f.no_word_gaps,
               "print the recogniser's raw characters: no spaces put back from word gaps");
  app.add_option("--unclip-ratio", f.defaults.db.unclip_ratio, "DB box growth: offset = area x R / perimeter")
      ->check(CLI::Range(0.5, 4.0))->capture_default_str();
  app.add_option("--crop-pad-x", f.defaults.crop_pad_x, "grow each end of a crop by P x the box height")
      ->check(CLI::Range(0.0, 2.0))->capture_default_str();
  app.add_option("--crop-pad-y", f.defaults.crop_pad_y, "grow a crop's top and bottom by P x the box height")
      ->check(CLI::Range(0.0, 1.0))->capture_default_str();
  app.add_option("--join-gap", f.defaults.join.max_gap, "join boxes on one line at most G x their height apart")
      ->check(CLI::Range(0.0, 20.0))->capture_default_str();
  app.add_option("--join", f.join, "boxes: recognise a split line as one crop; text: read the parts, join the text; off")
      ->check(CLI::IsMember({"boxes", "text", "off"}))->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitInvalid;
  }
  return run(f);
}
