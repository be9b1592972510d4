// Files the loader reads: the model itself and its external-data files, memory
// mapped read-only. External-data paths are confined to the model's folder
// (CVE-2022-25882 was exactly this hole in libonnx's checker).
#pragma once

#include "backends/status.h"
#include "runtime/kit/host_tensor.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gk {

// A whole file mapped read-only; the mapping lives as long as the last owner.
class MappedFile {
 public:
  // A regular file only. `no_follow` refuses a final-component symlink at open
  // time, so a path swapped for a link after it was checked is not followed.
  static Result<std::shared_ptr<const MappedFile>> open(const std::string& path,
                                                        bool no_follow = false);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

// Resolves TensorProto.external_data entries against one model folder, mapping
// each file once.
class ExternalDataFiles {
 public:
  // base_dir "" forbids external data (models loaded from memory without a folder).
  explicit ExternalDataFiles(std::string base_dir) : base_dir_(std::move(base_dir)) {}

  // The tensor `tensor_name` of `dtype`/`shape` whose bytes are described by the
  // key/value `entries` (location, offset, length, checksum). Borrows the mapping
  // when the bytes are aligned for the element type, else copies.
  Result<HostTensor> load(std::string_view tensor_name, DType dtype, const Shape& shape,
                          const std::vector<std::pair<std::string, std::string>>& entries);

 private:
  Result<std::shared_ptr<const MappedFile>> map_confined(std::string_view tensor_name,
                                                         const std::string& location);

  std::string base_dir_;
  std::string canonical_base_;  // resolved on first use
  std::map<std::string, std::shared_ptr<const MappedFile>> files_;
};

}  // namespace gk
