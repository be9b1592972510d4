// Det (opsets 11 and 22: 22 adds bfloat16): [*, M, M] → [*].
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

namespace gk {
namespace {

struct DetAttrs {
  TypeSet types = 0;
};

template <TypeSet Types>
Result<ParsedAttrs> parse_det(const AttrMap&, const NodeView&) {
  return dm::make_attrs(DetAttrs{Types});
}

Status infer_det(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  const TypeSet types = attrs_as<DetAttrs>(ctx.attrs).types;
  if (!type_in(x.dtype, types))
    return unimplemented("{}: input type {} is not supported at opset {} (allowed: {})", ctx.node.describe(),
                         dtype_name(x.dtype), ctx.node.opset, type_set_names(types));
  const size_t r = x.shape.size();
  if (r < 2 || x.shape[r - 1] != x.shape[r - 2])
    return ctx.fail(fmt::format("input {} is not a batch of square matrices [*, M, M]", shape_str(x.shape)));
  ctx.outputs[0] = {x.dtype, Shape(x.shape.begin(), x.shape.end() - 2)};
  return ok_status();
}

Status run_det(KernelContext& ctx) {
  const TensorRef& x = ctx.in(0);
  const TensorRef& y = ctx.out(0);
  const int64_t batch = y.numel();
  if (batch == 0) return ok_status();
  const int64_t m = x.shape.back();
  GkBuf work;
  if (m > 0) {
    GK_TRY(work, ctx.scratch(DType::kF64, batch * m * m));
  }
  return ctx.launch(kernel_sources::linalg, dm::entry("gk_det", kernel_type_name(x.dtype)), grid_for(batch),
                    KernelArgs().ptr(x.ptr).ptr(y.ptr).ptr(work.ptr()).i64(batch).i64(m));
}

constexpr TypeSet kDet11Types = type_bit(DType::kF32) | type_bit(DType::kF64) | type_bit(DType::kF16);
constexpr TypeSet kDet22Types = kDet11Types | type_bit(DType::kBF16);

const OpImpl kDet11{&parse_det<kDet11Types>, &infer_det, &run_det};
const OpImpl kDet22{&parse_det<kDet22Types>, &infer_det, &run_det};

const OpSchema kDetSchemas[] = {
    {"", "Det", 11, 21, &kDet11, {}},
    {"", "Det", 22, kOpsetCurrent, &kDet22, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> det_ops() { return kDetSchemas; }
}  // namespace families

}  // namespace gk
