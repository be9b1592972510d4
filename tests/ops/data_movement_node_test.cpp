// The ONNX backend node tests of the data-movement, gather/scatter and shape ops
// (tests/ops/onnx_node_cases.h runs each model's single node through the harness).
#include "tests/ops/onnx_node_cases.h"

using gk::test::run_node_cases;

TEST_CASE("data movement: ONNX node tests of the view and constant ops", "[ops][data_movement][onnx]") {
  run_node_cases({"test_reshape", "test_flatten", "test_squeeze", "test_unsqueeze", "test_identity",
                  "test_dropout", "test_constant", "test_shape", "test_size", "test_range", "test_eyelike"},
                 {
                     "test_identity_opt",       // an optional value, not a tensor
                     "test_identity_sequence",  // a sequence value, not a tensor
                 },
                 0, 0);
}

TEST_CASE("data movement: ONNX node tests of the copy ops", "[ops][data_movement][onnx]") {
  run_node_cases({"test_transpose", "test_concat", "test_split", "test_slice", "test_expand", "test_tile",
                  "test_edge_pad", "test_reflect_pad", "test_wrap_pad", "test_depthtospace", "test_spacetodepth",
                  "test_tril", "test_triu", "test_reversesequence"},
                 {
                     // SplitToSequence is a sequence op, not Split.
                     "test_split_to_sequence_1",
                     "test_split_to_sequence_2",
                     "test_split_to_sequence_nokeepdims",
                 },
                 0, 0);
}

TEST_CASE("gather/scatter: ONNX node tests", "[ops][gather_scatter][onnx]") {
  run_node_cases({"test_gather", "test_scatter", "test_onehot", "test_compress", "test_nonzero", "test_unique"}, {},
                 0, 0);
}
