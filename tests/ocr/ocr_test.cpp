// Unit tests of gkocr's modules against hand-computed values: DB post-processing
// (regions, hull, minimum-area box, unclip, score, mapping), CTC decoding, the
// word-gap spacing, the perspective warp and the model input builders.
#include "tools/gkocr/crop.h"
#include "tools/gkocr/ctc_decode.h"
#include "tools/gkocr/db_postprocess.h"
#include "tools/gkocr/preprocess.h"
#include "tools/gkocr/word_gaps.h"
#include "tests/ocr/point_check.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace gk::ocr {
namespace {

TEST_CASE("connected_regions: 8-connected blobs", "[ocr]") {
  // Two blobs; the diagonal pair (3,0)-(4,1) joins, (0,3) stands alone.
  const uint8_t mask[4 * 5] = {
      1, 1, 0, 1, 0,  //
      0, 1, 0, 0, 1,  //
      0, 0, 0, 0, 1,  //
      1, 0, 0, 0, 0,
  };
  auto regions = connected_regions(mask, 5, 4);
  REQUIRE(regions.size() == 3);
  CHECK(regions[0].size() == 3);  // (0,0) (1,0) (1,1)
  CHECK(regions[1].size() == 3);  // (3,0) (4,1) (4,2)
  CHECK(regions[2].size() == 1);  // (0,3)
}

TEST_CASE("min_area_box: a rectangle rotated by 30 degrees", "[ocr]") {
  // 40 x 10 centred at (50, 50), long side along 30 degrees; interior points too.
  const float c = std::cos(static_cast<float>(M_PI) / 6), s = std::sin(static_cast<float>(M_PI) / 6);
  auto at = [&](float u, float v) { return Point{50 + u * c - v * s, 50 + u * s + v * c}; };
  std::vector<Point> pts = {at(-20, -5), at(20, -5), at(20, 5), at(-20, 5)};
  for (int i = -18; i <= 18; i += 6)
    for (int j = -4; j <= 4; j += 2) pts.push_back(at(static_cast<float>(i), static_cast<float>(j)));
  const std::vector<Point> hull = convex_hull(pts);
  CHECK(hull.size() == 4);
  float side = 0;
  const Quad q = min_area_box(hull, &side);
  CHECK(side == Approx(10).margin(1e-3));
  // get_mini_boxes order: by x, upper-left first, then upper-right, lower-right, lower-left.
  const Point tl = at(-20, -5), bl = at(-20, 5), tr = at(20, -5), br = at(20, 5);
  // x: bl 30.18, tl 35.18, br 64.82, tr 69.82; tl is the upper of the two leftmost.
  check_point(q[0], tl.x, tl.y);
  check_point(q[1], tr.x, tr.y);
  check_point(q[2], br.x, br.y);
  check_point(q[3], bl.x, bl.y);
}

TEST_CASE("unclip: a rectangle grows by area * ratio / perimeter on every side", "[ocr]") {
  // 100 x 20: area 2000, perimeter 240, ratio 1.5 -> d = 12.5.
  const Quad box = {Point{0, 0}, Point{100, 0}, Point{100, 20}, Point{0, 20}};
  const std::vector<Point> grown = unclip(box, 1.5f);
  REQUIRE(grown.size() == 4);
  check_point(grown[0], -12.5f, -12.5f);
  check_point(grown[1], 112.5f, -12.5f);
  check_point(grown[2], 112.5f, 32.5f);
  check_point(grown[3], -12.5f, 32.5f);
  CHECK(polygon_area(grown) == Approx(125 * 45));
  // The other winding grows outward too.
  const Quad ccw = {Point{0, 0}, Point{0, 20}, Point{100, 20}, Point{100, 0}};
  CHECK(polygon_area(unclip(ccw, 1.5f)) == Approx(125 * 45));
}

TEST_CASE("box_score: mean probability inside the polygon", "[ocr]") {
  std::vector<float> prob(20 * 10, 0.0f);
  for (int y = 2; y <= 5; ++y)
    for (int x = 3; x <= 12; ++x) prob[y * 20 + x] = 0.8f;
  prob[3 * 20 + 5] = 0.4f;
  // Pixels 3..12 x 2..5: 40 pixels, one of them 0.4.
  const Quad box = {Point{3, 2}, Point{12, 2}, Point{12, 5}, Point{3, 5}};
  CHECK(box_score(prob.data(), 20, 10, box) == Approx((39 * 0.8 + 0.4) / 40));
}

TEST_CASE("db_boxes: one region mapped back to image coordinates", "[ocr]") {
  // Region x 10..49, y 20..29 of a 64x64 map: box 39 x 9 (pixel centres),
  // d = 351 * 1.5 / 96 = 5.484375 -> x 4.515625..54.484375, y 14.515625..34.484375;
  // the image is twice the map: rounded to (9, 29) .. (109, 69).
  std::vector<float> prob(64 * 64, 0.1f);
  for (int y = 20; y <= 29; ++y)
    for (int x = 10; x <= 49; ++x) prob[y * 64 + x] = 0.9f;
  // A speck below min_size and a faint region below box_thresh are both dropped.
  prob[50 * 64 + 50] = 0.9f;
  for (int y = 40; y <= 49; ++y)
    for (int x = 5; x <= 30; ++x) prob[y * 64 + x] = 0.4f;
  const std::vector<DetBox> boxes = db_boxes(prob.data(), 64, 64, 128, 128);
  REQUIRE(boxes.size() == 1);
  CHECK(boxes[0].score == Approx(0.9f));
  check_point(boxes[0].box[0], 9, 29);
  check_point(boxes[0].box[1], 109, 29);
  check_point(boxes[0].box[2], 109, 69);
  check_point(boxes[0].box[3], 9, 69);
}

TEST_CASE("db_boxes: height_scale is the box's height at the reference unclip ratio over its own", "[ocr]") {
  // The region of the test above: kernel 39 x 9, d = 351 * r / 96; the short side
  // is 9 + 2 d: 19.96875 at r = 1.5, 23.625 at r = 2.
  std::vector<float> prob(64 * 64, 0.1f);
  for (int y = 20; y <= 29; ++y)
    for (int x = 10; x <= 49; ++x) prob[y * 64 + x] = 0.9f;
  DbOptions o;
  REQUIRE(db_boxes(prob.data(), 64, 64, 128, 128, o).at(0).height_scale == Approx(1.0f));
  o.unclip_ratio = 2.0f;
  const std::vector<DetBox> boxes = db_boxes(prob.data(), 64, 64, 128, 128, o);
  REQUIRE(boxes.size() == 1);
  CHECK(boxes[0].height_scale == Approx(19.96875 / 23.625).epsilon(1e-4));
}

TEST_CASE("sort_reading_order: rows top to bottom, left to right within 10 px", "[ocr]") {
  auto box_at = [](float x, float y) { return DetBox{Quad{Point{x, y}, Point{x + 50, y}, Point{x + 50, y + 20}, Point{x, y + 20}}, 1}; };
  std::vector<DetBox> boxes = {box_at(300, 52), box_at(20, 100), box_at(20, 55), box_at(300, 104)};
  sort_reading_order(boxes);
  check_point(boxes[0].box[0], 20, 55);
  check_point(boxes[1].box[0], 300, 52);
  check_point(boxes[2].box[0], 20, 100);
  check_point(boxes[3].box[0], 300, 104);
}

TEST_CASE("ctc_greedy_decode: merge repeats, drop blanks, mean confidence", "[ocr]") {
  const Charset cs = make_charset({"a", "b"});  // blank, a, b, ' '
  REQUIRE(cs.size() == 4);
  // Steps' argmax: a(.9) a(.8) blank a(.7) b(.6) ' '(.5) ' '(.55) -> "aab ".
  const float probs[7][4] = {
      {0.05f, 0.9f, 0.03f, 0.02f}, {0.1f, 0.8f, 0.05f, 0.05f}, {0.7f, 0.1f, 0.1f, 0.1f}, {0.1f, 0.7f, 0.1f, 0.1f},
      {0.2f, 0.1f, 0.6f, 0.1f},    {0.3f, 0.1f, 0.1f, 0.5f},   {0.25f, 0.1f, 0.1f, 0.55f},
  };
  auto d = ctc_greedy_decode(&probs[0][0], 7, 4, cs);
  REQUIRE(d.ok());
  CHECK(d->text == "aab ");
  CHECK(d->confidence == Approx((0.9 + 0.7 + 0.6 + 0.5) / 4));
  // Each character keeps the run of steps it won: a 0-1, a 3, b 4, ' ' 5-6.
  REQUIRE(d->chars.size() == 4);
  const int64_t runs[4][3] = {{1, 0, 1}, {1, 3, 3}, {2, 4, 4}, {3, 5, 6}};
  for (int i = 0; i < 4; ++i) {
    CHECK(d->chars[i].symbol == runs[i][0]);
    CHECK(d->chars[i].first_step == runs[i][1]);
    CHECK(d->chars[i].last_step == runs[i][2]);
  }
  auto blank = ctc_greedy_decode(&probs[2][0], 1, 4, cs);
  REQUIRE(blank.ok());
  CHECK(blank->text.empty());
  CHECK(blank->confidence == 0);
  auto wrong = ctc_greedy_decode(&probs[0][0], 7, 4, make_charset({"a"}));
  gk::test::require_error(wrong, StatusCode::kInvalidArgument, "4 classes");
}

// A synthetic recogniser line at the real geometry (8 input columns per step,
// height 48): `classes_at[t]` is step t's argmax (0 blank) with probability 0.9,
// `space_at` steps give the space class 0.3 under a 0.6 blank, and `glyphs` are the
// [begin, end) column ranges that hold ink.
struct SynthLine {
  Charset charset = make_charset({"a", "b", "\xE4\xB8\xAD", "\xE6\x96\x87"});  // blank a b 中 文 ' '
  int64_t steps = 0, classes = 6;
  std::vector<float> probs;
  LineEvidence evidence;

  SynthLine(const std::vector<int>& classes_at, const std::vector<std::pair<int, int>>& glyphs,
            const std::vector<int>& space_at = {}) {
    steps = static_cast<int64_t>(classes_at.size());
    probs.assign(steps * classes, 0.02f);
    for (int64_t t = 0; t < steps; ++t) probs[t * classes + classes_at[t]] = 0.9f;
    for (int t : space_at) probs[t * classes + 0] = 0.6f, probs[t * classes + 5] = 0.3f;
    evidence.probs = probs.data();
    evidence.steps = steps;
    evidence.classes = classes;
    evidence.ink.assign(steps * 8, 0);
    for (auto [begin, end] : glyphs)
      for (int x = begin; x < end; ++x) evidence.ink[x] = 1;
    evidence.px_per_step = 8;
    evidence.height = 48;
  }
  std::string text(const WordGapOptions& options = {}) const {
    auto d = ctc_greedy_decode(probs.data(), steps, classes, charset);
    REQUIRE(d.ok());
    return space_words(*d, charset, evidence, options);
  }
};

TEST_CASE("space_words: a word-wide ink-free gap becomes a space, a letter gap does not", "[ocr]") {
  // Step centres are at 8t + 4. a at step 1 (ink 10-13), b at step 6 (ink 50-53):
  // columns 14..49 are free, 36 px = 0.75 of the height >= sure_gap. Blank steps and
  // free columns before the first and after the last character add nothing.
  const SynthLine wide({0, 1, 0, 0, 0, 0, 2, 0, 0, 0}, {{10, 14}, {50, 54}});
  CHECK(wide.text() == "a b");
  WordGapOptions off;
  off.enabled = false;
  CHECK(wide.text(off) == "ab");
  // b at step 3 with ink 26-29: 12 free columns = 0.25 of the height, below
  // relative_gap and without the space class: no space.
  CHECK(SynthLine({0, 1, 0, 2, 0}, {{10, 14}, {26, 30}}).text() == "ab");
  // 4 free columns (0.08) are a letter gap even where the space class shows 0.3.
  CHECK(SynthLine({0, 1, 0, 2, 0}, {{10, 14}, {18, 30}}, {2}).text() == "ab");
}

TEST_CASE("space_words: a middling gap needs the space class or the line's own spacing", "[ocr]") {
  // a at step 1 (ink 10-13), b at step 4 (ink 30-37): 16 free columns = 0.33 of the
  // height, between min_gap and relative_gap.
  const std::vector<int> steps = {0, 1, 0, 0, 2, 0};
  const std::vector<std::pair<int, int>> glyphs = {{10, 14}, {30, 38}};
  CHECK(SynthLine(steps, glyphs).text() == "ab");
  CHECK(SynthLine(steps, glyphs, {2}).text() == "a b");  // space class 0.3 >= 0.1
  // 20 free columns (0.42 >= relative_gap) after letters 4 px apart (glyph t at
  // 8t + 2 .. 8t + 5): the median gap is 4, 20 >= 2 x 4.
  CHECK(SynthLine({0, 1, 2, 1, 2, 1, 0, 0, 2, 0}, {{10, 14}, {18, 22}, {26, 30}, {34, 38}, {42, 46}, {66, 70}}).text() ==
        "ababa b");
  // The same 20 columns where the letters stand 12 apart (median 12, 20 < 24): no space.
  CHECK(SynthLine({0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0, 0, 2, 0},
                  {{10, 14}, {26, 30}, {42, 46}, {58, 62}, {74, 78}, {98, 102}})
            .text() == "ababab");
}

TEST_CASE("space_words: the model's own space is kept, never doubled", "[ocr]") {
  // a, ' ' (steps 3-4), b over 36 free columns: one space.
  const SynthLine line({0, 1, 0, 5, 5, 0, 2, 0}, {{10, 14}, {50, 54}});
  CHECK(line.text() == "a b");
  WordGapOptions off;
  off.enabled = false;
  CHECK(line.text(off) == "a b");
  // A leading and a trailing space the model emitted stay as they are.
  CHECK(SynthLine({5, 0, 1, 0, 0, 0, 0, 2, 0, 5}, {{18, 22}, {58, 62}}).text() == " a b ");
}

TEST_CASE("space_words: CJK characters stay together", "[ocr]") {
  // Three 36-px ideographs (a run of two steps each) 4 px apart, the middle one
  // with a 10-px ink-free stroke gap inside (0.21 of the height, like 川).
  const SynthLine line({0, 3, 3, 0, 0, 4, 4, 0, 0, 3, 3, 0, 0, 0, 0},
                       {{2, 38}, {42, 55}, {65, 78}, {82, 118}});
  CHECK(line.text() == "\xE4\xB8\xAD\xE6\x96\x87\xE4\xB8\xAD");
}

// A 3 x 48 x `width` recogniser slot filled with `background`, strokes of `ink`.
std::vector<float> slot(int width, float background, float ink, const std::vector<std::pair<int, int>>& strokes) {
  std::vector<float> chw(3 * 48 * width, background);
  for (int c = 0; c < 3; ++c)
    for (auto [begin, end] : strokes)
      for (int y = 10; y < 30; ++y)
        for (int x = begin; x < end; ++x) chw[(c * 48 + y) * width + x] = ink;
  return chw;
}

TEST_CASE("ink_columns: dark on light, light on dark, flat, padding ignored", "[ocr]") {
  const std::vector<std::pair<int, int>> strokes = {{5, 10}, {20, 21}};
  std::vector<uint8_t> want(32, 0);
  for (int x : {5, 6, 7, 8, 9, 20}) want[x] = 1;
  // Columns 32..39 are the batch's padding (0) and are not looked at.
  std::vector<float> dark = slot(40, 1.0f, -1.0f, strokes);
  for (int y = 0; y < 48; ++y)
    for (int x = 32; x < 40; ++x) dark[y * 40 + x] = dark[(48 + y) * 40 + x] = dark[(96 + y) * 40 + x] = 0.0f;
  CHECK(ink_columns(dark.data(), 48, 40, 32) == want);
  CHECK(ink_columns(slot(32, -0.8f, 1.0f, strokes).data(), 48, 32, 32) == want);
  // Antialiased edge: a column at 0.3 of the way to the ink is background, 0.7 is ink.
  std::vector<float> soft = slot(32, 1.0f, -1.0f, strokes);
  for (int y = 10; y < 30; ++y) soft[y * 32 + 4] = 0.4f, soft[y * 32 + 10] = -0.4f;  // 0.3 and 0.7 of 2.0
  for (int c = 1; c < 3; ++c)
    for (int y = 10; y < 30; ++y) soft[(c * 48 + y) * 32 + 4] = 0.4f, soft[(c * 48 + y) * 32 + 10] = -0.4f;
  std::vector<uint8_t> soft_want = want;
  soft_want[10] = 1;
  CHECK(ink_columns(soft.data(), 48, 32, 32) == soft_want);
  // No contrast: every column counts as ink, so no gap is ever found.
  CHECK(ink_columns(slot(32, 0.9f, 0.85f, strokes).data(), 48, 32, 32) == std::vector<uint8_t>(32, 1));
  CHECK(ink_columns(dark.data(), 48, 40, 0).empty());
}

Image gradient(int w, int h) {
  Image img = Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = img.at(x, y);
      p[0] = static_cast<uint8_t>(x * 3), p[1] = static_cast<uint8_t>(y * 5), p[2] = static_cast<uint8_t>((x + y) % 251);
    }
  return img;
}

TEST_CASE("perspective_transform maps the four corners", "[ocr]") {
  const Quad from = {Point{0, 0}, Point{100, 0}, Point{100, 30}, Point{0, 30}};
  const Quad to = {Point{12, 7}, Point{95, 20}, Point{90, 60}, Point{5, 40}};
  std::array<double, 9> h;
  REQUIRE(perspective_transform(from, to, &h));
  for (int i = 0; i < 4; ++i) {
    const double d = h[6] * from[i].x + h[7] * from[i].y + h[8];
    check_point(Point{static_cast<float>((h[0] * from[i].x + h[1] * from[i].y + h[2]) / d),
                      static_cast<float>((h[3] * from[i].x + h[4] * from[i].y + h[5]) / d)},
                to[i].x, to[i].y);
  }
  const Quad line = {Point{0, 0}, Point{1, 1}, Point{2, 2}, Point{3, 3}};
  CHECK_FALSE(perspective_transform(from, line, &h));
}

TEST_CASE("warp_perspective: an axis-aligned box is an exact crop", "[ocr]") {
  const Image img = gradient(60, 40);
  const Quad box = {Point{10, 5}, Point{30, 5}, Point{30, 15}, Point{10, 15}};
  const Image crop = warp_perspective(img, box, 20, 10);
  REQUIRE(crop.width == 20);
  REQUIRE(crop.height == 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x)
      for (int c = 0; c < 3; ++c) REQUIRE(crop.at(x, y)[c] == img.at(x + 10, y + 5)[c]);
}

TEST_CASE("warp_perspective: a box turned by 90 degrees, and crop_text's upright turn", "[ocr]") {
  const Image img = gradient(60, 40);
  // Corners listed so the output's x runs down the image: out(x, y) = img(20 - y, 5 + x).
  const Quad box = {Point{20, 5}, Point{20, 25}, Point{10, 25}, Point{10, 5}};
  const Image crop = warp_perspective(img, box, 20, 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x)
      for (int c = 0; c < 3; ++c) REQUIRE(crop.at(x, y)[c] == img.at(20 - y, 5 + x)[c]);
  // A tall box (10 x 30) is turned counter-clockwise into 30 x 10 (np.rot90).
  const Quad tall = {Point{10, 5}, Point{20, 5}, Point{20, 35}, Point{10, 35}};
  const Image upright = crop_text(img, tall);
  REQUIRE(upright.width == 30);
  REQUIRE(upright.height == 10);
  // rot90: out(x, y) = in(W-1-y, x) with in = the 10 x 30 crop at (10, 5).
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 30; ++x) REQUIRE(upright.at(x, y)[0] == img.at(10 + 9 - y, 5 + x)[0]);
}

TEST_CASE("det_preprocess: sides to multiples of 32, BGR ImageNet normalisation", "[ocr]") {
  Image red = Image::blank(640, 150);
  for (int i = 0; i < 640 * 150; ++i) red.rgb[i * 3] = 255;
  auto in = det_preprocess(red);
  REQUIRE(in.ok());
  CHECK(in->width == 640);
  CHECK(in->height == 160);  // round(150 / 32) = 5 -> 160
  CHECK(in->tensor.shape() == Shape{1, 3, 160, 640});
  const float* d = in->tensor.data<float>();
  const int64_t plane = 160 * 640;
  CHECK(d[0] == Approx((0 - 0.485) / 0.229));          // blue
  CHECK(d[plane] == Approx((0 - 0.456) / 0.224));      // green
  CHECK(d[2 * plane] == Approx((1 - 0.406) / 0.225));  // red
  auto big = det_preprocess(Image::blank(2000, 1000));
  REQUIRE(big.ok());
  CHECK(big->width == 960);
  CHECK(big->height == 480);
}

TEST_CASE("rec_preprocess: height 48, aspect kept, zero padding to the batch width", "[ocr]") {
  Image wide = Image::blank(500, 50, 255);  // ratio 10 -> batch width 480
  Image small = Image::blank(100, 50, 0);   // ratio 2 -> 96 columns, then padding
  auto t = rec_preprocess({&small, &wide});
  REQUIRE(t.ok());
  CHECK(t->shape() == Shape{2, 3, 48, 480});
  const float* d = t->data<float>();
  CHECK(d[0] == -1.0f);   // black -> (0 - 0.5) / 0.5
  CHECK(d[95] == -1.0f);  // last resized column
  CHECK(d[96] == 0.0f);   // padding
  CHECK(d[3 * 48 * 480 + 479] == 1.0f);  // white, full width
  auto narrow = rec_preprocess({&small});
  REQUIRE(narrow.ok());
  CHECK(narrow->shape() == Shape{1, 3, 48, 320});  // at least 320 wide
  auto cls = cls_preprocess({&wide});
  REQUIRE(cls.ok());
  CHECK(cls->shape() == Shape{1, 3, 48, 192});
}

}  // namespace
}  // namespace gk::ocr
