// NonMaxSuppression (10-current; 11 only reworded the spec). The selection is a
// sequential greedy loop, so it runs on the host after downloading boxes and scores
// (a sync; the output's length is data-dependent anyway). Order and arithmetic
// follow ONNX Runtime, whose results the node tests hold: per batch, per class,
// candidates with score > score_threshold in descending score (ties: lower box
// index first); a candidate is dropped when its IoU with an already selected box of
// the class is > iou_threshold; IoU in float32, zero for boxes without area.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/core/op_eval.h"

#include <algorithm>
#include <numeric>

namespace gk {
namespace {

struct NmsAttrs {
  bool center_point_box = false;
};

Result<ParsedAttrs> parse_nms(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(int64_t cpb, attrs.get_int("center_point_box", 0));
  if (cpb != 0 && cpb != 1) return invalid_model("{}: center_point_box {} must be 0 or 1", node.describe(), cpb);
  return dm::make_attrs(NmsAttrs{cpb == 1});
}

Status infer_nms(InferContext& ctx) {
  const TensorType &boxes = ctx.in(0), &scores = ctx.in(1);
  if (boxes.dtype != DType::kF32 || scores.dtype != DType::kF32) return ctx.fail("boxes and scores must be float32");
  if (boxes.shape.size() != 3 || boxes.shape[2] != 4)
    return ctx.fail(fmt::format("boxes must be [num_batches, spatial_dimension, 4], got {}", shape_str(boxes.shape)));
  if (scores.shape.size() != 3 || scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
    return ctx.fail(fmt::format("scores {} does not match boxes {} (want [num_batches, num_classes, {}])",
                                shape_str(scores.shape), shape_str(boxes.shape), boxes.shape[1]));
  for (size_t i = 2; i < ctx.inputs.size() && i < 5; ++i) {
    if (!ctx.node.has_input(i)) continue;
    const DType want = i == 2 ? DType::kI64 : DType::kF32;
    if (ctx.in(i).dtype != want || numel(ctx.in(i).shape) != 1)
      return ctx.fail(fmt::format("input {} must be one {} value", i, dtype_name(want)));
  }
  ctx.outputs[0] = {DType::kI64, {0, 3}};
  ctx.dynamic_shape = true;
  return ok_status();
}

struct Box {
  float x_min, x_max, y_min, y_max, area;
};

Box make_box(const float* b, bool center) {
  Box r;
  if (center) {  // [x_center, y_center, width, height]
    const float hw = b[2] / 2, hh = b[3] / 2;
    r = {b[0] - hw, b[0] + hw, b[1] - hh, b[1] + hh, 0};
  } else {  // [y1, x1, y2, x2], any diagonal pair of corners
    r = {std::min(b[1], b[3]), std::max(b[1], b[3]), std::min(b[0], b[2]), std::max(b[0], b[2]), 0};
  }
  r.area = (r.x_max - r.x_min) * (r.y_max - r.y_min);
  return r;
}

bool suppresses(const Box& a, const Box& b, float iou_threshold) {
  const float ix_min = std::max(a.x_min, b.x_min), ix_max = std::min(a.x_max, b.x_max);
  if (ix_max <= ix_min) return false;
  const float iy_min = std::max(a.y_min, b.y_min), iy_max = std::min(a.y_max, b.y_max);
  if (iy_max <= iy_min) return false;
  const float inter = (ix_max - ix_min) * (iy_max - iy_min);
  if (inter <= 0.f) return false;
  const float uni = a.area + b.area - inter;
  if (a.area <= 0.f || b.area <= 0.f || uni <= 0.f) return false;
  return inter / uni > iou_threshold;
}

Result<HostTensor> fetch(KernelContext& ctx, size_t i) {
  const TensorRef& t = ctx.in(i);
  if (t.host) return *t.host;
  return download_tensor(ctx.kit(), t.dtype, t.shape, t.ptr);
}

Status run_nms(KernelContext& ctx) {
  const bool center = ctx.attrs<NmsAttrs>().center_point_box;
  const Shape& bs = ctx.in(0).shape;
  const Shape& ss = ctx.in(1).shape;
  const int64_t batches = bs[0], spatial = bs[1], classes = ss[1];
  int64_t max_out = 0;
  float iou_threshold = 0.f, score_threshold = 0.f;
  bool has_score_threshold = false;
  if (ctx.num_inputs() > 2 && ctx.in(2).present()) {
    GK_TRY(HostTensor t, fetch(ctx, 2));
    max_out = std::max<int64_t>(t.to_i64_vector()[0], 0);
  }
  if (ctx.num_inputs() > 3 && ctx.in(3).present()) {
    GK_TRY(HostTensor t, fetch(ctx, 3));
    iou_threshold = t.data<float>()[0];
    if (!(iou_threshold >= 0.f && iou_threshold <= 1.f))
      return ctx.fail(fmt::format("iou_threshold {} must be in [0, 1]", iou_threshold));
  }
  if (ctx.num_inputs() > 4 && ctx.in(4).present()) {
    GK_TRY(HostTensor t, fetch(ctx, 4));
    score_threshold = t.data<float>()[0];
    has_score_threshold = true;
  }
  std::vector<int64_t> selected;  // (batch, class, box) triples
  if (max_out > 0 && spatial > 0 && classes > 0) {
    GK_TRY(HostTensor boxes_t, fetch(ctx, 0));
    GK_TRY(HostTensor scores_t, fetch(ctx, 1));
    const float* boxes = boxes_t.data<float>();
    const float* scores = scores_t.data<float>();
    std::vector<Box> box(spatial);
    std::vector<int64_t> order, kept;
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < spatial; ++i) box[i] = make_box(boxes + (b * spatial + i) * 4, center);
      for (int64_t c = 0; c < classes; ++c) {
        const float* s = scores + (b * classes + c) * spatial;
        order.clear();
        for (int64_t i = 0; i < spatial; ++i)
          if (!has_score_threshold || s[i] > score_threshold) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return s[p] > s[q]; });
        kept.clear();
        for (int64_t cand : order) {
          if (static_cast<int64_t>(kept.size()) >= max_out) break;
          bool keep = true;
          for (int64_t k : kept)
            if (suppresses(box[k], box[cand], iou_threshold)) {
              keep = false;
              break;
            }
          if (!keep) continue;
          kept.push_back(cand);
          selected.insert(selected.end(), {b, c, cand});
        }
      }
    }
  }
  const int64_t count = static_cast<int64_t>(selected.size()) / 3;
  GK_RETURN_IF_ERROR(ctx.allocate_output(0, {count, 3}));
  if (count == 0) return ok_status();
  return ctx.kit().device().upload(ctx.out(0).ptr, selected.data(), selected.size() * sizeof(int64_t));
}

constexpr OpImpl kNonMaxSuppression{&parse_nms, &infer_nms, &run_nms};

const OpSchema kNmsOps[] = {
    {"", "NonMaxSuppression", 10, kOpsetCurrent, &kNonMaxSuppression, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> nms_ops() { return kNmsOps; }
}  // namespace families

}  // namespace gk
