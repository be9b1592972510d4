// Differential tests against ONNX Runtime 1.30 (onnxruntime-node, CPU): the same
// seeded inputs through gkrun and through tools/ort/run_ort.js, outputs compared
// within rtol 1e-3 / atol 1e-4. Reference outputs are cached in the build folder,
// keyed by model and input shape. Skips with a message where node, the npm
// packages or the models are absent.
#include "runtime/conformance.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

namespace fs = std::filesystem;

namespace gk {
namespace {

const fs::path kOrt = fs::path(GK_SOURCE_DIR) / "tools" / "ort";
const fs::path kOcr = kOrt / "node_modules" / "@gutenye" / "ocr-models" / "assets";
const fs::path kTorchvision = fs::path(GK_SOURCE_DIR) / "models" / "cache";
const fs::path kCache = fs::path(GK_BINARY_DIR) / "ort_reference";

std::string skip_reason() {
  if (std::system("node --version >/dev/null 2>&1") != 0) return "node is not installed";
  if (!fs::exists(kOrt / "node_modules" / "onnxruntime-node")) return "tools/ort/node_modules/onnxruntime-node absent (scripts/setup.sh)";
  return {};
}

HostTensor seeded_input(const Shape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> v(numel(shape));
  for (float& x : v) x = unit(rng);
  return HostTensor::from_vector(DType::kF32, shape, v);
}

// Runs the model on ONNX Runtime once per (model, shape, seed); returns its outputs by name.
Result<std::map<std::string, HostTensor>> ort_outputs(const fs::path& model, const std::string& input_name,
                                                      const HostTensor& input, const std::string& key) {
  const fs::path dir = kCache / key;
  const fs::path in_file = dir / "input.npy";
  const fs::path out_dir = dir / "out";
  if (!fs::exists(out_dir / ".done")) {
    fs::create_directories(dir);
    GK_RETURN_IF_ERROR(write_npy(in_file.string(), input));
    std::string cmd = "node " + (kOrt / "run_ort.js").string() + " " + model.string() + " --input " + input_name +
                      "=" + in_file.string() + " --out-dir " + out_dir.string();
    if (std::system(cmd.c_str()) != 0) return internal_error("ONNX Runtime failed: {}", cmd);
    std::ofstream(out_dir / ".done") << "ok\n";
  }
  std::map<std::string, HostTensor> out;
  for (const auto& e : fs::directory_iterator(out_dir)) {
    if (e.path().extension() != ".npy") continue;
    GK_TRY(HostTensor t, read_npy(e.path().string()));
    out.emplace(e.path().stem().string(), std::move(t));
  }
  return out;
}

// One Catch test case per model and input shape.
struct DiffCase {
  const char* name;
  const char* tags;
  fs::path model;
  Shape shape;
  uint64_t seed;
  double rtol;
  double atol;
};

const DiffCase kCases[] = {
    {"ORT diff: PaddleOCR v4 detector 640x640", "[diff][ocr]", kOcr / "ch_PP-OCRv4_det_infer.onnx", {1, 3, 640, 640},
     1, 1e-3, 1e-4},
    {"ORT diff: PaddleOCR v4 detector non-square 480x800", "[diff][ocr]", kOcr / "ch_PP-OCRv4_det_infer.onnx",
     {1, 3, 480, 800}, 2, 1e-3, 1e-4},
    {"ORT diff: PaddleOCR v4 recogniser 48x320", "[diff][ocr]", kOcr / "ch_PP-OCRv4_rec_infer.onnx", {1, 3, 48, 320},
     3, 1e-3, 1e-4},
    {"ORT diff: PaddleOCR direction classifier 48x192", "[diff][ocr]", kOcr / "ch_ppocr_mobile_v2.0_cls_infer.onnx",
     {1, 3, 48, 192}, 4, 1e-3, 1e-4},
    {"ORT diff: torchvision ResNet-18", "[diff][torchvision]", kTorchvision / "resnet18.onnx", {1, 3, 224, 224}, 5,
     1e-3, 1e-4},
    {"ORT diff: torchvision MobileNetV2", "[diff][torchvision]", kTorchvision / "mobilenet_v2.onnx", {1, 3, 224, 224},
     6, 1e-3, 1e-4},
    {"ORT diff: torchvision SqueezeNet 1.1", "[diff][torchvision]", kTorchvision / "squeezenet.onnx",
     {1, 3, 224, 224}, 7, 1e-3, 1e-4},
    {"ORT diff: torchvision LR-ASPP segmentation (bilinear Resize)", "[diff][torchvision]",
     kTorchvision / "lraspp.onnx", {1, 3, 256, 256}, 8, 1e-3, 1e-4},
};

void compare_with_ort(const DiffCase& t) {
  if (std::string why = skip_reason(); !why.empty()) test::skip(why);
  test::skip_unless_exists(t.model);
  SessionOptions options;
  options.backend = "cpu";
  auto session = Session::open(t.model.string(), options);
  REQUIRE(session.ok());
  const std::string name = (*session)->inputs()[0].name;
  HostTensor input = seeded_input(t.shape, t.seed);
  auto ours = (*session)->run({{name, input}});
  INFO(t.model.filename().string() << " " << shape_str(t.shape));
  REQUIRE(ours.ok());
  auto theirs = ort_outputs(t.model, name, input,
                            t.model.stem().string() + "_" + shape_str(t.shape) + "_" + std::to_string(t.seed));
  REQUIRE(theirs.ok());
  for (const NamedTensor& o : *ours) {
    std::string safe = o.name;
    for (char& c : safe)
      if (c == '/' || c == '\\' || c == ':') c = '_';
    auto it = theirs->find(safe);
    REQUIRE(it != theirs->end());
    OutputCheck c = compare_tensors(o.tensor, it->second, t.rtol, t.atol);
    INFO("output " << o.name << ": " << c.problem << " max abs " << c.max_abs << " max rel " << c.max_rel);
    CHECK(c.pass);
  }
}

struct DiffInvoker : Catch::ITestInvoker {
  explicit DiffInvoker(const DiffCase& c) : c(c) {}
  void invoke() const override { compare_with_ort(c); }
  const DiffCase& c;
};

// Registers kCases as TEST_CASE would (Catch keeps the invokers for the process).
[[maybe_unused]] const bool kRegistered = [] {
  for (const DiffCase& c : kCases)
    Catch::AutoReg(new DiffInvoker(c), CATCH_INTERNAL_LINEINFO, Catch::StringRef(), Catch::NameAndTags{c.name, c.tags});
  return true;
}();

}  // namespace
}  // namespace gk
