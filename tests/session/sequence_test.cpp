// Sequence and optional values through the session, on models built here with
// hand-computed results: split, length, indexing (negative and out of range),
// insertion and concatenation; a sequence as a model input and output; empty and
// full optionals.
#include "proto_models.h"
#include "tests/support/errors.h"

namespace gk {
namespace {

using namespace proto_models;

void add_sequence_info(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name) {
  auto* vi = list->Add();
  vi->set_name(name);
  vi->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
}

TEST_CASE("sequences: split, length, at, insert, concat", "[session][sequences]") {
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2, 5});
  add_info(g->mutable_input(), "pos", kInt64, {});
  add_info(g->mutable_output(), "len", kInt64, {});
  add_info(g->mutable_output(), "at", kFloat, {-1, -1});
  add_info(g->mutable_output(), "cat", kFloat, {-1, -1});
  add_sequence_info(g->mutable_output(), "parts");
  auto* sizes = test::add_initializer(g, "sizes", kInt64, {2});
  sizes->add_int64_data(2);
  sizes->add_int64_data(3);
  auto* zero = test::add_initializer(g, "zero", kInt64, {});
  zero->add_int64_data(0);
  set_int(add_node(g, "SplitToSequence", {"x", "sizes"}, {"parts"}, "split"), "axis", 1);
  add_node(g, "SequenceLength", {"parts"}, {"len"});
  add_node(g, "SequenceAt", {"parts", "pos"}, {"at"}, "at");
  add_node(g, "SequenceInsert", {"parts", "x", "zero"}, {"all"});
  set_int(add_node(g, "ConcatFromSequence", {"all"}, {"cat"}), "axis", 1);
  auto s = open(m);
  const HostTensor x = floats({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});

  auto out = s->run({{"x", x}, {"pos", scalar_i64(-1)}});
  if (!out.ok()) FAIL(out.status().message());
  CHECK((*out)[0].tensor.data<int64_t>()[0] == 2);
  CHECK((*out)[1].tensor.shape() == Shape{2, 3});
  CHECK(values_of((*out)[1].tensor) == std::vector<float>{2, 3, 4, 7, 8, 9});
  CHECK((*out)[2].tensor.shape() == Shape{2, 10});
  CHECK(values_of((*out)[2].tensor) ==
        std::vector<float>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 6, 7, 8, 9});
  REQUIRE((*out)[3].sequence);
  REQUIRE((*out)[3].sequence->size() == 2);
  CHECK(values_of((*(*out)[3].sequence)[0]) == std::vector<float>{0, 1, 5, 6});

  auto bad = s->run({{"x", x}, {"pos", scalar_i64(2)}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kOutOfRange);
  CHECK_THAT(bad.status().message(), Catch::Contains("'at' (SequenceAt)") && Catch::Contains("[-2, 1]"));
}

TEST_CASE("sequences: a sequence input is stacked, and a tensor is refused in its place", "[session][sequences]") {
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_sequence_info(g->mutable_input(), "items");
  add_info(g->mutable_output(), "stacked", kFloat, {-1, -1});
  auto* cat = add_node(g, "ConcatFromSequence", {"items"}, {"stacked"});
  set_int(cat, "axis", 0);
  set_int(cat, "new_axis", 1);
  auto s = open(m);
  NamedTensor items{"items", HostTensor()};
  items.sequence = std::make_shared<const std::vector<HostTensor>>(
      std::vector<HostTensor>{floats({3}, {1, 2, 3}), floats({3}, {4, 5, 6})});
  auto out = s->run({items});
  if (!out.ok()) FAIL(out.status().message());
  CHECK((*out)[0].tensor.shape() == Shape{2, 3});
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{1, 2, 3, 4, 5, 6});

  auto wrong = s->run({{"items", floats({3}, {1, 2, 3})}});
  gk::test::require_error(wrong, StatusCode::kInvalidArgument, "'items' is a tensor, the model declares a sequence");
}

TEST_CASE("optionals: empty or holding a tensor, tested and unwrapped", "[session][optionals]") {
  auto m = test::make_model(8, 18);
  auto* g = m.mutable_graph();
  auto* vi = g->add_input();
  vi->set_name("maybe");
  vi->mutable_type()->mutable_optional_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
  add_info(g->mutable_output(), "has", kBool, {});
  add_info(g->mutable_output(), "value", kFloat, {-1});
  add_node(g, "OptionalHasElement", {"maybe"}, {"has"});
  add_node(g, "OptionalGetElement", {"maybe"}, {"got"}, "unwrap");
  add_node(g, "Neg", {"got"}, {"value"});
  auto s = open(m);
  auto full = s->run({{"maybe", floats({3}, {1, 2, 3})}});
  if (!full.ok()) FAIL(full.status().message());
  CHECK((*full)[0].tensor.data<uint8_t>()[0] == 1);
  CHECK(values_of((*full)[1].tensor) == std::vector<float>{-1, -2, -3});
  NamedTensor empty{"maybe", HostTensor()};
  empty.none = true;
  auto none = s->run({empty});
  REQUIRE_FALSE(none.ok());  // OptionalGetElement of an empty optional
  CHECK(none.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(none.status().message(), Catch::Contains("'unwrap' (OptionalGetElement)") && Catch::Contains("empty"));
}

TEST_CASE("optionals: an empty optional has no element and passes through Identity", "[session][optionals]") {
  auto m = test::make_model(8, 18);
  auto* g = m.mutable_graph();
  for (const char* name : {"maybe"}) {
    auto* vi = g->add_input();
    vi->set_name(name);
    vi->mutable_type()->mutable_optional_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
  }
  add_info(g->mutable_output(), "has", kBool, {});
  auto* echo = g->add_output();
  echo->set_name("echo");
  echo->mutable_type()->mutable_optional_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(kFloat);
  add_node(g, "OptionalHasElement", {"maybe"}, {"has"});
  add_node(g, "Identity", {"maybe"}, {"echo"});
  auto s = open(m);
  NamedTensor empty{"maybe", HostTensor()};
  empty.none = true;
  auto out = s->run({empty});
  if (!out.ok()) FAIL(out.status().message());
  CHECK((*out)[0].tensor.data<uint8_t>()[0] == 0);
  CHECK((*out)[1].none);
  auto full = s->run({{"maybe", floats({2}, {4, 5})}});
  if (!full.ok()) FAIL(full.status().message());
  CHECK((*full)[0].tensor.data<uint8_t>()[0] == 1);
  CHECK_FALSE((*full)[1].none);
  CHECK(values_of((*full)[1].tensor) == std::vector<float>{4, 5});
}

}  // namespace
}  // namespace gk
