#include "tools/gkrun/json.h"

namespace gk::cli {

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
  }
  return out;
}

void JsonWriter::separator(std::string_view key) {
  if (!first_) out_ += ',';
  first_ = false;
  if (!key.empty()) out_ += "\"" + json_escape(key) + "\":";
}

JsonWriter& JsonWriter::raw(std::string_view key, std::string_view json) {
  separator(key);
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::open(std::string_view key, char c) {
  separator(key);
  out_ += c;
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  out_ += c;
  first_ = false;
  return *this;
}

}  // namespace gk::cli
