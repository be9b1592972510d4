#include "tools/gkrun/common.h"

#include "runtime/tensor_io.h"

#include <chrono>
#include <random>

namespace gk::cli {

int exit_code_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return kExitOk;
    case StatusCode::kInvalidModel:
    case StatusCode::kInvalidArgument:
    case StatusCode::kUnimplemented: return kExitInvalid;
    default: return kExitRuntime;
  }
}

int report_error(const Status& status) {
  std::string line = status.to_string();
  for (char& c : line)
    if (c == '\n') c = ' ';
  fmt::print(stderr, "gkrun: {}\n", line);
  return exit_code_for(status);
}

void ModelFlags::add_to(CLI::App& app, bool with_inputs) {
  app.add_option("model", model, "ONNX model file")->required();
  app.add_option("--backend", backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app.add_option("--device", device, "CUDA device ordinal (default: GK_DEVICE or the best)");
  app.add_option("--threads", threads, "CPU worker threads (default: all cores)");
  app.add_option("--disable-pass", disable_passes, "turn a graph pass off by name (repeatable)");
  app.add_option("--memory-limit", memory_limit,
                 "refuse a plan that needs more device memory than this (bytes, or 512K, 64M, 2G)");
  if (with_inputs) {
    app.add_option("--input", inputs, "NAME=FILE (.npy or TensorProto .pb)");
    app.add_option("--shape", shapes, "NAME=1x3x224x224: bind an input's symbolic dims");
    app.add_option("--seed", seed, "seed for random inputs");
  }
}

Result<SessionOptions> ModelFlags::session_options() const {
  SessionOptions o;
  if (!memory_limit.empty()) {
    GK_TRY(o.memory_limit, parse_byte_size(memory_limit));
  }
  o.backend = backend;
  o.device = device;
  o.threads = threads;
  o.cuda_graphs = graphs;
  o.disabled_passes.insert(disable_passes.begin(), disable_passes.end());
  return o;
}

Result<Shape> parse_shape(const std::string& text) {
  Shape shape;
  if (text.empty()) return invalid_argument("--shape: empty shape (expected e.g. 1x3x224x224)");
  size_t start = 0;
  while (start <= text.size()) {
    size_t x = text.find('x', start);
    std::string part = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 12)
      return invalid_argument("--shape: malformed shape '{}' (expected dims joined by 'x', e.g. 1x3x224x224)", text);
    shape.push_back(std::stoll(part));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  GK_TRY(int64_t n, checked_numel(shape));
  (void)n;
  return shape;
}

Result<size_t> parse_byte_size(const std::string& text) {
  const auto bad = [&] {
    return invalid_argument("--memory-limit: malformed size '{}' (expected bytes, or a number with K, M or G, "
                            "e.g. 512M; at least 1)", text);
  };
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return bad();
  int shift = 0;
  const std::string suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (!suffix.empty()) return bad();
  const uint64_t value = std::stoull(text.substr(0, digits));  // at most 15 digits: no overflow
  if (value == 0 || value > (UINT64_MAX >> shift)) return bad();
  return static_cast<size_t>(value << shift);
}

Result<std::map<std::string, std::string>> parse_pairs(const std::vector<std::string>& items, const char* flag) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return invalid_argument("{}: expected NAME=VALUE, got '{}'", flag, item);
    out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

namespace {

// A model declares any element type and shape: a string input gets short random
// words, and a type or size no tensor can have is the error allocate names (the
// mutation run of scripts/mutate_cli.py met both as a SIGSEGV of `gkrun MODEL`).
Result<HostTensor> random_tensor(DType dtype, const Shape& shape, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int64_t> ids(0, 9);
  if (dtype == DType::kString) {
    GK_TRY(const int64_t count, checked_numel(shape));
    std::vector<std::string> words(static_cast<size_t>(count));
    for (std::string& w : words) w = std::string(1 + rng() % 4, static_cast<char>('a' + ids(rng)));
    return HostTensor::strings(shape, std::move(words));
  }
  GK_TRY(HostTensor t, HostTensor::allocate(dtype, shape));
  const int64_t n = t.numel();
  if (dtype_is_float(dtype)) {
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(unit(rng));
    if (dtype == DType::kF32) return HostTensor::from_vector(dtype, shape, v);
    if (dtype == DType::kF64) {
      std::vector<double> d(v.begin(), v.end());
      return HostTensor::from_vector(dtype, shape, d);
    }
  }
  std::vector<double> halves;  // f16/bf16 values, rounded through float as the kernels round
  if (dtype == DType::kF16 || dtype == DType::kBF16) halves.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    auto* bytes = static_cast<uint8_t*>(t.mutable_bytes());
    const int64_t v = dtype == DType::kBool ? (rng() & 1) : ids(rng);
    switch (dtype) {
      case DType::kI8: case DType::kU8: case DType::kBool: bytes[i] = static_cast<uint8_t>(v); break;
      case DType::kI16: case DType::kU16: reinterpret_cast<int16_t*>(bytes)[i] = static_cast<int16_t>(v); break;
      case DType::kI32: case DType::kU32: reinterpret_cast<int32_t*>(bytes)[i] = static_cast<int32_t>(v); break;
      case DType::kI64: case DType::kU64: reinterpret_cast<int64_t*>(bytes)[i] = v; break;
      case DType::kF16: case DType::kBF16: halves[i] = static_cast<float>(unit(rng)); break;
      default: break;
    }
  }
  if (!halves.empty()) return tensor_from_f64(dtype, shape, halves);
  return t;
}

}  // namespace

Result<std::vector<NamedTensor>> make_inputs(const Session& session, const ModelFlags& flags) {
  GK_TRY(auto files, parse_pairs(flags.inputs, "--input"));
  GK_TRY(auto shape_texts, parse_pairs(flags.shapes, "--shape"));
  auto known = [&](const std::string& name) {
    return std::any_of(session.inputs().begin(), session.inputs().end(), [&](const IoDesc& d) { return d.name == name; });
  };
  for (const auto& entry : files)
    if (!known(entry.first)) return invalid_argument("--input: the model has no input '{}'", entry.first);
  for (const auto& entry : shape_texts)
    if (!known(entry.first)) return invalid_argument("--shape: the model has no input '{}'", entry.first);
  std::mt19937_64 rng(flags.seed);
  std::vector<NamedTensor> out;
  for (const IoDesc& in : session.inputs()) {
    if (auto f = files.find(in.name); f != files.end()) {
      GK_TRY(HostTensor t, read_tensor_file(f->second));
      if (t.dtype() != in.dtype)
        return invalid_argument("--input {}: file holds {}, the model's input is {}", f->second,
                                dtype_name(t.dtype()), dtype_name(in.dtype));
      out.push_back({in.name, std::move(t)});
      continue;
    }
    Shape shape;
    if (auto s = shape_texts.find(in.name); s != shape_texts.end()) {
      GK_TRY(shape, parse_shape(s->second));
    } else {
      for (const Dim& d : in.dims) {
        if (!d.known())
          return invalid_argument("input '{}' has symbolic dim '{}': give its shape with --shape {}=...", in.name,
                                  d.symbol.empty() ? "?" : d.symbol, in.name);
        shape.push_back(d.value);
      }
    }
    GK_TRY(HostTensor t, random_tensor(in.dtype, shape, rng));
    out.push_back({in.name, std::move(t)});
  }
  return out;
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

Result<std::shared_ptr<Session>> open_session(const ModelFlags& flags, double* open_ms) {
  const double t0 = now_ms();
  GK_TRY(SessionOptions options, flags.session_options());
  auto s = Session::open(flags.model, std::move(options));
  if (open_ms) *open_ms = now_ms() - t0;
  return s;
}

std::string format_bytes(size_t bytes) {
  if (bytes >= (size_t{1} << 30)) return fmt::format("{:.2f} GiB", bytes / double(size_t{1} << 30));
  if (bytes >= (size_t{1} << 20)) return fmt::format("{:.2f} MiB", bytes / double(size_t{1} << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{} B", bytes);
}

}  // namespace gk::cli
