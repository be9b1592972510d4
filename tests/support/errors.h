// require_error(status_or_result, code, substring): the one way a test asserts an
// error. It requires the error, checks its code and that its message contains
// `substring` (STYLE.md 9: tests assert the code and a substring), and prints the
// actual code and message, and the caller's line, when any of that fails.
#pragma once

#include "backends/status.h"

#include <catch2/catch.hpp>

#include <source_location>
#include <string>
#include <string_view>

namespace gk::test {

inline void require_error(const Status& s, StatusCode code, std::string_view substring,
                          std::source_location at = std::source_location::current()) {
  INFO("require_error at " << at.file_name() << ":" << at.line() << "; got "
                           << (s.ok() ? std::string("OK") : s.to_string()));
  REQUIRE_FALSE(s.ok());
  CHECK(std::string(status_code_name(s.code())) == status_code_name(code));
  CHECK_THAT(s.message(), Catch::Contains(std::string(substring)));
}

template <typename T>
void require_error(const Result<T>& r, StatusCode code, std::string_view substring,
                   std::source_location at = std::source_location::current()) {
  require_error(r.ok() ? Status() : r.status(), code, substring, at);
}

}  // namespace gk::test
