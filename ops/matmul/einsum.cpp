// Einsum: the equation is parsed once; at run time operands are contracted left to
// right, two at a time, by gk_einsum (a strided contraction): repeated labels in a
// term become summed strides (diagonals), broadcast ellipsis dims stride 0, and a
// label is summed away at the first step after which nothing needs it.
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/matmul/matmul.cuh"

#include <algorithm>
#include <map>

namespace gk {
namespace {

constexpr int kEllipsis = -1;      // in a parsed term
constexpr int kEllipsisBase = 64;  // label ids of ellipsis dims (letters are 0..51)

struct EinsumAttrs {
  std::vector<std::vector<int>> terms;  // letters 0..51, kEllipsis
  bool explicit_out = false;
  std::vector<int> out;
};

Result<std::vector<int>> parse_term(const NodeView& node, std::string_view t) {
  std::vector<int> labels;
  bool seen_ellipsis = false;
  for (size_t i = 0; i < t.size(); ++i) {
    char ch = t[i];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (t.substr(i, 3) != "..." || seen_ellipsis)
        return invalid_model("{}: Einsum term '{}' has a malformed ellipsis", node.describe(), t);
      seen_ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
    } else if (ch >= 'a' && ch <= 'z') {
      labels.push_back(ch - 'a');
    } else if (ch >= 'A' && ch <= 'Z') {
      labels.push_back(26 + ch - 'A');
    } else {
      return invalid_model("{}: Einsum equation has '{}'; labels are letters a-z, A-Z", node.describe(), ch);
    }
  }
  return labels;
}

Result<ParsedAttrs> parse_einsum(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(std::string eq, attrs.get_string("equation", ""));
  auto a = std::make_shared<EinsumAttrs>();
  std::string_view lhs = eq, rhs;
  if (size_t arrow = eq.find("->"); arrow != std::string::npos) {
    lhs = std::string_view(eq).substr(0, arrow);
    rhs = std::string_view(eq).substr(arrow + 2);
    a->explicit_out = true;
  }
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    GK_TRY(auto term, parse_term(node, lhs.substr(start, comma == std::string_view::npos ? comma : comma - start)));
    a->terms.push_back(std::move(term));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (a->explicit_out) {
    GK_TRY(a->out, parse_term(node, rhs));
  }
  return ParsedAttrs(a);
}

struct Plan {
  std::vector<std::vector<int>> labels;  // per operand, one label id per dim
  std::map<int, int64_t> size;
  std::vector<int> out;
  Shape out_shape;
};

Result<Plan> make_plan(const NodeView& node, const EinsumAttrs& at, const std::vector<Shape>& shapes) {
  if (shapes.size() != at.terms.size())
    return invalid_model("{}: Einsum equation has {} terms for {} inputs", node.describe(), at.terms.size(),
                         shapes.size());
  Plan p;
  int ell_rank = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto& t = at.terms[i];
    const bool has_ell = std::count(t.begin(), t.end(), kEllipsis) > 0;
    const int letters = static_cast<int>(t.size()) - (has_ell ? 1 : 0);
    const int rank = static_cast<int>(shapes[i].size());
    if (has_ell ? rank < letters : rank != letters)
      return invalid_model("{}: Einsum term {} names {} dims, input {} has rank {}", node.describe(), i, letters,
                           i, rank);
    ell_rank = std::max(ell_rank, rank - letters);
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto& t = at.terms[i];
    const int e = static_cast<int>(shapes[i].size()) - (static_cast<int>(t.size()) - (std::count(t.begin(), t.end(), kEllipsis) ? 1 : 0));
    std::vector<int> ls;
    for (int l : t) {
      if (l != kEllipsis) {
        ls.push_back(l);
        continue;
      }
      for (int d = 0; d < e; ++d) ls.push_back(kEllipsisBase + ell_rank - e + d);
    }
    for (size_t d = 0; d < ls.size(); ++d) {
      const int64_t dim = shapes[i][d];
      auto [it, fresh] = p.size.emplace(ls[d], dim);
      if (fresh || it->second == dim) continue;
      if (ls[d] >= kEllipsisBase && (it->second == 1 || dim == 1)) {
        it->second = it->second == 1 ? dim : it->second;
        continue;
      }
      return invalid_model("{}: Einsum label size mismatch at input {} dim {} ({} vs {})", node.describe(), i, d,
                           dim, it->second);
    }
    p.labels.push_back(std::move(ls));
  }
  if (at.explicit_out) {
    for (int l : at.out) {
      if (l == kEllipsis) {
        for (int d = 0; d < ell_rank; ++d) p.out.push_back(kEllipsisBase + d);
        continue;
      }
      if (!p.size.count(l) || std::count(p.out.begin(), p.out.end(), l))
        return invalid_model("{}: Einsum output label appears in no input or twice", node.describe());
      p.out.push_back(l);
    }
  } else {
    for (int d = 0; d < ell_rank; ++d) p.out.push_back(kEllipsisBase + d);
    std::map<int, int> count;
    for (const auto& t : at.terms)
      for (int l : t)
        if (l != kEllipsis) ++count[l];
    for (auto [l, c] : count)  // ids order letters as a-z then A-Z; numpy sorts A-Z first
      if (c == 1) p.out.push_back(l);
    std::stable_sort(p.out.begin() + ell_rank, p.out.end(), [](int x, int y) {
      auto key = [](int l) { return l >= 26 ? l - 26 : l + 26; };
      return key(x) < key(y);
    });
  }
  for (int l : p.out) p.out_shape.push_back(p.size[l]);
  return p;
}

Status infer_einsum(InferContext& ctx) {
  std::vector<Shape> shapes;
  for (const auto& t : ctx.inputs) {
    if (t.dtype != ctx.in(0).dtype) return ctx.fail("Einsum inputs have different element types");
    shapes.push_back(t.shape);
  }
  GK_TRY(Plan p, make_plan(ctx.node, attrs_as<EinsumAttrs>(ctx.attrs), shapes));
  ctx.outputs[0] = {ctx.in(0).dtype, p.out_shape};
  return ok_status();
}

// An operand during the contraction: its device data and each label's stride.
struct Operand {
  DevPtr ptr;
  std::vector<int> labels;        // distinct
  std::map<int, int64_t> stride;  // 0 where the dim broadcasts
};

Operand operand_of(const Plan& p, DevPtr ptr, const std::vector<int>& labels, const Shape& shape) {
  Operand o{ptr, {}, {}};
  auto st = contiguous_strides(shape);
  for (size_t d = 0; d < labels.size(); ++d) {
    const int l = labels[d];
    if (!o.stride.count(l)) o.labels.push_back(l);
    const int64_t s = (shape[d] == 1 && p.size.at(l) != 1) ? 0 : st[d];
    o.stride[l] += s;
  }
  return o;
}

Status contract(KernelContext& ctx, const Plan& p, const Operand& a, const Operand* b,
                const std::vector<int>& keep, DevPtr out) {
  gk_einsum_args e{};
  std::vector<int> red;
  auto consider = [&](const Operand& o) {
    for (int l : o.labels)
      if (std::find(keep.begin(), keep.end(), l) == keep.end() && std::find(red.begin(), red.end(), l) == red.end())
        red.push_back(l);
  };
  consider(a);
  if (b) consider(*b);
  if (keep.size() > GK_MAX_RANK || red.size() > GK_MAX_RANK)
    return unimplemented("{}: Einsum step keeps {} and sums {} labels; at most {} each are supported",
                         ctx.node().describe(), keep.size(), red.size(), GK_MAX_RANK);
  auto stride_of = [](const Operand* o, int l) -> int64_t {
    if (!o) return 0;
    auto it = o->stride.find(l);
    return it == o->stride.end() ? 0 : it->second;
  };
  int64_t n = 1;
  e.out_rank = static_cast<int32_t>(keep.size());
  for (size_t d = 0; d < keep.size(); ++d) {
    e.out_dims[d] = p.size.at(keep[d]);
    e.a_out[d] = stride_of(&a, keep[d]);
    e.b_out[d] = stride_of(b, keep[d]);
    n *= e.out_dims[d];
  }
  e.red_rank = static_cast<int32_t>(red.size());
  e.red_total = 1;
  for (size_t d = 0; d < red.size(); ++d) {
    e.red_dims[d] = p.size.at(red[d]);
    e.a_red[d] = stride_of(&a, red[d]);
    e.b_red[d] = stride_of(b, red[d]);
    e.red_total *= e.red_dims[d];
  }
  e.has_b = b ? 1 : 0;
  if (n == 0) return ok_status();
  const DType t = ctx.in(0).dtype;
  const char* tn = kernel_type_name(t);
  if (!tn || t == DType::kBool) return unsupported_dtype(ctx.node(), t);
  KernelArgs args;
  args.ptr(a.ptr).ptr(b ? b->ptr : a.ptr).ptr(out).pod(e).i64(n);
  return ctx.launch(kernel_sources::matmul, KernelName::format("gk_einsum<{}>", {tn}), grid_for(n), args);
}

Status run_einsum(KernelContext& ctx) {
  const auto& at = ctx.attrs<EinsumAttrs>();
  std::vector<Shape> shapes;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) shapes.push_back(ctx.in(i).shape);
  GK_TRY(Plan p, make_plan(ctx.node(), at, shapes));
  // An empty operand leaves either the output empty (no launch) or a sum with no
  // terms (red_total 0): its null pointer is never read.
  Operand cur = operand_of(p, ctx.in(0).ptr, p.labels[0], ctx.in(0).shape);
  const size_t n_ops = ctx.num_inputs();
  if (n_ops == 1) return contract(ctx, p, cur, nullptr, p.out, ctx.out(0).ptr);
  for (size_t i = 1; i < n_ops; ++i) {
    Operand next = operand_of(p, ctx.in(i).ptr, p.labels[i], ctx.in(i).shape);
    std::vector<int> keep;
    if (i + 1 == n_ops) {
      keep = p.out;
    } else {
      auto needed = [&](int l) {
        if (std::count(p.out.begin(), p.out.end(), l)) return true;
        for (size_t j = i + 1; j < n_ops; ++j)
          if (std::count(p.labels[j].begin(), p.labels[j].end(), l)) return true;
        return false;
      };
      for (const Operand* o : {&cur, &next})
        for (int l : o->labels)
          if (needed(l) && !std::count(keep.begin(), keep.end(), l)) keep.push_back(l);
    }
    DevPtr out = ctx.out(0).ptr;
    Shape kept;
    for (int l : keep) kept.push_back(p.size.at(l));
    if (i + 1 < n_ops) {
      GK_TRY(GkBuf buf, ctx.scratch(ctx.in(0).dtype, std::max<int64_t>(numel(kept), 1)));
      out = buf.ptr();
    }
    GK_RETURN_IF_ERROR(contract(ctx, p, cur, &next, keep, out));
    cur = operand_of(p, out, keep, kept);
  }
  return ok_status();
}

const OpImpl kEinsum{&parse_einsum, &infer_einsum, &run_einsum};

const OpSchema kEinsumOps[] = {
    {"", "Einsum", 12, kOpsetCurrent, &kEinsum, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> einsum_ops() { return kEinsumOps; }
}  // namespace families

}  // namespace gk
