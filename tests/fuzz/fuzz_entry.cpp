#include "tests/fuzz/fuzz_entry.h"

#include "graph/loader.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"

#include <random>
#include <string_view>

namespace gk::fuzz {
namespace {

// FNV-1a over the input: the seed of every value the run makes up.
uint64_t seed_of(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

Result<HostTensor> small_input(const IoDesc& in, std::mt19937_64& rng) {
  Shape shape;
  for (const Dim& d : in.dims) shape.push_back(d.known() ? d.value : 2);
  GK_TRY(int64_t n, checked_numel(shape));
  if (n > kMaxInputElements)
    return invalid_argument("fuzz: input '{}' has {} elements (more than {})", in.name, n, kMaxInputElements);
  if (in.dtype == DType::kString) {
    std::vector<std::string> v(static_cast<size_t>(n));
    for (auto& s : v) s = std::string(rng() % 4, static_cast<char>('a' + rng() % 26));
    return HostTensor::strings(shape, v);
  }
  GK_TRY(HostTensor t, HostTensor::allocate(in.dtype, shape));
  auto* bytes = static_cast<uint8_t*>(t.mutable_bytes());
  // Small integers in every byte pattern's low bits: indices near the edges, and
  // floats from the same bits (NaN and Inf included, as untrusted data would be).
  for (size_t i = 0; i < t.bytes(); ++i) bytes[i] = static_cast<uint8_t>(rng() % 4 == 0 ? rng() : rng() % 3);
  return t;
}

}  // namespace

Status load_model_bytes(const uint8_t* data, size_t size) {
  return load_model_from_memory(data, size, "").status();
}

Status run_model_bytes(const uint8_t* data, size_t size) {
  SessionOptions options;
  options.backend = "cpu";
  options.threads = 1;
  options.cuda_graphs = false;
  options.memory_limit = kFuzzMemoryLimit;
  GK_TRY(std::shared_ptr<Session> session, Session::open_from_memory(data, size, options));
  std::mt19937_64 rng(seed_of(data, size));
  std::vector<NamedTensor> inputs;
  for (const IoDesc& in : session->inputs()) {
    if (in.kind != ValueKind::kTensor) return unimplemented("fuzz: input '{}' is not a tensor", in.name);
    GK_TRY(HostTensor t, small_input(in, rng));
    inputs.push_back({in.name, std::move(t)});
  }
  // A model may legally loop for hours (a Loop whose trip count is data): stop it
  // well inside libFuzzer's 25 s timeout, as an embedding app would.
  RunOptions run_options;
  run_options.deadline = RunOptions::deadline_in(kFuzzRunSeconds);
  return session->run(inputs, run_options).status();
}

Status decode_tensor_bytes(const uint8_t* data, size_t size) {
  Status first = parse_tensor_proto(data, size, "").status();
  Status seq = parse_sequence_proto(data, size, "").status();
  Status opt = parse_optional_proto(data, size, "").status();
  Status npy = parse_npy(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.npy").status();
  for (Status* s : {&seq, &opt, &npy})
    if (first.ok() && !s->ok()) first = *s;
  return first;
}

Status run_target(const std::string& name, const uint8_t* data, size_t size) {
  if (name == "load") return load_model_bytes(data, size);
  if (name == "run" || name == "mutate") return run_model_bytes(data, size);
  if (name == "tensor") return decode_tensor_bytes(data, size);
  return invalid_argument("fuzz: unknown target '{}' (load, run, tensor, mutate)", name);
}

}  // namespace gk::fuzz
