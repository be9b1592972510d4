// The detection example's modules (tools/examples/detect) against hand-computed
// cases: letterbox geometry and its inverse, the bilinear resample, IoU, greedy
// NMS (per label, ties, cap) and the YOLOv8 head decode.
#include "detections.h"
#include "letterbox.h"

#include <catch2/catch.hpp>

namespace detect {

TEST_CASE("letterbox: a 384x256 image fits 256x256 at scale 2/3, centred with 42 rows of padding above",
          "[examples][detect]") {
  const Letterbox g = letterbox_geometry(384, 256, 256, 256);
  CHECK(g.scale == Approx(2.0f / 3.0f));
  CHECK(g.width == 256);
  CHECK(g.height == 171);  // 256 * 2/3 = 170.67
  CHECK(g.pad_x == 0);
  CHECK(g.pad_y == 42);    // (256 - 171) / 2, whole pixels
  // A box in input pixels maps back through the padding and scale, clipped to the image.
  const Box b = to_image({30, 42 + 20, 90, 300}, g, 384, 256);
  CHECK(b.x0 == Approx(45));
  CHECK(b.y0 == Approx(30));
  CHECK(b.x1 == Approx(135));
  CHECK(b.y1 == 256);
}

TEST_CASE("letterbox: a 2x1 image into 4x4 is resampled bilinearly at pixel centres over grey",
          "[examples][detect]") {
  // Pixels (0, 0, 0) and (255, 255, 255): scale 2, the scaled image 4x2 at rows 1-2.
  Image img{2, 1, {0, 0, 0, 255, 255, 255}};
  const Letterbox g = letterbox_geometry(2, 1, 4, 4);
  REQUIRE(g.scale == 2);
  REQUIRE(g.pad_y == 1);
  const std::vector<float> x = letterbox_nchw(img, g, 4, 4);
  REQUIRE(x.size() == 48);
  // Columns sample source x = (j + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, clamped to [0, 1].
  const float row[4] = {0, 0.25f, 0.75f, 1};
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < 4; ++y)
      for (int j = 0; j < 4; ++j) {
        const float want = (y == 1 || y == 2) ? row[j] : 114.0f / 255.0f;
        CHECK(x[c * 16 + y * 4 + j] == Approx(want).margin(1e-6));
      }
}

TEST_CASE("detections: IoU, and NMS per label with ties to the earlier box and a cap", "[examples][detect]") {
  const Detection a{0, 0, 10, 10, 0.9f, 0}, b{5, 0, 15, 10, 0.8f, 0};
  CHECK(iou(a, b) == Approx(50.0 / 150.0));
  CHECK(iou(a, {20, 20, 30, 30, 1, 0}) == 0);
  // b overlaps a by 1/3: kept at threshold 0.4, dropped at 0.3; c is another label.
  const Detection c{1, 1, 11, 11, 0.85f, 1};
  auto kept = non_max_suppression({b, a, c}, 0.4f, 10);
  REQUIRE(kept.size() == 3);
  CHECK(kept[0].score == 0.9f);
  CHECK(kept[1].label == 1);
  kept = non_max_suppression({b, a, c}, 0.3f, 10);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].score == 0.9f);
  CHECK(kept[1].label == 1);
  // Equal scores: the earlier candidate wins; the cap keeps the best.
  const Detection first{0, 0, 10, 10, 0.5f, 2}, second{0, 0, 10, 10.5f, 0.5f, 2};
  kept = non_max_suppression({first, second}, 0.5f, 10);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].y1 == 10);
  CHECK(non_max_suppression({a, c, {40, 40, 50, 50, 0.95f, 3}}, 0.5f, 2).size() == 2);
}

TEST_CASE("detections: a YOLOv8 head decodes cx cy w h and the best class above the threshold",
          "[examples][detect]") {
  // 2 classes, 3 anchors; rows cx, cy, w, h, score0, score1.
  const float raw[6 * 3] = {10, 20, 30,  10, 20, 30,  4, 6, 8,  2, 2, 2,  0.1f, 0.9f, 0.3f,  0.7f, 0.2f, 0.25f};
  const auto d = decode_yolov8(raw, 2, 3, 0.5f);
  REQUIRE(d.size() == 2);  // the third anchor's best is 0.3
  CHECK(d[0].label == 1);
  CHECK(d[0].score == 0.7f);
  CHECK(d[0].x0 == 8);
  CHECK(d[0].y0 == 9);
  CHECK(d[0].x1 == 12);
  CHECK(d[0].y1 == 11);
  CHECK(d[1].label == 0);
  CHECK(d[1].x0 == 17);
  CHECK(d[1].x1 == 23);
}

}  // namespace detect
