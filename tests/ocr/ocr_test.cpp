// Unit tests of gkocr's modules against hand-computed values: DB post-processing
// (regions, hull, minimum-area box, unclip, score, mapping), CTC decoding, the
// perspective warp and the model input builders.
#include "tools/gkocr/crop.h"
#include "tools/gkocr/ctc_decode.h"
#include "tools/gkocr/db_postprocess.h"
#include "tools/gkocr/preprocess.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace gk::ocr {
namespace {

void check_point(const Point& p, float x, float y, float eps = 1e-3f) {
  INFO("point (" << p.x << ", " << p.y << ") expected (" << x << ", " << y << ")");
  CHECK(std::abs(p.x - x) <= eps);
  CHECK(std::abs(p.y - y) <= eps);
}

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
  auto blank = ctc_greedy_decode(&probs[2][0], 1, 4, cs);
  REQUIRE(blank.ok());
  CHECK(blank->text.empty());
  CHECK(blank->confidence == 0);
  auto wrong = ctc_greedy_decode(&probs[0][0], 7, 4, make_charset({"a"}));
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().message().find("4 classes") != std::string::npos);
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
