#include "backends/cuda/cuda_graph.h"

#include <cstring>

namespace gk::cuda {

CudaGraphs::~CudaGraphs() {
  if (!c_.make_current().ok()) return;
  if (capturing()) {
    CUgraph g = nullptr;
    if (c_.api->cuStreamEndCapture(c_.stream, &g) == CUDA_SUCCESS && g) c_.api->cuGraphDestroy(g);
  }
  for (auto& [id, g] : graphs_) release(g);
}

void CudaGraphs::release(Graph& g) const {
  if (g.exec) c_.api->cuGraphExecDestroy(g.exec);
  if (g.graph) c_.api->cuGraphDestroy(g.graph);
  g = Graph{};
}

bool CudaGraphs::capturing_here() const {
  if (!capturing()) return false;
  std::lock_guard lock(mutex_);
  return capturing() && owner_ == std::this_thread::get_id();
}

void CudaGraphs::wait_for_other_capture() {
  if (!capturing()) return;
  std::unique_lock lock(mutex_);
  capture_closed_.wait(lock, [&] { return !capturing() || owner_ == std::this_thread::get_id(); });
}

void CudaGraphs::record_launch(CUfunction function, const KernelArgs& args) {
  std::lock_guard lock(mutex_);
  if (capturing()) launches_.push_back({function, args});
}

Status CudaGraphs::begin_capture() {
  std::unique_lock lock(mutex_);
  if (capturing() && owner_ == std::this_thread::get_id())
    return invalid_argument("cuda: begin_capture while this thread's capture is already open");
  capture_closed_.wait(lock, [&] { return !capturing(); });
  GK_RETURN_IF_ERROR(c_.make_current());
  // Relaxed: a pool allocation on another thread during the capture is legal.
  GK_RETURN_IF_ERROR(
      c_.check(c_.api->cuStreamBeginCapture(c_.stream, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture_v2"));
  launches_.clear();
  owner_ = std::this_thread::get_id();
  capturing_.store(true, std::memory_order_release);
  return ok_status();
}

Result<std::vector<CudaGraphs::Node>> CudaGraphs::match_nodes(CUgraph graph,
                                                             std::vector<Launch>& launches) const {
  size_t count = 0;
  GK_RETURN_IF_ERROR(c_.check(c_.api->cuGraphGetNodes(graph, nullptr, &count), "cuGraphGetNodes"));
  std::vector<CUgraphNode> nodes(count);
  GK_RETURN_IF_ERROR(c_.check(c_.api->cuGraphGetNodes(graph, nodes.data(), &count), "cuGraphGetNodes"));
  std::vector<bool> used(launches.size(), false);
  std::vector<Node> out;
  for (CUgraphNode node : nodes) {
    int type = -1;
    GK_RETURN_IF_ERROR(c_.check(c_.api->cuGraphNodeGetType(node, &type), "cuGraphNodeGetType"));
    if (type != CU_GRAPH_NODE_TYPE_KERNEL) continue;  // copies and memsets keep their addresses
    CudaKernelNodeParams p{};
    GK_RETURN_IF_ERROR(
        c_.check(c_.api->cuGraphKernelNodeGetParams(node, &p), "cuGraphKernelNodeGetParams_v2"));
    // Node order is not launch order: a node is the unused launch of the same
    // function whose argument bytes it holds.
    size_t found = launches.size();
    for (size_t i = 0; i < launches.size() && found == launches.size(); ++i) {
      if (used[i] || (p.func && p.func != launches[i].function) || !p.kernelParams) continue;
      const KernelArgs& a = launches[i].args;
      bool same = true;
      for (size_t k = 0; k < a.size() && same; ++k)
        same = std::memcmp(p.kernelParams[k], a.slot(k), a.arg_bytes(k)) == 0;
      if (same) found = i;
    }
    if (found == launches.size())
      return internal_error("cuda: a captured kernel node matches no launch recorded during the capture");
    used[found] = true;
    p.kernelParams = nullptr;
    p.extra = nullptr;
    out.push_back({node, p, std::move(launches[found].args)});
  }
  return out;
}

Result<GraphId> CudaGraphs::end_capture() {
  std::lock_guard lock(mutex_);
  if (!capturing() || owner_ != std::this_thread::get_id())
    return invalid_argument("cuda: end_capture without begin_capture on this thread");
  capturing_.store(false, std::memory_order_release);
  capture_closed_.notify_all();
  std::vector<Launch> launches = std::move(launches_);
  launches_.clear();
  GK_RETURN_IF_ERROR(c_.make_current());
  Graph g;
  GK_RETURN_IF_ERROR(c_.check(c_.api->cuStreamEndCapture(c_.stream, &g.graph), "cuStreamEndCapture"));
  Status s = c_.check(c_.api->cuGraphInstantiateWithFlags(&g.exec, g.graph, 0), "cuGraphInstantiateWithFlags");
  if (s.ok()) {
    auto nodes = match_nodes(g.graph, launches);
    if (nodes.ok()) g.kernels = std::move(*nodes);
    else s = nodes.status();
  }
  if (!s.ok()) {
    release(g);
    return s;
  }
  GraphId id = next_id_++;
  graphs_.emplace(id, std::move(g));
  return id;
}

Status CudaGraphs::launch_graph(GraphId graph) {
  std::unique_lock lock(mutex_);
  if (capturing() && owner_ == std::this_thread::get_id())
    return invalid_argument("cuda: launch_graph while this thread is capturing");
  capture_closed_.wait(lock, [&] { return !capturing(); });
  auto it = graphs_.find(graph);
  if (it == graphs_.end()) return invalid_argument("cuda: unknown graph id {}", graph);
  GK_RETURN_IF_ERROR(c_.make_current());
  return c_.check(c_.api->cuGraphLaunch(it->second.exec, c_.stream), "cuGraphLaunch");
}

Status CudaGraphs::rebind_pointers(GraphId graph, const std::vector<PointerRemap>& remap) {
  std::lock_guard lock(mutex_);
  auto it = graphs_.find(graph);
  if (it == graphs_.end()) return invalid_argument("cuda: unknown graph id {}", graph);
  GK_RETURN_IF_ERROR(c_.make_current());
  for (Node& n : it->second.kernels) {
    // Every pair is matched against the value before this call, so a remap that
    // swaps two buffers does not chain.
    KernelArgs next = n.args;
    bool changed = false;
    for (size_t i = 0; i < next.size(); ++i) {
      if (next.kind(i) != ArgKind::kPtr) continue;
      const DevPtr v = next.get<DevPtr>(i), moved = remap_pointer(v, remap);
      if (moved == v) continue;
      next.set_ptr(i, moved);
      changed = true;
    }
    if (!changed) continue;
    std::vector<void*> values = next.pointers();
    CudaKernelNodeParams p = n.params;
    p.kernelParams = values.data();
    GK_RETURN_IF_ERROR(c_.check(c_.api->cuGraphExecKernelNodeSetParams(it->second.exec, n.node, &p),
                                "cuGraphExecKernelNodeSetParams_v2"));
    n.args = std::move(next);
  }
  return ok_status();
}

void CudaGraphs::destroy_graph(GraphId graph) {
  std::lock_guard lock(mutex_);
  auto it = graphs_.find(graph);
  if (it == graphs_.end()) return;
  if (c_.make_current().ok()) release(it->second);
  graphs_.erase(it);
}

}  // namespace gk::cuda
