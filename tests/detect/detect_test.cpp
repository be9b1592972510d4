// The detection family against ONNX Runtime 1.30: each model that
// models/export_detection.py writes into models/cache/detect/ (torchvision's
// SSD, SSDlite, RetinaNet, FCOS, Faster/Mask/Keypoint R-CNN, a YOLO-style
// detector with NMS in the graph two ways, a DETR-style transformer), at opsets
// 11 and 17, on gkrun's CPU backend and on ONNX Runtime, on two images: coloured
// shapes, which gives some detections, and constant grey, which gives none (empty
// outputs). Every output must have ONNX Runtime's shape exactly (so the same
// number of detections) and its values within rtol 1e-3 / atol 1e-4.
//
// Ties. Where two candidates score equally, the kept set and its order depend on
// the tie rule, not on the arithmetic. gkrun's TopK (ops/topk/topk.cuh) puts equal
// values lower index first, and its NonMaxSuppression (ops/detection/nms.cpp)
// visits equal scores lower box index first (a stable sort): both are ONNX
// Runtime's rules (its TopK compares value, then index; its NMS queue pops the
// lower index of equal scores first). The exporter also keeps the cases away from
// ties: it spreads the classification logits and puts the score threshold in a
// wide gap of the scores (models/export_detection.py), so near-equal scores that
// float rounding could reorder do not decide what is kept. The grey image does
// tie (every interior anchor scores the same) but everything it scores is below
// the threshold.
//
// Labels: `detect` for the light models, `detect-slow` for the ResNet-50 ones.
// A case skips (77) where its model file or ONNX Runtime is absent.
#include "runtime/conformance.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"
#include "tests/diff/ort_file_runner.h"
#include "tests/support/skip.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace gk {
namespace {

const fs::path kModels = fs::path(GK_SOURCE_DIR) / "models" / "cache" / "detect";
const fs::path kOrtCache = fs::path(GK_BINARY_DIR) / "ort_reference" / "detect";

struct DetectModel {
  const char* name;
  bool slow;
};

const DetectModel kModelList[] = {
    {"ssd300_vgg16", false},
    {"ssdlite320_mobilenet_v3_large", false},
    {"fasterrcnn_mobilenet_v3_large_320_fpn", false},
    {"yolo_nms", false},
    {"yolo_onnx_nms", false},
    {"detr", false},
    {"retinanet_resnet50_fpn", true},
    {"fcos_resnet50_fpn", true},
    {"fasterrcnn_resnet50_fpn", true},
    {"maskrcnn_resnet50_fpn", true},
    {"keypointrcnn_resnet50_fpn", true},
};

struct DetectCase {
  std::string model;
  int opset;
  std::string image;  // "some" (shapes) or "none" (grey)
  bool slow;
  std::string title;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// ONNX Runtime's outputs, cached in the build folder while the model file and
// the image are unchanged (their sizes and times are the stamp).
Result<std::map<std::string, HostTensor>> ort_reference(const fs::path& model, const fs::path& image_file,
                                                       const NamedTensor& image, const std::string& key) {
  const fs::path dir = kOrtCache / key;
  const std::string stamp =
      fmt::format("{} {} {} {}", fs::file_size(model), fs::last_write_time(model).time_since_epoch().count(),
                  fs::file_size(image_file), fs::last_write_time(image_file).time_since_epoch().count());
  {
    std::ifstream f(dir / "stamp");
    std::string have((std::istreambuf_iterator<char>(f)), {});
    if (have == stamp) {
      std::map<std::string, HostTensor> r;
      for (const auto& e : fs::directory_iterator(dir / "out")) {
        if (e.path().extension() != ".npy") continue;
        GK_TRY(HostTensor t, read_npy(e.path().string()));
        r.emplace(e.path().stem().string(), std::move(t));
      }
      return r;
    }
  }
  GK_TRY(auto r, test::ort_run_file(model, {image}, dir));
  std::ofstream(dir / "stamp") << stamp;
  return r;
}

void run_case(const DetectCase& c) {
  const fs::path model = kModels / fmt::format("{}_opset{}.onnx", c.model, c.opset);
  const fs::path image_file = kModels / fmt::format("{}.{}.npy", c.model, c.image);
  if (!fs::exists(model) || !fs::exists(image_file))
    test::skip(fmt::format("{} or its image absent (models/export_detection.py models/cache/detect)",
                           model.string()));
  if (std::string why = test::ort_skip_reason(); !why.empty()) test::skip(why);

  auto image = read_npy(image_file.string());
  REQUIRE(image.ok());
  const NamedTensor input{"image", *image};

  const auto t0 = std::chrono::steady_clock::now();
  SessionOptions options;
  options.backend = "cpu";
  auto session = Session::open(model.string(), options);
  INFO((session.ok() ? "" : session.status().to_string()));
  REQUIRE(session.ok());
  auto ours = (*session)->run({input});
  INFO((ours.ok() ? "" : ours.status().to_string()));
  REQUIRE(ours.ok());
  const double gk_ms = ms_since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  auto theirs = ort_reference(model, image_file, input, fmt::format("{}_opset{}_{}", c.model, c.opset, c.image));
  INFO((theirs.ok() ? "" : theirs.status().to_string()));
  REQUIRE(theirs.ok());
  std::printf("%s: gkrun %.0f ms (open + run), ONNX Runtime %.0f ms (or cached)\n", c.title.c_str(), gk_ms,
              ms_since(t1));

  // The premise: ONNX Runtime finds some on the shapes image and none on grey.
  auto scores = theirs->find("scores");
  REQUIRE(scores != theirs->end());
  REQUIRE(scores->second.shape().size() == 1);
  if (c.image == "none")
    CHECK(scores->second.shape()[0] == 0);
  else
    CHECK(scores->second.shape()[0] > 0);

  std::set<std::string> seen;
  for (const NamedTensor& o : *ours) {
    const std::string stem = test::ort_file_stem(o.name);
    seen.insert(stem);
    auto it = theirs->find(stem);
    INFO("output " << o.name << " is not among ONNX Runtime's");
    REQUIRE(it != theirs->end());
    INFO("output " << o.name << ": gkrun " << shape_str(o.tensor.shape()) << " " << dtype_name(o.tensor.dtype())
                   << ", ONNX Runtime " << shape_str(it->second.shape()) << " " << dtype_name(it->second.dtype()));
    REQUIRE(o.tensor.shape() == it->second.shape());
    OutputCheck check = compare_tensors(o.tensor, it->second, 1e-3, 1e-4);
    INFO("output " << o.name << ": " << check.problem << " max abs " << check.max_abs << " max rel "
                   << check.max_rel);
    CHECK(check.pass);
  }
  CHECK(seen.size() == theirs->size());
}

struct DetectInvoker : Catch::ITestInvoker {
  explicit DetectInvoker(DetectCase c) : c(std::move(c)) {}
  void invoke() const override { run_case(c); }
  DetectCase c;
};

// One Catch case per model x opset x image, registered as TEST_CASE would.
[[maybe_unused]] const bool kRegistered = [] {
  static std::vector<std::string> names;  // Catch keeps StringRefs to them
  static std::vector<std::string> tags;
  std::vector<DetectCase> cases;
  for (const DetectModel& m : kModelList)
    for (int opset : {11, 17})
      for (const char* image : {"some", "none"})
        cases.push_back({m.name, opset, image, m.slow,
                         fmt::format("detect: {} opset {} {}", m.name, opset,
                                     std::string(image) == "some" ? "shapes image" : "grey image (no detection)")});
  names.reserve(cases.size());
  tags.reserve(cases.size());
  for (DetectCase& c : cases) {
    names.push_back(c.title);
    tags.push_back(c.slow ? "[detect-slow]" : "[detect]");
    Catch::AutoReg(new DetectInvoker(c), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags{Catch::StringRef(names.back()), Catch::StringRef(tags.back())});
  }
  return true;
}();

}  // namespace
}  // namespace gk
