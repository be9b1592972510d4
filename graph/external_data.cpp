#include "graph/external_data.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gk {
namespace fs = std::filesystem;

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path, bool no_follow) {
  int flags = O_RDONLY | O_CLOEXEC | (no_follow ? O_NOFOLLOW : 0);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) return invalid_argument("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return invalid_argument("'{}' is not a regular file", path);
  }
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return resource_exhausted("cannot map '{}' ({} bytes): {}", path, f->size_, std::strerror(err));
    }
    f->data_ = static_cast<const uint8_t*>(p);
    f->mapped_ = true;
  }
  ::close(fd);  // the mapping keeps the file's pages reachable
  return std::shared_ptr<const MappedFile>(std::move(f));
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

namespace {

// A non-negative decimal integer, the whole string ("offset"/"length" values).
std::optional<uint64_t> parse_u64(const std::string& s) {
  uint64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || p != end) return std::nullopt;
  return v;
}

}  // namespace

Result<std::shared_ptr<const MappedFile>> ExternalDataFiles::map_confined(std::string_view tensor_name,
                                                                        const std::string& location) {
  auto fail = [&](std::string_view why) {
    return invalid_model("tensor '{}': external data '{}': {}", tensor_name, location, why);
  };
  if (base_dir_.empty())
    return fail("external data is not allowed here (model loaded from memory without a folder)");
  if (location.empty()) return fail("empty location");
  if (location.find('\0') != std::string::npos) return fail("location contains a NUL byte");
  fs::path rel(location);
  if (rel.is_absolute() || location.front() == '/')
    return fail("absolute paths are refused; the location must be relative to the model's folder");
  for (const fs::path& part : rel)
    if (part == "..") return fail("'..' components are refused; the file must be inside the model's folder");

  std::error_code ec;
  if (canonical_base_.empty()) {
    fs::path base = fs::canonical(base_dir_, ec);
    if (ec) return fail(fmt::format("cannot resolve the model folder '{}': {}", base_dir_, ec.message()));
    canonical_base_ = base.string();
  }
  // weakly_canonical resolves every symlink along the path, so a link anywhere in
  // it that points out of the folder is caught by the prefix test below.
  fs::path full = fs::weakly_canonical(fs::path(canonical_base_) / rel, ec);
  if (ec) return fail(fmt::format("cannot resolve the path: {}", ec.message()));
  std::string resolved = full.string();
  std::string prefix = canonical_base_ == "/" ? canonical_base_ : canonical_base_ + "/";
  if (resolved.compare(0, prefix.size(), prefix) != 0 || resolved.size() == prefix.size())
    return fail(fmt::format("resolves to '{}', outside the model's folder '{}'", resolved, canonical_base_));

  auto it = files_.find(resolved);
  if (it != files_.end()) return it->second;
  if (!fs::exists(full, ec)) return fail("file not found");
  auto mapped = MappedFile::open(resolved, /*no_follow=*/true);
  if (!mapped.ok()) return fail(mapped.status().message());
  files_.emplace(resolved, mapped.value());
  return mapped.value();
}

Result<HostTensor> ExternalDataFiles::load(std::string_view tensor_name, DType dtype, const Shape& shape,
                                           const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string location;
  std::optional<uint64_t> offset, length;
  bool has_location = false;
  for (const auto& entry : entries) {
    // Named, not structured bindings: clang 14 (the sanitizer build) cannot capture those.
    const std::string& key = entry.first;
    const std::string& value = entry.second;
    auto number = [&](std::optional<uint64_t>& out) -> Status {
      out = parse_u64(value);
      if (!out)
        return invalid_model("tensor '{}': external data {} '{}' is not a non-negative integer",
                             tensor_name, key, value);
      return ok_status();
    };
    if (key == "location") {
      location = value;
      has_location = true;
    } else if (key == "offset") {
      GK_RETURN_IF_ERROR(number(offset));
    } else if (key == "length") {
      GK_RETURN_IF_ERROR(number(length));
    }
    // "checksum" (SHA1) is not verified: confinement and the size checks below are
    // what keep reads in bounds. Unknown keys are ignored, as ONNX does.
  }
  if (!has_location) return invalid_model("tensor '{}': external data has no 'location' entry", tensor_name);
  if (dtype == DType::kString)
    return invalid_model("tensor '{}': external data '{}': string tensors cannot be stored externally",
                         tensor_name, location);
  auto numel = checked_numel(shape);
  if (!numel.ok())
    return invalid_model("tensor '{}': {}", tensor_name, numel.status().message());
  // dtype_storage_bytes multiplies by the bit width; keep that product in range.
  if (static_cast<uint64_t>(*numel) > SIZE_MAX / 64)
    return invalid_model("tensor '{}': {} elements do not fit in memory", tensor_name, *numel);
  size_t need = dtype_storage_bytes(dtype, *numel);

  GK_TRY(std::shared_ptr<const MappedFile> file, map_confined(tensor_name, location));
  uint64_t off = offset.value_or(0);
  auto fail = [&](std::string why) {
    return invalid_model("tensor '{}': external data '{}': {}", tensor_name, location, why);
  };
  if (length && *length != need)
    return fail(fmt::format("length {} does not match the tensor's {} bytes ({} {})", *length, need,
                            dtype_name(dtype), shape_str(shape)));
  if (off > file->size())
    return fail(fmt::format("offset {} is past the end of the file ({} bytes)", off, file->size()));
  if (need > file->size() - off)
    return fail(fmt::format("{} bytes at offset {} run past the end of the file ({} bytes)", need, off,
                            file->size()));
  if (need == 0) return HostTensor::allocate(dtype, shape);

  const uint8_t* p = file->data() + off;
  size_t align = std::max(1, dtype_bits(dtype) / 8);
  // The spec asks for page-aligned offsets but does not require them; a misaligned
  // tensor is copied so kernels never read an unaligned element.
  if (reinterpret_cast<uintptr_t>(p) % align != 0) return HostTensor::from_bytes(dtype, shape, p, need);
  return HostTensor::borrow(dtype, shape, std::shared_ptr<const void>(file, file->data()), p, need);
}

}  // namespace gk
