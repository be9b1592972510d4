// Accuracy regression (issue 15): the PaddleOCR v4 recogniser on real text crops,
// measured against a float64 evaluation of the same graph that this test runs
// independently of gkrun (tests/accuracy/f64_reference.py: numpy, every tensor
// widened to float64). gkrun's output must be as near to it as ONNX Runtime's:
// within twice ONNX Runtime's distance on each crop. Both are a few 1e-6 from
// float64 here and which is nearer flips between crops and builds (measured on the
// 2-core machine: serif 2.91e-6 against 2.90e-6, bold-on-dark 4.2e-6 against
// 4.9e-6, long-sans 4.4e-6 against 8.9e-6; the serif crop was 2.7e-6 with the
// blocked sums alone, before the vectorised exp/erf), so "nearer than ONNX
// Runtime" on one crop is a coin toss; the class this guards against is not:
// before blocked summation gkrun was 5.1e-5 on the serif crop, 17x ONNX Runtime's
// (single-accumulator GlobalAveragePool, normalisation and softmax sums).
// Label accuracy (about 15 s).
#include "runtime/conformance.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"
#include "tests/support/data.h"
#include "tools/gkocr/image.h"
#include "tools/gkocr/preprocess.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace gk {
namespace {

const fs::path kSource = fs::path(GK_SOURCE_DIR);
const fs::path kOrt = kSource / "tools" / "ort";
const fs::path kRec = kOrt / "node_modules" / "@gutenye" / "ocr-models" / "assets" / "ch_PP-OCRv4_rec_infer.onnx";
const fs::path kWork = fs::path(GK_BINARY_DIR) / "accuracy";
const char* const kFont = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";

int sh(const std::string& cmd) { return std::system(cmd.c_str()); }

std::string skip_reason() {
  if (sh("node --version >/dev/null 2>&1") != 0) return "node is not installed";
  if (!fs::exists(kOrt / "node_modules" / "onnxruntime-node")) return "onnxruntime-node absent (scripts/setup.sh)";
  if (!fs::exists(kRec)) return "the PaddleOCR models are absent (scripts/setup.sh)";
  if (sh("/usr/bin/python3 -c 'import numpy, onnx' >/dev/null 2>&1") != 0) return "python3-onnx or python3-numpy absent";
  if (sh("command -v convert >/dev/null 2>&1") != 0 || !fs::exists(kFont)) return "ImageMagick or DejaVu fonts absent";
  return {};
}

// The one output of a run written as DIR/<name>.npy.
HostTensor read_only_output(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".npy") {
      auto t = read_npy(e.path().string());
      REQUIRE(t.ok());
      return std::move(*t);
    }
  FAIL("no .npy output in " << dir.string());
  return {};
}

double max_abs_diff(const HostTensor& a, const HostTensor& b) {
  REQUIRE(a.shape() == b.shape());
  const auto x = a.to_f64_vector(), y = b.to_f64_vector();
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

struct Crop {
  const char* name;
  const char* background;
  const char* ink;
  const char* font;
  int points;
  const char* text;
};

TEST_CASE("PaddleOCR v4 recogniser on text crops: as near to float64 as ONNX Runtime", "[accuracy][ocr]") {
  if (std::string why = skip_reason(); !why.empty()) test::skip(why);
  const Crop crop = GENERATE(Crop{"serif", "#f4efe0", "#202020", kFont, 26, "Total: 129.95 EUR"},
                             Crop{"bold-on-dark", "#1c2433", "#f0f0f0",
                                  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 24, "Invoice No. 4711"},
                             Crop{"long-sans", "white", "black", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18,
                                  "Payment due within 30 days of receipt"});
  INFO("crop " << crop.name);
  if (!fs::exists(crop.font)) test::skip(std::string(crop.font) + " absent");
  const fs::path work = kWork / crop.name;
  fs::create_directories(work);
  const fs::path png = work / "crop.png", input = work / "input.npy";
  REQUIRE(sh("convert -size 320x48 'xc:" + std::string(crop.background) + "' -fill '" + crop.ink + "' -font " +
             crop.font + " -pointsize " + std::to_string(crop.points) + " -annotate +6+34 '" + crop.text + "' " +
             png.string()) == 0);
  auto image = ocr::load_image(png.string());
  REQUIRE(image.ok());
  auto x = ocr::rec_preprocess({&*image});
  REQUIRE(x.ok());
  REQUIRE(x->shape() == Shape{1, 3, 48, 320});
  REQUIRE(write_npy(input.string(), *x).ok());

  SessionOptions options;
  options.backend = "cpu";
  auto session = Session::open(kRec.string(), options);
  REQUIRE(session.ok());
  const std::string name = (*session)->inputs()[0].name;
  auto ours = (*session)->run({{name, *x}});
  REQUIRE(ours.ok());
  REQUIRE(ours->size() == 1);

  fs::remove_all(work / "ort");
  fs::remove_all(work / "f64");
  REQUIRE(sh("node " + (kOrt / "run_ort.js").string() + " " + kRec.string() + " --input " + name + "=" +
             input.string() + " --out-dir " + (work / "ort").string() + " >/dev/null") == 0);
  REQUIRE(sh("/usr/bin/python3 " + (kSource / "tests" / "accuracy" / "f64_reference.py").string() + " " +
             kRec.string() + " " + name + "=" + input.string() + " " + (work / "f64").string()) == 0);
  const HostTensor ort = read_only_output(work / "ort"), f64 = read_only_output(work / "f64");

  const double d_ours = max_abs_diff((*ours)[0].tensor, f64), d_ort = max_abs_diff(ort, f64);
  INFO("max |gkrun - f64| = " << d_ours << ", max |ONNX Runtime - f64| = " << d_ort);
  std::printf("recogniser distance to float64 (%s): gkrun %.3g, ONNX Runtime %.3g\n", crop.name, d_ours, d_ort);
  // The reference is a real evaluation: ONNX Runtime is near it, not equal to it.
  CHECK(d_ort > 0);
  CHECK(d_ort < 1e-3);
  CHECK(d_ours <= 2 * d_ort);
}

}  // namespace
}  // namespace gk
