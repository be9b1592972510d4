#include "tools/gkocr/word_gaps.h"

#include <algorithm>
#include <cmath>

namespace gk::ocr {
namespace {

// 0.2 on the (x/255 - 0.5) / 0.5 scale is 26 grey levels: below it the crop is
// flat or noise, untuned.
constexpr float kMinContrast = 0.2f;

float at_fraction(std::vector<float> v, double q) {
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

bool is_space(const std::string& s) { return s == " " || s == "\xE3\x80\x80"; }  // U+3000

}  // namespace

std::vector<uint8_t> ink_columns(const float* chw, int height, int width, int used) {
  used = std::clamp(used, 0, width);
  if (used == 0 || height < 1) return {};
  const int64_t plane = static_cast<int64_t>(height) * width;
  std::vector<float> grey(static_cast<size_t>(height) * used);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < used; ++x) {
      const int64_t i = static_cast<int64_t>(y) * width + x;
      grey[static_cast<size_t>(y) * used + x] = (chw[i] + chw[plane + i] + chw[2 * plane + i]) / 3;
    }
  std::vector<float> frame;
  for (int x = 0; x < used; ++x) frame.push_back(grey[x]), frame.push_back(grey[static_cast<size_t>(height - 1) * used + x]);
  for (int y = 0; y < height; ++y)
    frame.push_back(grey[static_cast<size_t>(y) * used]), frame.push_back(grey[static_cast<size_t>(y) * used + used - 1]);
  const float background = at_fraction(frame, 0.5);
  const float low = at_fraction(grey, 0.01), high = at_fraction(grey, 0.99);
  const float far = std::abs(low - background) > std::abs(high - background) ? low : high;
  const float contrast = far - background;
  std::vector<uint8_t> ink(used, 1);
  if (std::abs(contrast) < kMinContrast) return ink;
  for (int x = 0; x < used; ++x) {
    bool any = false;
    for (int y = 0; y < height && !any; ++y)
      any = (grey[static_cast<size_t>(y) * used + x] - background) * contrast > 0.5f * contrast * contrast;
    ink[x] = any ? 1 : 0;
  }
  return ink;
}

std::string space_words(const Decoded& d, const Charset& charset, const LineEvidence& line,
                        const WordGapOptions& options) {
  if (!options.enabled) return d.text;
  const int64_t columns = static_cast<int64_t>(line.ink.size());
  const auto column = [&](int64_t step) {
    return std::clamp<int64_t>(std::llround((static_cast<double>(step) + 0.5) * line.px_per_step), 0, columns);
  };
  // gaps[i]: the widest ink-free run before character i, in pixels, for every
  // character after the first that is not a space; -1 where the model's own space
  // separates it from the previous character or it is a space itself.
  std::vector<int64_t> gaps(d.chars.size(), -1);
  std::vector<int64_t> widths;
  int64_t previous = -1;  // the last character that is not a space
  bool space_between = false;
  for (size_t i = 0; i < d.chars.size(); ++i) {
    if (is_space(charset.symbols[d.chars[i].symbol])) {
      space_between = true;
      continue;
    }
    if (previous >= 0) {
      int64_t run = 0, widest = 0;
      for (int64_t x = column(d.chars[previous].last_step), end = column(d.chars[i].first_step); x < end; ++x) {
        run = line.ink[x] ? 0 : run + 1;
        widest = std::max(widest, run);
      }
      widths.push_back(widest);
      if (!space_between) gaps[i] = widest;
    }
    previous = static_cast<int64_t>(i);
    space_between = false;
  }
  double median = 0;
  if (!widths.empty()) {
    std::nth_element(widths.begin(), widths.begin() + widths.size() / 2, widths.end());
    median = static_cast<double>(widths[widths.size() / 2]);
  }

  const int64_t space_class = line.classes - 1;
  std::string out;
  for (size_t i = 0; i < d.chars.size(); ++i) {
    if (gaps[i] >= 0) {
      const double gap = static_cast<double>(gaps[i]) / line.height;
      float space_prob = 0;
      for (int64_t t = d.chars[i - 1].last_step + 1; t < d.chars[i].first_step && t < line.steps; ++t)
        space_prob = std::max(space_prob, line.probs[t * line.classes + space_class]);
      const bool relative = gap >= options.relative_gap &&
                            static_cast<double>(gaps[i]) >= options.relative_factor * std::max(median, 1.0);
      if (gap >= options.sure_gap ||
          (gap >= options.min_gap && (space_prob >= options.min_space_prob || relative)))
        out += ' ';
    }
    out += charset.symbols[d.chars[i].symbol];
  }
  return out;
}

}  // namespace gk::ocr
