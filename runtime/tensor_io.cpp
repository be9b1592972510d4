#include "runtime/tensor_io.h"

#include "graph/loader.h"
#include "runtime/kit/element_convert.h"

#include <fstream>
#include <sstream>

namespace gk {
namespace {

struct NpyType {
  DType dtype;
  const char* descr;
};
constexpr NpyType kNpyTypes[] = {
    {DType::kF32, "<f4"}, {DType::kF64, "<f8"}, {DType::kF16, "<f2"}, {DType::kI8, "|i1"},
    {DType::kU8, "|u1"},  {DType::kI16, "<i2"}, {DType::kU16, "<u2"}, {DType::kI32, "<i4"},
    {DType::kU32, "<u4"}, {DType::kI64, "<i8"}, {DType::kU64, "<u8"}, {DType::kBool, "|b1"},
};

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("{}: cannot open file", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The value of `'key': value` in a .npy header dict (quotes stripped).
std::string header_field(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return {};
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return {};
  size_t start = header.find_first_not_of(" ", colon + 1);
  if (start == std::string::npos) return {};
  if (header[start] == '(') return header.substr(start, header.find(')', start) - start + 1);
  size_t end = header.find_first_of(",}", start);
  std::string v = header.substr(start, end - start);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\'')) v.pop_back();
  while (!v.empty() && v.front() == '\'') v.erase(v.begin());
  return v;
}

}  // namespace

Result<HostTensor> read_npy(const std::string& path) {
  GK_TRY(std::string data, read_file(path));
  return parse_npy(data, path);
}

Result<HostTensor> parse_npy(std::string_view data, const std::string& path) {
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
    return invalid_argument("{}: not a .npy file (bad magic)", path);
  const int major = static_cast<unsigned char>(data[6]);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12) return invalid_argument("{}: truncated .npy header", path);
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    return invalid_argument("{}: unsupported .npy version {}", path, major);
  }
  if (header_start + header_len > data.size()) return invalid_argument("{}: truncated .npy header", path);
  const std::string header(data.substr(header_start, header_len));
  const std::string descr = header_field(header, "descr");
  if (header_field(header, "fortran_order") == "True")
    return unimplemented("{}: Fortran-order .npy arrays are not supported", path);
  DType dtype = DType::kUndefined;
  for (const NpyType& t : kNpyTypes)
    if (descr == t.descr) dtype = t.dtype;
  if (dtype == DType::kUndefined) return unimplemented("{}: .npy dtype '{}' is not supported", path, descr);
  Shape shape;
  std::string dims = header_field(header, "shape");
  if (dims.size() < 2 || dims.front() != '(') return invalid_argument("{}: malformed .npy shape '{}'", path, dims);
  std::stringstream ss(dims.substr(1, dims.size() - 2));
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t p = item.find_first_not_of(' ');
    if (p == std::string::npos) continue;
    try {
      shape.push_back(std::stoll(item.substr(p)));
    } catch (...) {
      return invalid_argument("{}: malformed .npy shape '{}'", path, dims);
    }
  }
  GK_TRY(int64_t n, checked_numel(shape));
  const size_t bytes = dtype_storage_bytes(dtype, n);
  const size_t offset = header_start + header_len;
  if (data.size() - offset < bytes)
    return invalid_argument("{}: .npy data is {} bytes, shape {} of {} needs {}", path, data.size() - offset,
                            shape_str(shape), dtype_name(dtype), bytes);
  GK_TRY(HostTensor t, HostTensor::from_bytes(dtype, shape, data.data() + offset, bytes));
  return canonical_bools(std::move(t));
}

Status write_npy(const std::string& path, const HostTensor& tensor) {
  const char* descr = nullptr;
  for (const NpyType& t : kNpyTypes)
    if (t.dtype == tensor.dtype()) descr = t.descr;
  // NumPy has no bfloat16, float8, float4 or e8m0: they are written as float32
  // (every value exact); the packed 4-/2-bit integers as int8/uint8, one per byte.
  HostTensor widened;
  const HostTensor* out = &tensor;
  if (tensor.dtype() == DType::kBF16 || dtype_is_minifloat(tensor.dtype())) {
    std::vector<float> v(tensor.numel());
    for (int64_t i = 0; i < tensor.numel(); ++i) v[i] = static_cast<float>(tensor.as_f64(i));
    widened = HostTensor::from_vector(DType::kF32, tensor.shape(), v);
    out = &widened;
    descr = "<f4";
  } else if (dtype_is_packed_integer(tensor.dtype())) {
    const bool is_signed = tensor.dtype() == DType::kI4 || tensor.dtype() == DType::kI2;
    std::vector<int8_t> v(tensor.numel());
    for (int64_t i = 0; i < tensor.numel(); ++i) v[i] = static_cast<int8_t>(tensor.as_i64(i));
    widened = HostTensor::from_vector(is_signed ? DType::kI8 : DType::kU8, tensor.shape(), v);
    out = &widened;
    descr = is_signed ? "|i1" : "|u1";
  }
  if (!descr) return unimplemented("{}: cannot write {} as .npy", path, dtype_name(tensor.dtype()));
  std::string shape = "(";
  for (int64_t d : out->shape()) shape += std::to_string(d) + ",";
  if (out->shape().size() > 1) shape.pop_back();
  shape += ")";
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) return invalid_argument("{}: cannot write file", path);
  const char magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  f.write(magic, 8);
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.put(static_cast<char>(len & 0xff));
  f.put(static_cast<char>(len >> 8));
  f << header;
  f.write(static_cast<const char*>(out->raw()), static_cast<std::streamsize>(out->bytes()));
  if (!f) return invalid_argument("{}: write failed", path);
  return ok_status();
}

Result<HostTensor> read_tensor_file(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0) return read_npy(path);
  GK_TRY(std::string data, read_file(path));
  auto t = parse_tensor_proto(data.data(), data.size(), "");
  if (!t.ok()) return t.status().with_context(path);
  return t;
}

Result<HostTensor> tensor_from_f64(DType dtype, Shape shape, std::span<const double> values) {
  GK_TRY(HostTensor t, HostTensor::allocate(dtype, std::move(shape)));
  if (static_cast<size_t>(t.numel()) != values.size())
    return invalid_argument("tensor_from_f64: {} values for {} elements", values.size(), t.numel());
  if (!kit_detail::decodable(dtype))
    return invalid_argument("tensor_from_f64: cannot encode {}", dtype_name(dtype));
  kit_detail::encode_f64(dtype, values.data(), t.mutable_bytes(), t.numel());
  return t;
}

}  // namespace gk
