// A minimal JSON writer for the CLI's --json output (one object on stdout).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>

namespace gk::cli {

std::string json_escape(std::string_view s);

class JsonWriter {
 public:
  JsonWriter& begin_object(std::string_view key = {}) { return open(key, '{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array(std::string_view key = {}) { return open(key, '['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& field(std::string_view key, std::string_view v) { return raw(key, "\"" + json_escape(v) + "\""); }
  JsonWriter& field(std::string_view key, const char* v) { return field(key, std::string_view(v)); }
  JsonWriter& field(std::string_view key, const std::string& v) { return field(key, std::string_view(v)); }
  JsonWriter& field(std::string_view key, double v) {
    return raw(key, std::isfinite(v) ? fmt::format("{}", v) : std::string("null"));
  }
  JsonWriter& field(std::string_view key, int64_t v) { return raw(key, std::to_string(v)); }
  JsonWriter& field(std::string_view key, int v) { return raw(key, std::to_string(v)); }
  JsonWriter& field(std::string_view key, size_t v) { return raw(key, std::to_string(v)); }
  JsonWriter& field(std::string_view key, bool v) { return raw(key, v ? "true" : "false"); }
  // A pre-rendered JSON value.
  JsonWriter& raw(std::string_view key, std::string_view json);
  const std::string& str() const { return out_; }

 private:
  JsonWriter& open(std::string_view key, char c);
  JsonWriter& close(char c);
  void separator(std::string_view key);
  std::string out_;
  bool first_ = true;
};

}  // namespace gk::cli
