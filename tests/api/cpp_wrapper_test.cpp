// The header-only C++ wrapper (gkrun/gkrun.hpp) as an application uses it,
// against libgkrun.so: affine.onnx's outputs against the arithmetic done here,
// sequences and optionals through gkrun::Value, and errors as gkrun::Error with
// the C API's code and message.
#include <gkrun/gkrun.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

const std::string kDir = GK_SOURCE_DIR "/tests/api/";

// y = relu(x @ W + b) for x [rows, 3], W and b as make_affine_model.py writes them.
std::vector<float> affine_reference(const std::vector<float>& x) {
  const float w[6] = {0.5f, -1.0f, 2.0f, 0.25f, -0.5f, 1.5f}, b[2] = {0.1f, -0.2f};
  std::vector<float> y;
  for (size_t r = 0; r < x.size() / 3; ++r)
    for (int c = 0; c < 2; ++c) {
      float acc = b[c];
      for (int k = 0; k < 3; ++k) acc += x[r * 3 + k] * w[k * 2 + c];
      y.push_back(acc > 0 ? acc : 0);
    }
  return y;
}

template <typename F>
void require_gkrun_error(F&& body, gkrun_code code, const std::string& text) {
  try {
    body();
    FAIL("expected a gkrun::Error " << gkrun_code_name(code) << " containing '" << text << "'");
  } catch (const gkrun::Error& e) {
    CHECK(e.code() == code);
    CHECK_THAT(e.what(), Catch::Contains(text));
  }
}

gkrun::Options cpu() { return std::move(gkrun::Options().backend("cpu").threads(2)); }

}  // namespace

TEST_CASE("cpp wrapper: a session runs tensors and reads them back") {
  gkrun::Session session(kDir + "affine.onnx", cpu());
  CHECK(session.backend() == "cpu");
  const std::vector<gkrun::IoInfo> inputs = session.inputs();
  REQUIRE(inputs.size() == 1);
  CHECK(inputs[0].name == "x");
  CHECK(inputs[0].dtype == GKRUN_DTYPE_FLOAT32);
  CHECK(inputs[0].dims == std::vector<int64_t>{-1, 3});
  CHECK(inputs[0].symbols == std::vector<std::string>{"batch", ""});
  CHECK(session.outputs().at(1).name == "n");

  const std::vector<float> x = {1, 2, 3, -1, 0.5f, 0.25f};
  gkrun::Outputs out = session.run({gkrun::TensorRef("x", {2, 3}, x)});
  REQUIRE(out.size() == 2);
  const gkrun::TensorView y = out.tensor("y");
  CHECK(y.shape() == std::vector<int64_t>{2, 2});
  const std::vector<float> got = y.to_vector<float>(), want = affine_reference(x);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-6));
  CHECK(out[1].tensor().to_vector<int64_t>() == std::vector<int64_t>{2, 3});

  // Moves keep the handles; the moved-to session runs.
  gkrun::Session moved = std::move(session);
  CHECK(moved.run({gkrun::TensorRef("x", {1, 3}, std::vector<float>{1, 1, 1})}).tensor("y").count() == 2);
}

TEST_CASE("cpp wrapper: sequences and optionals through gkrun::Value") {
  gkrun::Session seq(kDir + "sequence.onnx", cpu());
  CHECK(seq.inputs().at(0).kind == GKRUN_VALUE_SEQUENCE);
  const std::vector<float> a = {1, 2}, b = {3, 4, 5};
  const gkrun::Value parts = gkrun::Value::sequence(GKRUN_DTYPE_FLOAT32, {{{2}, a}, {{3}, b}});
  const gkrun::Value x = gkrun::Value::tensor<float>({3}, {7, 8, 9});
  CHECK(parts.size() == 2);
  gkrun::Outputs out = seq.run({{"parts", parts}, {"x", x}});
  CHECK(out.tensor("total").to_vector<float>() == std::vector<float>{1, 2, 3, 4, 5});
  CHECK(out.tensor("count").to_vector<int64_t>() == std::vector<int64_t>{2});
  const gkrun::ValueRef pieces = out["pieces"];
  REQUIRE(pieces.is_sequence());
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].to_vector<float>() == std::vector<float>{7});
  CHECK(pieces[1].to_vector<float>() == std::vector<float>{8, 9});
  // The output sequence fed back as the next run's input.
  CHECK(seq.run({{"parts", pieces}, {"x", x}}).tensor("total").to_vector<float>() == std::vector<float>{7, 8, 9});

  gkrun::Session opt(kDir + "optional.onnx", cpu());
  const gkrun::Value none = gkrun::Value::none();
  const gkrun::Value two = gkrun::Value::tensor<float>({2}, {7, 8});
  gkrun::Outputs o = opt.run({{"maybe", none}, {"x", two}});
  CHECK(*static_cast<const unsigned char*>(o.tensor("has").data()) == 0);
  CHECK(o["empty"].is_none());
  CHECK(o["wrapped"].tensor().to_vector<float>() == std::vector<float>{7, 8});
  o = opt.run({{"maybe", two}, {"x", two}});
  CHECK(*static_cast<const unsigned char*>(o.tensor("has").data()) == 1);
}

TEST_CASE("cpp wrapper: failures throw gkrun::Error with the C API's code and message") {
  require_gkrun_error([] { gkrun::Session("/nonexistent/model.onnx"); }, GKRUN_INVALID_ARGUMENT,
                      "/nonexistent/model.onnx");
  require_gkrun_error([] { gkrun::Options().backend("tpu"); }, GKRUN_INVALID_ARGUMENT, "unknown backend 'tpu'");
  gkrun::Session session(kDir + "affine.onnx", cpu());
  const std::vector<float> x = {1, 2, 3};
  require_gkrun_error([&] { session.run({gkrun::TensorRef("x", {1, 2}, x)}); }, GKRUN_INVALID_ARGUMENT,
                      "input 'x': float32 1x2 needs 8 bytes, got 12");
  gkrun::Outputs out = session.run({gkrun::TensorRef("x", {1, 3}, x)});
  require_gkrun_error([&] { out.tensor("y").to_vector<int32_t>(); }, GKRUN_INVALID_ARGUMENT,
                      "tensor 'y' is float32, not int32");
  require_gkrun_error([&] { out["z"]; }, GKRUN_INVALID_ARGUMENT, "no output 'z'; outputs are 'y', 'n'");
  require_gkrun_error([&] { out[0][0]; }, GKRUN_INVALID_ARGUMENT, "output 'y' is a tensor, not a sequence");

  gkrun::Session seq(kDir + "sequence.onnx", cpu());
  const gkrun::Value t = gkrun::Value::tensor<float>({3}, {7, 8, 9});
  gkrun::Outputs s = seq.run({{"parts", gkrun::Value::sequence(GKRUN_DTYPE_FLOAT32, {{{3}, x}})}, {"x", t}});
  require_gkrun_error([&] { s.tensor("pieces"); }, GKRUN_INVALID_ARGUMENT, "output 'pieces' is a sequence");
  require_gkrun_error([&] { s["pieces"][2]; }, GKRUN_OUT_OF_RANGE, "index 2 is out of range, output 'pieces' has 2");
  require_gkrun_error([&] { seq.run({{"parts", t}, {"x", t}}); }, GKRUN_INVALID_ARGUMENT,
                      "input 'parts' is a tensor, the model declares a sequence");
}
