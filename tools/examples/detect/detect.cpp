// detect MODEL IMAGE: a detection app on gkrun's C API. Letterboxes the image to
// the model's input, runs the model, reads its outputs as detections (NMS in the
// graph, or a raw YOLOv8 head decoded and suppressed here), maps the boxes back to
// the image, prints them with the time each stage took, and draws them on a PNG.
//
//   detect MODEL IMAGE [--out annotated.png] [--score 0.25] [--iou 0.45] [--max 300]
//          [--runs N] [--backend auto|cpu|cuda] [--threads N] [--size N]
//          [--profile trace.json] [--json] [--save-input input.npy]
#include "detections.h"
#include "image_io.h"
#include "letterbox.h"

#include <gkrun/gkrun.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Free {
  void operator()(gkrun_session* s) const { gkrun_session_close(s); }
  void operator()(gkrun_values* v) const { gkrun_values_free(v); }
  void operator()(gkrun_options* o) const { gkrun_options_free(o); }
};
using Session = std::unique_ptr<gkrun_session, Free>;
using Values = std::unique_ptr<gkrun_values, Free>;

// A gkrun_status as a message ("" on success), freeing it.
std::string message_of(gkrun_status* st) {
  if (!st) return {};
  std::string m = std::string(gkrun_code_name(gkrun_status_code(st))) + ": " + gkrun_status_message(st);
  gkrun_status_free(st);
  return m;
}

struct Args {
  std::string model, image, out, profile, save_input, backend = "auto";
  float score = 0.25f, iou = 0.45f;
  size_t max_detections = 300;
  int runs = 1, threads = 0, size = 640;
  bool json = false;
};

int usage(const char* why) {
  std::fprintf(stderr,
               "detect: %s\nusage: detect MODEL IMAGE [--out annotated.png] [--score S] [--iou T] [--max N] "
               "[--runs N] [--backend auto|cpu|cuda] [--threads N] [--size N] [--profile trace.json] [--json] "
               "[--save-input input.npy]\n",
               why);
  return 2;
}

bool parse(int argc, char** argv, Args& a, std::string& error) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      if (i + 1 >= argc) {
        error = std::string(flag) + " needs a value";
        return nullptr;
      }
      return argv[++i];
    };
    auto number = [&](const char* flag, double lo, double hi, double& out) {
      const char* v = value(flag);
      if (!v) return false;
      char* end = nullptr;
      out = std::strtod(v, &end);
      if (*v == '\0' || *end != '\0' || !(out >= lo && out <= hi)) {
        error = std::string(flag) + " " + v + ": want a number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]";
        return false;
      }
      return true;
    };
    double d = 0;
    if (arg == "--out" || arg == "--profile" || arg == "--save-input" || arg == "--backend") {
      const char* v = value(arg.c_str());
      if (!v) return false;
      (arg == "--out" ? a.out : arg == "--profile" ? a.profile : arg == "--save-input" ? a.save_input : a.backend) = v;
    } else if (arg == "--score") {
      if (!number("--score", 0, 1, d)) return false;
      a.score = static_cast<float>(d);
    } else if (arg == "--iou") {
      if (!number("--iou", 0, 1, d)) return false;
      a.iou = static_cast<float>(d);
    } else if (arg == "--max") {
      if (!number("--max", 1, 1e6, d)) return false;
      a.max_detections = static_cast<size_t>(d);
    } else if (arg == "--runs") {
      if (!number("--runs", 1, 1e5, d)) return false;
      a.runs = static_cast<int>(d);
    } else if (arg == "--threads") {
      if (!number("--threads", 0, 1024, d)) return false;
      a.threads = static_cast<int>(d);
    } else if (arg == "--size") {
      if (!number("--size", 32, 8192, d)) return false;
      a.size = static_cast<int>(d);
    } else if (arg == "--json") {
      a.json = true;
    } else if (arg.rfind("--", 0) == 0) {
      error = "unknown option " + arg;
      return false;
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) {
    error = "want MODEL and IMAGE";
    return false;
  }
  a.model = positional[0];
  a.image = positional[1];
  return true;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The tensor as numpy's .npy (float32, C order), for checking the preprocessing
// against another runtime.
bool write_npy(const std::string& path, const std::vector<float>& data, int h, int w) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, " + std::to_string(h) + ", " +
                       std::to_string(w) + "), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  const char magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  f.write(magic, sizeof magic);
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write(reinterpret_cast<const char*>(&len), 2);
  f << header;
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(float)));
  return static_cast<bool>(f);
}

// Dims without the leading 1s (a batch of one).
std::vector<int64_t> squeezed(const gkrun_tensor& t) {
  std::vector<int64_t> dims(t.shape, t.shape + t.rank);
  while (dims.size() > 1 && dims.front() == 1) dims.erase(dims.begin());
  return dims;
}

// The model's outputs as detections in input pixels; "" or why they cannot be read.
std::string read_detections(const gkrun_values* outs, const Args& args, std::vector<detect::Detection>& found,
                            bool& in_graph) {
  const size_t n = gkrun_values_count(outs);
  std::vector<gkrun_tensor> t(n);
  for (size_t i = 0; i < n; ++i)
    if (std::string m = message_of(gkrun_values_get(outs, i, &t[i])); !m.empty()) return m;
  // NMS in the graph: boxes [N, 4] float, scores [N] float, labels [N] integer.
  const gkrun_tensor *boxes = nullptr, *scores = nullptr, *labels = nullptr;
  for (const gkrun_tensor& o : t) {
    std::vector<int64_t> d(o.shape, o.shape + o.rank);
    while (d.size() > 2 && d.front() == 1) d.erase(d.begin());
    if (o.dtype == GKRUN_DTYPE_FLOAT32 && d.size() == 2 && d[1] == 4 && !boxes) boxes = &o;
    else if (o.dtype == GKRUN_DTYPE_FLOAT32 && o.rank >= 1 && !scores && boxes != &o && squeezed(o).size() <= 1)
      scores = &o;
    else if (o.dtype == GKRUN_DTYPE_INT64 && squeezed(o).size() <= 1 && !labels) labels = &o;
  }
  if (boxes && scores) {
    in_graph = true;
    const int64_t count = static_cast<int64_t>(boxes->bytes / (4 * sizeof(float)));
    if (static_cast<int64_t>(scores->bytes / sizeof(float)) != count ||
        (labels && static_cast<int64_t>(labels->bytes / sizeof(int64_t)) != count))
      return "boxes, scores and labels disagree on the number of detections";
    const float* b = static_cast<const float*>(boxes->data);
    const float* s = static_cast<const float*>(scores->data);
    const int64_t* l = labels ? static_cast<const int64_t*>(labels->data) : nullptr;
    for (int64_t i = 0; i < count; ++i)
      found.push_back({b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3], s[i], l ? l[i] : 0});
    return {};
  }
  // A raw YOLOv8 head: [1, 4 + classes, anchors] (or its transpose [1, anchors, 4 + classes]).
  for (const gkrun_tensor& o : t) {
    if (o.dtype != GKRUN_DTYPE_FLOAT32 || o.rank != 3 || o.shape[0] != 1) continue;
    const bool transposed = o.shape[2] < o.shape[1];
    const int64_t rows = transposed ? o.shape[2] : o.shape[1], anchors = transposed ? o.shape[1] : o.shape[2];
    if (rows < 5) continue;
    const float* raw = static_cast<const float*>(o.data);
    std::vector<float> planar;
    if (transposed) {
      planar.resize(static_cast<size_t>(rows * anchors));
      for (int64_t a = 0; a < anchors; ++a)
        for (int64_t r = 0; r < rows; ++r) planar[r * anchors + a] = raw[a * rows + r];
      raw = planar.data();
    }
    in_graph = false;
    found = detect::non_max_suppression(detect::decode_yolov8(raw, rows - 4, anchors, args.score), args.iou,
                                        args.max_detections);
    return {};
  }
  return "cannot read the outputs as detections: want boxes [N, 4] with scores [N] (and labels [N]), or a "
         "YOLOv8 head [1, 4 + classes, anchors]";
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  std::string error;
  if (!parse(argc, argv, args, error)) return usage(error.c_str());

  detect::Image image;
  if (std::string m = detect::load_image(args.image, image); !m.empty()) {
    std::fprintf(stderr, "detect: %s\n", m.c_str());
    return 2;
  }

  gkrun_options* raw_options = nullptr;
  if (std::string m = message_of(gkrun_options_create(&raw_options)); !m.empty()) {
    std::fprintf(stderr, "detect: %s\n", m.c_str());
    return 3;
  }
  std::unique_ptr<gkrun_options, Free> options(raw_options);
  std::string m = message_of(gkrun_options_set_backend(options.get(), args.backend.c_str()));
  if (m.empty() && args.threads > 0) m = message_of(gkrun_options_set_threads(options.get(), args.threads));
  if (m.empty() && !args.profile.empty()) m = message_of(gkrun_options_set_profiling(options.get(), 1));
  if (!m.empty()) return usage(m.c_str());

  auto t0 = std::chrono::steady_clock::now();
  gkrun_session* raw_session = nullptr;
  if (std::string e = message_of(gkrun_session_open(args.model.c_str(), options.get(), &raw_session)); !e.empty()) {
    std::fprintf(stderr, "detect: %s\n", e.c_str());
    return 2;
  }
  Session session(raw_session);
  const double open_ms = ms_since(t0);

  gkrun_io_info input;
  if (gkrun_session_input_count(session.get()) != 1 ||
      !message_of(gkrun_session_input_info(session.get(), 0, &input)).empty() || input.rank != 4 ||
      input.dtype != GKRUN_DTYPE_FLOAT32 || (input.dims[1] != 3 && input.dims[1] >= 0)) {
    std::fprintf(stderr, "detect: %s: want one float32 image input [1, 3, H, W]\n", args.model.c_str());
    return 2;
  }
  const int in_h = input.dims[2] > 0 ? static_cast<int>(input.dims[2]) : args.size;
  const int in_w = input.dims[3] > 0 ? static_cast<int>(input.dims[3]) : args.size;

  t0 = std::chrono::steady_clock::now();
  const detect::Letterbox geometry = detect::letterbox_geometry(image.width, image.height, in_w, in_h);
  const std::vector<float> pixels = detect::letterbox_nchw(image, geometry, in_w, in_h);
  const double pre_ms = ms_since(t0);
  if (!args.save_input.empty() && !write_npy(args.save_input, pixels, in_h, in_w)) {
    std::fprintf(stderr, "detect: %s: cannot write\n", args.save_input.c_str());
    return 3;
  }

  const int64_t shape[4] = {1, 3, in_h, in_w};
  const gkrun_tensor feed = {input.name, GKRUN_DTYPE_FLOAT32, shape, 4, pixels.data(), pixels.size() * sizeof(float)};
  Values outputs;
  std::vector<double> run_ms;
  for (int r = 0; r < args.runs; ++r) {
    gkrun_values* raw_values = nullptr;
    t0 = std::chrono::steady_clock::now();
    if (std::string e = message_of(gkrun_session_run(session.get(), &feed, 1, &raw_values)); !e.empty()) {
      std::fprintf(stderr, "detect: %s\n", e.c_str());
      return 3;
    }
    run_ms.push_back(ms_since(t0));
    outputs.reset(raw_values);
  }

  t0 = std::chrono::steady_clock::now();
  std::vector<detect::Detection> found;
  bool in_graph = false;
  if (std::string e = read_detections(outputs.get(), args, found, in_graph); !e.empty()) {
    std::fprintf(stderr, "detect: %s: %s\n", args.model.c_str(), e.c_str());
    return 2;
  }
  for (detect::Detection& d : found) {
    const detect::Box b = detect::to_image({d.x0, d.y0, d.x1, d.y1}, geometry, image.width, image.height);
    d.x0 = b.x0;
    d.y0 = b.y0;
    d.x1 = b.x1;
    d.y1 = b.y1;
  }
  const double post_ms = ms_since(t0);

  if (!args.out.empty()) {
    detect::Image drawn = image;
    for (const detect::Detection& d : found) {
      uint8_t color[3];
      detect::label_color(d.label, color);
      detect::draw_box(drawn, d.x0, d.y0, d.x1, d.y1, color);
    }
    if (std::string e = detect::save_png(args.out, drawn); !e.empty()) {
      std::fprintf(stderr, "detect: %s\n", e.c_str());
      return 3;
    }
  }
  if (!args.profile.empty()) {
    if (std::string e = message_of(gkrun_session_end_profiling(session.get(), args.profile.c_str())); !e.empty()) {
      std::fprintf(stderr, "detect: %s\n", e.c_str());
      return 3;
    }
  }

  // The first run plans the shape; later runs are the steady state.
  std::vector<double> steady(run_ms.size() > 1 ? run_ms.begin() + 1 : run_ms.begin(), run_ms.end());
  std::sort(steady.begin(), steady.end());
  const double median_ms = steady[steady.size() / 2];
  if (args.json) {
    std::printf("{\"image\":{\"width\":%d,\"height\":%d},\"input\":{\"width\":%d,\"height\":%d},"
                "\"letterbox\":{\"scale\":%.9g,\"pad_x\":%.9g,\"pad_y\":%.9g},\"nms\":\"%s\",\"detections\":[",
                image.width, image.height, in_w, in_h, geometry.scale, geometry.pad_x, geometry.pad_y,
                in_graph ? "graph" : "host");
    for (size_t i = 0; i < found.size(); ++i)
      std::printf("%s{\"label\":%lld,\"score\":%.9g,\"box\":[%.9g,%.9g,%.9g,%.9g]}", i ? "," : "",
                  static_cast<long long>(found[i].label), found[i].score, found[i].x0, found[i].y0, found[i].x1,
                  found[i].y1);
    std::printf("],\"timing_ms\":{\"open\":%.3f,\"preprocess\":%.3f,\"first_run\":%.3f,\"run\":%.3f,"
                "\"postprocess\":%.3f}}\n",
                open_ms, pre_ms, run_ms.front(), median_ms, post_ms);
    return 0;
  }
  std::printf("%s: %dx%d -> %dx%d letterbox (scale %.4g), %zu detection%s (NMS %s)\n", args.image.c_str(),
              image.width, image.height, in_w, in_h, geometry.scale, found.size(), found.size() == 1 ? "" : "s",
              in_graph ? "in the graph" : "here, after the graph");
  for (const detect::Detection& d : found)
    std::printf("  label %3lld  score %.4f  box %.1f %.1f %.1f %.1f\n", static_cast<long long>(d.label), d.score, d.x0,
                d.y0, d.x1, d.y1);
  std::printf("time: open %.1f ms, preprocess %.2f ms, first run %.2f ms, run %.2f ms (median of %zu), "
              "postprocess %.3f ms\n",
              open_ms, pre_ms, run_ms.front(), median_ms, steady.size(), post_ms);
  return 0;
}
