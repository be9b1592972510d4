// The memory plan on real models: planned peak within 1.15x of the lower bound
// (the most bytes alive at one step) on every light model and the OCR detector.
#include "runtime/session.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <filesystem>

namespace fs = std::filesystem;

namespace gk {
namespace {

using test::kData;
const fs::path kOcr = fs::path(GK_SOURCE_DIR) / "tools" / "ort" / "node_modules" / "@gutenye" / "ocr-models" / "assets";

void check_plan(const fs::path& model, std::vector<std::pair<std::string, Shape>> shapes) {
  SessionOptions options;
  options.backend = "cpu";
  auto s = Session::open(model.string(), options);
  REQUIRE(s.ok());
  if (shapes.empty())
    for (const IoDesc& in : (*s)->inputs()) {
      Shape shape;
      for (const Dim& d : in.dims) shape.push_back(d.known() ? d.value : 1);
      shapes.emplace_back(in.name, shape);
    }
  auto plan = (*s)->plan_summary(shapes);
  REQUIRE(plan.ok());
  INFO(model.filename().string() << ": planned " << plan->planned_peak_bytes << ", lower bound "
                                 << plan->lower_bound_bytes << ", naive " << plan->naive_bytes);
  CHECK(plan->planned_peak_bytes >= plan->lower_bound_bytes);
  CHECK(static_cast<double>(plan->planned_peak_bytes) <= 1.15 * static_cast<double>(plan->lower_bound_bytes));
  CHECK(plan->planned_peak_bytes <= plan->naive_bytes);
}

TEST_CASE("plan quality: light models", "[session][planner]") {
  const fs::path dir = kData / "light";
  if (!fs::is_directory(dir)) test::skip(dir.string() + " absent");
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".onnx") check_plan(e.path(), {});
}

TEST_CASE("plan quality: PaddleOCR detector", "[session][planner]") {
  const fs::path det = kOcr / "ch_PP-OCRv4_det_infer.onnx";
  test::skip_unless_exists(det, "scripts/setup.sh installs it");
  check_plan(det, {{"x", {1, 3, 640, 640}}});
  check_plan(det, {{"x", {1, 3, 480, 800}}});
}

}  // namespace
}  // namespace gk
