// Force-included (-include) into the tests only by clang older than 15 with
// libstdc++ 12 (the fuzz/ASan build on Debian 12): that pair has no
// std::source_location (libstdc++'s needs __builtin_source_location, which clang
// 15 added), and tests/support/errors.h uses it. Provides the four members the
// tests use, from the __builtin_FILE/LINE both compilers have. Not used by GCC.
#pragma once

#include <version>

#if !defined(__cpp_lib_source_location)
namespace std {
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(),
                                           const char* function = __builtin_FUNCTION(),
                                           unsigned line = __builtin_LINE()) noexcept {
    source_location l;
    l.file_ = file;
    l.function_ = function;
    l.line_ = line;
    return l;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return 0; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  unsigned line_ = 0;
};
}  // namespace std
#endif
