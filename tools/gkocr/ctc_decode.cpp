#include "tools/gkocr/ctc_decode.h"

#include <fstream>

namespace gk::ocr {

Charset make_charset(const std::vector<std::string>& lines) {
  Charset c;
  c.symbols.reserve(lines.size() + 2);
  c.symbols.emplace_back();  // blank
  c.symbols.insert(c.symbols.end(), lines.begin(), lines.end());
  c.symbols.emplace_back(" ");
  return c;
}

Result<Charset> load_charset(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("{}: cannot open the recogniser's dictionary", path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (lines.empty()) return invalid_argument("{}: empty dictionary", path);
  return make_charset(lines);
}

Result<Decoded> ctc_greedy_decode(const float* probs, int64_t steps, int64_t classes, const Charset& charset) {
  if (classes != static_cast<int64_t>(charset.size()))
    return invalid_argument("recogniser has {} classes but the dictionary gives {} (blank + {} lines + space)",
                            classes, charset.size(), charset.size() - 2);
  Decoded out;
  double sum = 0;
  int64_t kept = 0;
  int64_t previous = -1;
  for (int64_t t = 0; t < steps; ++t) {
    const float* row = probs + t * classes;
    int64_t best = 0;
    for (int64_t k = 1; k < classes; ++k)
      if (row[k] > row[best]) best = k;
    if (best != 0 && best != previous) {
      out.text += charset.symbols[best];
      out.chars.push_back(DecodedChar{best, t, t});
      sum += row[best];
      ++kept;
    } else if (best != 0) {
      out.chars.back().last_step = t;
    }
    previous = best;
  }
  out.confidence = kept ? static_cast<float>(sum / kept) : 0.0f;
  return out;
}

}  // namespace gk::ocr
