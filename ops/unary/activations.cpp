// Activation functions: Relu, LeakyRelu, Elu, Selu, Celu, Sigmoid, HardSigmoid,
// HardSwish, Swish, Mish, Softplus, Softsign, Gelu, ThresholdedRelu, Shrink.
// Kernels: ops/unary/unary.cuh (gk_unary<gk_un_*, T>).
#include "ops/core/op.h"
#include "ops/unary/unary.h"

namespace gk {
namespace {

constexpr UnaryKind kReluK{"gk_un_relu", kFloatTypes | kSignedIntTypes, false};  // ints: Relu-14
constexpr UnaryKind kLeakyReluK{"gk_un_leakyrelu", kFloatTypes, false};
constexpr UnaryKind kEluK{"gk_un_elu", kFloatTypes, false};
constexpr UnaryKind kSeluK{"gk_un_selu", kFloatTypes, false};
constexpr UnaryKind kCeluK{"gk_un_celu", kFloatTypes, false};
constexpr UnaryKind kSigmoidK{"gk_un_sigmoid_op", kFloatTypes, false};
constexpr UnaryKind kHardSigmoidK{"gk_un_hardsigmoid", kFloatTypes, false};
constexpr UnaryKind kHardSwishK{"gk_un_hardswish", kFloatTypes, false};
constexpr UnaryKind kSwishK{"gk_un_swish", kFloatTypes, false};
constexpr UnaryKind kMishK{"gk_un_mish", kFloatTypes, false};
constexpr UnaryKind kSoftplusK{"gk_un_softplus_op", kFloatTypes, false};
constexpr UnaryKind kSoftsignK{"gk_un_softsign", kFloatTypes, false};
constexpr UnaryKind kGeluK{"gk_un_gelu", kFloatTypes, false};
constexpr UnaryKind kThresholdedReluK{"gk_un_thresholdedrelu", kFloatTypes, false};
constexpr UnaryKind kShrinkK{"gk_un_shrink", kNumericTypes, false};

// A float attribute an activation reads and the UnaryParams field it fills.
struct FloatAttr {
  const char* name;  // nullptr: unused slot
  float dflt;        // the spec's default
  float UnaryParams::*field;
};

struct ActSpec {
  const UnaryKind* kind;
  FloatAttr attrs[2];
  bool nonzero_alpha = false;  // Celu divides by alpha
};

constexpr ActSpec kLeakyReluS{&kLeakyReluK, {{"alpha", 0.01f, &UnaryParams::alpha}}};
constexpr ActSpec kEluS{&kEluK, {{"alpha", 1.0f, &UnaryParams::alpha}}};
constexpr ActSpec kSeluS{&kSeluK,
                         {{"alpha", 1.67326319217681884765625f, &UnaryParams::alpha},
                          {"gamma", 1.05070102214813232421875f, &UnaryParams::gamma}}};
constexpr ActSpec kCeluS{&kCeluK, {{"alpha", 1.0f, &UnaryParams::alpha}}, true};
constexpr ActSpec kHardSigmoidS{&kHardSigmoidK,
                                {{"alpha", 0.2f, &UnaryParams::alpha}, {"beta", 0.5f, &UnaryParams::beta}}};
constexpr ActSpec kSwishS{&kSwishK, {{"alpha", 1.0f, &UnaryParams::alpha}}};
constexpr ActSpec kThresholdedReluS{&kThresholdedReluK, {{"alpha", 1.0f, &UnaryParams::alpha}}};
// Shrink: alpha carries lambd, beta bias.
constexpr ActSpec kShrinkS{&kShrinkK, {{"lambd", 0.5f, &UnaryParams::alpha}, {"bias", 0.0f, &UnaryParams::beta}}};

template <const ActSpec* S>
Result<ParsedAttrs> parse_act(const AttrMap& attrs, const NodeView& node) {
  UnaryParams p;
  for (const FloatAttr& a : S->attrs) {
    if (a.name == nullptr) continue;
    GK_TRY(p.*a.field, attrs.get_float(a.name, a.dflt));
  }
  if (S->nonzero_alpha && p.alpha == 0) return invalid_model("{}: attribute alpha must be nonzero", node.describe());
  return make_unary_attrs(*S->kind, p);
}

Result<ParsedAttrs> parse_gelu(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(std::string approximate, attrs.get_string("approximate", "none"));
  UnaryParams p;
  if (approximate == "tanh")
    p.flags = 1;
  else if (approximate != "none")
    return invalid_model("{}: attribute approximate is '{}'; allowed: none, tanh", node.describe(),
                         approximate);
  return make_unary_attrs(kGeluK, p);
}

constexpr OpImpl kRelu{&parse_unary<&kReluK>, &infer_unary, &run_unary};
constexpr OpImpl kLeakyRelu{&parse_act<&kLeakyReluS>, &infer_unary, &run_unary};
constexpr OpImpl kElu{&parse_act<&kEluS>, &infer_unary, &run_unary};
constexpr OpImpl kSelu{&parse_act<&kSeluS>, &infer_unary, &run_unary};
constexpr OpImpl kCelu{&parse_act<&kCeluS>, &infer_unary, &run_unary};
constexpr OpImpl kSigmoid{&parse_unary<&kSigmoidK>, &infer_unary, &run_unary};
constexpr OpImpl kHardSigmoid{&parse_act<&kHardSigmoidS>, &infer_unary, &run_unary};
constexpr OpImpl kHardSwish{&parse_unary<&kHardSwishK>, &infer_unary, &run_unary};
constexpr OpImpl kSwish{&parse_act<&kSwishS>, &infer_unary, &run_unary};
constexpr OpImpl kMish{&parse_unary<&kMishK>, &infer_unary, &run_unary};
constexpr OpImpl kSoftplus{&parse_unary<&kSoftplusK>, &infer_unary, &run_unary};
constexpr OpImpl kSoftsign{&parse_unary<&kSoftsignK>, &infer_unary, &run_unary};
constexpr OpImpl kGelu{&parse_gelu, &infer_unary, &run_unary};
constexpr OpImpl kThresholdedRelu{&parse_act<&kThresholdedReluS>, &infer_unary, &run_unary};
constexpr OpImpl kShrink{&parse_act<&kShrinkS>, &infer_unary, &run_unary};

constexpr OpTraits kAct{.inplace_input = 0, .elementwise = true};

// Later versions (Relu-13/14, LeakyRelu-16, Elu-22, ...) only added types;
// Softplus and Softsign kept version 1 until 22.
const OpSchema kOps[] = {
    {"", "Relu", 6, kOpsetCurrent, &kRelu, kAct},
    {"", "LeakyRelu", 6, kOpsetCurrent, &kLeakyRelu, kAct},
    {"", "Elu", 6, kOpsetCurrent, &kElu, kAct},
    {"", "Selu", 6, kOpsetCurrent, &kSelu, kAct},
    {"", "Celu", 12, kOpsetCurrent, &kCelu, kAct},
    {"", "Sigmoid", 6, kOpsetCurrent, &kSigmoid, kAct},
    {"", "HardSigmoid", 6, kOpsetCurrent, &kHardSigmoid, kAct},
    {"", "HardSwish", 14, kOpsetCurrent, &kHardSwish, kAct},
    {"", "Swish", 24, kOpsetCurrent, &kSwish, kAct},
    {"", "Mish", 18, kOpsetCurrent, &kMish, kAct},
    {"", "Softplus", 1, kOpsetCurrent, &kSoftplus, kAct},
    {"", "Softsign", 1, kOpsetCurrent, &kSoftsign, kAct},
    {"", "Gelu", 20, kOpsetCurrent, &kGelu, kAct},
    {"", "ThresholdedRelu", 10, kOpsetCurrent, &kThresholdedRelu, kAct},
    {"", "Shrink", 9, kOpsetCurrent, &kShrink, kAct},
};

}  // namespace

namespace families {
std::span<const OpSchema> activation_ops() { return kOps; }
}  // namespace families

}  // namespace gk
