#include "backends/cuda/module_cache.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

namespace gk::cuda {
namespace {

namespace fs = std::filesystem;

// File layout: magic (format version in its last byte), four u32 lengths/flags,
// u64 image length, u64 FNV-1a checksum of everything after the header, then
// key, lowered name, target and image bytes. Native byte order: the cache is
// per machine.
constexpr char kMagic[8] = {'G', 'K', 'M', 'O', 'D', 0, 0, 1};
struct Header {
  char magic[8];
  uint32_t key_len;
  uint32_t lowered_len;
  uint32_t target_len;
  uint32_t flags;  // bit 0: CUBIN
  uint64_t image_len;
  uint64_t checksum;
};
static_assert(sizeof(Header) == 40);

uint64_t checksum_of(std::string_view a, std::string_view b, std::string_view c, std::string_view d) {
  uint64_t h = 1469598103934665603ull;
  for (std::string_view part : {a, b, c, d})
    for (unsigned char ch : part) {
      h ^= ch;
      h *= 1099511628211ull;
    }
  return h;
}

std::string safe_name(std::string_view name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out.substr(0, 48);
}

}  // namespace

ModuleCache::ModuleCache(fs::path dir) : dir_(std::move(dir)) {}

fs::path ModuleCache::default_dir() {
  if (const char* env = std::getenv("GK_KERNEL_CACHE"); env && *env)
    return std::string_view(env) == "off" ? fs::path() : fs::path(env);
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "gkrun" / "kernels";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "gkrun" / "kernels";
  return {};
}

Result<std::string> ModuleCache::key(const KernelSource& source, std::string_view entry,
                                     const NvrtcOptions& options) const {
  GK_TRY(auto version, nvrtc_version());
  return fmt::format("{}|{:016x}|{}|{}|sm_{}{}|{}|nvrtc{}.{}", source.name, source.hash, source.text.size(),
                     entry, options.cc_major, options.cc_minor, options.want_cubin ? "cubin" : "ptx",
                     version.first, version.second);
}

Result<fs::path> ModuleCache::entry_path(const KernelSource& source, std::string_view entry,
                                         const NvrtcOptions& options) const {
  if (dir_.empty()) return fs::path();
  GK_TRY(std::string k, key(source, entry, options));
  return dir_ / fmt::format("{}-{:016x}.gkmod", safe_name(source.name), fnv1a64(k));
}

bool ModuleCache::read(const fs::path& path, const std::string& key, CachedModule& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;  // absent: the ordinary miss
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Header h{};
  bool valid = bytes.size() >= sizeof(Header);
  if (valid) {
    std::memcpy(&h, bytes.data(), sizeof(Header));
    const uint64_t body = uint64_t{h.key_len} + h.lowered_len + h.target_len + h.image_len;
    valid = std::memcmp(h.magic, kMagic, sizeof(kMagic)) == 0 && h.image_len <= bytes.size() &&
            body == bytes.size() - sizeof(Header);
  }
  if (valid) {
    std::string_view all(bytes);
    size_t at = sizeof(Header);
    auto take = [&](uint64_t n) {
      std::string_view part = all.substr(at, n);
      at += n;
      return part;
    };
    std::string_view k = take(h.key_len), lowered = take(h.lowered_len), target = take(h.target_len),
                     image = take(h.image_len);
    valid = k == key && checksum_of(k, lowered, target, image) == h.checksum && !image.empty() &&
            !lowered.empty();
    if (valid) {
      out.image.assign(image);
      out.lowered_name.assign(lowered);
      out.target.assign(target);
      out.is_cubin = (h.flags & 1u) != 0;
      return true;
    }
  }
  // Corrupt, truncated, or a different key with the same file name: never trusted.
  std::error_code ec;
  fs::remove(path, ec);
  std::lock_guard lock(mutex_);
  ++rejected_;
  return false;
}

void ModuleCache::write(const fs::path& path, const std::string& key, const CachedModule& m) {
  // The disk cache is an optimisation: a directory we cannot write only costs
  // the next start a compile, so failures here are dropped.
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return;
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.key_len = static_cast<uint32_t>(key.size());
  h.lowered_len = static_cast<uint32_t>(m.lowered_name.size());
  h.target_len = static_cast<uint32_t>(m.target.size());
  h.flags = m.is_cubin ? 1u : 0u;
  h.image_len = m.image.size();
  h.checksum = checksum_of(key, m.lowered_name, m.target, m.image);
  static std::atomic<uint64_t> counter{0};
  fs::path tmp = path;
  tmp += fmt::format(".tmp.{}.{}", static_cast<long>(getpid()), counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&h), sizeof(h));
    for (const std::string* part : {&key, &m.lowered_name, &m.target, &m.image})
      out.write(part->data(), static_cast<std::streamsize>(part->size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
}

Result<CachedModule> ModuleCache::get(const KernelSource& source, std::string_view entry,
                                      const NvrtcOptions& options) {
  GK_TRY(std::string k, key(source, entry, options));
  GK_TRY(fs::path path, entry_path(source, entry, options));
  CachedModule m;
  if (!path.empty() && read(path, k, m)) {
    std::lock_guard lock(mutex_);
    ++stats_.disk_hits;
    return m;
  }
  GK_TRY(NvrtcImage image, nvrtc_compile(source, {std::string(entry)}, options));
  {
    std::lock_guard lock(mutex_);
    ++stats_.compiles;
  }
  m.image = std::move(image.image);
  m.is_cubin = image.is_cubin;
  m.lowered_name = std::move(image.lowered_names.front());
  m.target = std::move(image.target);
  if (!path.empty()) write(path, k, m);
  return m;
}

void ModuleCache::note_memory_hit() {
  std::lock_guard lock(mutex_);
  ++stats_.memory_hits;
}

CompileStats ModuleCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

int64_t ModuleCache::rejected() const {
  std::lock_guard lock(mutex_);
  return rejected_;
}

}  // namespace gk::cuda
