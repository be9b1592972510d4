// The detection family against ONNX Runtime 1.30: each model that
// models/export_detection.py writes into models/cache/detect/ (torchvision's
// SSD, SSDlite, RetinaNet, FCOS, Faster/Mask/Keypoint R-CNN, a YOLO-style
// detector with NMS in the graph two ways, a DETR-style transformer), at opsets
// 11 and 17, on gkrun's CPU backend and on ONNX Runtime, on two images: coloured
// shapes, which gives some detections, and constant grey, which gives none (empty
// outputs), one case per model and opset; four light models are also exported
// with a dynamic image size and run on a third image of another size, on the same
// session (a second plan whose resize, anchors and feature maps differ). Every
// output must have ONNX Runtime's shape exactly (so the same number of
// detections) and its values within rtol 1e-3 / atol 1e-4. ONNX Runtime runs a
// case's images on one session (creating it is most of its time), and its
// outputs are cached in the build folder.
//
// Ties. Where two candidates score equally, the kept set and its order depend on
// the tie rule, not on the arithmetic. gkrun's TopK (ops/topk/topk.cuh) puts equal
// values lower index first, and its NonMaxSuppression (ops/detection/nms.cpp)
// visits equal scores lower box index first (a stable sort): both are ONNX
// Runtime's rules (its TopK compares value, then index; its NMS queue pops the
// lower index of equal scores first; tests/detect/ties_test.cpp checks both
// engines on hand-computed ties). The exporter also keeps the cases away from
// ties: it spreads the classification logits and puts the score threshold in a
// wide gap of the scores (models/export_detection.py), so near-equal scores that
// float rounding could reorder do not decide what is kept. The grey image does
// tie (every interior anchor scores the same) but everything it scores is below
// the threshold.
//
// Labels: `detect` for the light models, `detect-slow` for the ResNet-50 ones and
// SSD300-VGG16 (ctest -L takes a regex: `-L '^detect$'` runs the light ones only).
// A case skips (77) where its model file or ONNX Runtime is absent.
#include "runtime/conformance.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"
#include "tests/diff/ort_file_runner.h"
#include "tests/support/skip.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
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
  bool dynamic = false;  // also exported with a dynamic image size (NAME_dynamic_opset17.onnx)
};

const DetectModel kModelList[] = {
    {"ssdlite320_mobilenet_v3_large", false, true},
    {"fasterrcnn_mobilenet_v3_large_320_fpn", false, true},
    {"yolo_nms", false, true},
    {"yolo_onnx_nms", false, true},
    {"detr", false},
    {"ssd300_vgg16", true},  // VGG-16 at 300x300: 31 GFLOPs, more than the ResNet-50s at 320
    {"retinanet_resnet50_fpn", true},
    {"fcos_resnet50_fpn", true},
    {"fasterrcnn_resnet50_fpn", true},
    {"maskrcnn_resnet50_fpn", true},
    {"keypointrcnn_resnet50_fpn", true},
};

struct DetectCase {
  std::string model;
  std::string file;                 // the .onnx file's stem
  std::vector<std::string> images;  // "some" (shapes), "none" (grey), "crop" (another size), in run order
  bool slow;
  std::string title;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string stamp_of(const fs::path& file) {
  return fmt::format("{}:{}:{}", file.filename().string(), fs::file_size(file),
                     fs::last_write_time(file).time_since_epoch().count());
}

// ONNX Runtime's outputs for both images, cached in the build folder while the
// model file and the images are unchanged (names, sizes and times are the stamp).
Result<std::vector<std::map<std::string, HostTensor>>> ort_reference(const fs::path& model,
                                                                    const std::vector<fs::path>& image_files,
                                                                    const std::vector<NamedTensor>& images,
                                                                    const std::string& key) {
  const fs::path dir = kOrtCache / key;
  std::string stamp = stamp_of(model);
  for (const fs::path& f : image_files) stamp += fmt::format(" {}", stamp_of(f));
  {
    std::ifstream f(dir / "stamp");
    std::string have((std::istreambuf_iterator<char>(f)), {});
    if (have == stamp) {
      std::vector<std::map<std::string, HostTensor>> r;
      for (size_t i = 0; i < images.size(); ++i) {
        GK_TRY(auto outs, test::read_npy_folder(dir / fmt::format("out{}", i)));
        r.push_back(std::move(outs));
      }
      return r;
    }
  }
  std::vector<std::vector<NamedTensor>> sets;
  for (const NamedTensor& image : images) sets.push_back({image});
  GK_TRY(auto r, test::ort_run_file_sets(model, sets, dir));
  std::ofstream(dir / "stamp") << stamp;
  return r;
}

// Every output of ours against ONNX Runtime's: same names, exactly the same shape
// (the number of detections), values within rtol 1e-3 / atol 1e-4.
void compare_outputs(const std::vector<NamedTensor>& ours, const std::map<std::string, HostTensor>& theirs) {
  std::set<std::string> seen;
  for (const NamedTensor& o : ours) {
    const std::string stem = test::ort_file_stem(o.name);
    seen.insert(stem);
    auto it = theirs.find(stem);
    INFO("output " << o.name << " is not among ONNX Runtime's");
    REQUIRE(it != theirs.end());
    INFO("output " << o.name << ": gkrun " << shape_str(o.tensor.shape()) << " " << dtype_name(o.tensor.dtype())
                   << ", ONNX Runtime " << shape_str(it->second.shape()) << " " << dtype_name(it->second.dtype()));
    REQUIRE(o.tensor.shape() == it->second.shape());
    OutputCheck check = compare_tensors(o.tensor, it->second, 1e-3, 1e-4);
    INFO("output " << o.name << ": " << check.problem << " max abs " << check.max_abs << " max rel "
                   << check.max_rel);
    CHECK(check.pass);
  }
  CHECK(seen.size() == theirs.size());
}

void run_case(const DetectCase& c) {
  const fs::path model = kModels / (c.file + ".onnx");
  std::vector<fs::path> image_files;
  for (const std::string& image : c.images)
    image_files.push_back(kModels / fmt::format("{}.{}.npy", c.model, image));
  const bool absent = !fs::exists(model) || std::any_of(image_files.begin(), image_files.end(),
                                                         [](const fs::path& f) { return !fs::exists(f); });
  if (absent)
    test::skip(fmt::format("{} or its images absent (models/export_detection.py models/cache/detect)",
                           model.string()));
  if (std::string why = test::ort_skip_reason(); !why.empty()) test::skip(why);
  std::vector<NamedTensor> images;
  for (const fs::path& f : image_files) {
    auto image = read_npy(f.string());
    INFO(f.string() << ": " << (image.ok() ? "" : image.status().to_string()));
    REQUIRE(image.ok());
    images.push_back({"image", *image});
  }

  const auto t0 = std::chrono::steady_clock::now();
  auto theirs = ort_reference(model, image_files, images, c.file);
  INFO((theirs.ok() ? "" : theirs.status().to_string()));
  REQUIRE(theirs.ok());
  const double ort_ms = ms_since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  SessionOptions options;
  options.backend = "cpu";
  auto session = Session::open(model.string(), options);
  INFO((session.ok() ? "" : session.status().to_string()));
  REQUIRE(session.ok());
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string& image = c.images[i];
    INFO("image " << image_files[i].filename().string() << " " << shape_str(images[i].tensor.shape()));
    // The premise: ONNX Runtime finds some on the shapes image and none on grey.
    auto scores = (*theirs)[i].find("scores");
    REQUIRE(scores != (*theirs)[i].end());
    REQUIRE(scores->second.shape().size() == 1);
    if (image == "none") CHECK(scores->second.shape()[0] == 0);
    if (image == "some") CHECK(scores->second.shape()[0] > 0);
    auto ours = (*session)->run({images[i]});
    INFO((ours.ok() ? "" : ours.status().to_string()));
    REQUIRE(ours.ok());
    compare_outputs(*ours, (*theirs)[i]);
  }
  std::printf("%s: gkrun %.0f ms (open + %zu runs), ONNX Runtime %.0f ms (node, open + runs, or cached)\n",
              c.title.c_str(), ms_since(t1), images.size(), ort_ms);
}

struct DetectInvoker : Catch::ITestInvoker {
  explicit DetectInvoker(DetectCase c) : c(std::move(c)) {}
  void invoke() const override { run_case(c); }
  DetectCase c;
};

// One Catch case per model x opset (both images) and per dynamic-size model (the
// three images, two sizes, on one session), registered as TEST_CASE would.
[[maybe_unused]] const bool kRegistered = [] {
  static std::vector<DetectCase> cases;  // Catch keeps references to the names and tags
  for (const DetectModel& m : kModelList) {
    for (int opset : {11, 17})
      cases.push_back({m.name, fmt::format("{}_opset{}", m.name, opset), {"some", "none"}, m.slow,
                       fmt::format("detect: {} opset {}", m.name, opset)});
    if (m.dynamic)
      cases.push_back({m.name, fmt::format("{}_dynamic_opset17", m.name), {"some", "crop", "none"}, m.slow,
                       fmt::format("detect: {} dynamic size opset 17", m.name)});
  }
  for (const DetectCase& c : cases)
    Catch::AutoReg(new DetectInvoker(c), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags{Catch::StringRef(c.title), c.slow ? "[detect-slow]" : "[detect]"});
  return true;
}();

}  // namespace
}  // namespace gk
