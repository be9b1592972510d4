// Where the tests find data that is not in the repository.
#pragma once

#include "tests/support/skip.h"

#include <filesystem>
#include <string>

namespace gk::test {

// The ONNX backend test data (node/, pytorch-converted/, light/ ...), beside the
// checkout: <source>/../shared/onnx-backend-data.
inline const std::filesystem::path kData =
    std::filesystem::path(GK_SOURCE_DIR) / ".." / "shared" / "onnx-backend-data";

// Skips the case when `path` is absent; `what` says what it is and how to get it.
inline void skip_unless_exists(const std::filesystem::path& path, const std::string& what = "") {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) skip(path.string() + " absent" + (what.empty() ? "" : " (" + what + ")"));
}

}  // namespace gk::test
