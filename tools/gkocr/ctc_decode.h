// CTC greedy decoding of the recogniser's per-step class probabilities, after
// PaddleOCR's CTCLabelDecode: argmax per step, merge repeats, drop the blank.
#pragma once

#include "backends/status.h"

#include <string>
#include <vector>

namespace gk::ocr {

// Class i's text: index 0 is the CTC blank, then one entry per dictionary line,
// then ' ' (PaddleOCR's use_space_char).
struct Charset {
  std::vector<std::string> symbols;
  size_t size() const { return symbols.size(); }
};

Result<Charset> load_charset(const std::string& dictionary_path);
Charset make_charset(const std::vector<std::string>& dictionary_lines);

// One emitted character and the run of time steps whose argmax it was. The
// recogniser's step t covers input columns [t, t + 1) * width / steps.
struct DecodedChar {
  int64_t symbol = 0;  // class index into Charset::symbols
  int64_t first_step = 0, last_step = 0;
};

struct Decoded {
  std::string text;             // the model's characters, concatenated
  float confidence = 0;         // mean of the kept steps' max probabilities; 0 when empty
  std::vector<DecodedChar> chars;
};

// probs: steps x classes, row-major. Classes beyond the charset are an error.
// A character's run ends at a blank or a different class; a repeat after a blank
// is a new character.
Result<Decoded> ctc_greedy_decode(const float* probs, int64_t steps, int64_t classes, const Charset& charset);

}  // namespace gk::ocr
