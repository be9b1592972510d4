#include "detections.h"

#include <algorithm>
#include <numeric>

namespace detect {

float iou(const Detection& a, const Detection& b) {
  const float w = std::max(0.0f, std::min(a.x1, b.x1) - std::max(a.x0, b.x0));
  const float h = std::max(0.0f, std::min(a.y1, b.y1) - std::max(a.y0, b.y0));
  const float inter = w * h;
  const float area_a = std::max(0.0f, a.x1 - a.x0) * std::max(0.0f, a.y1 - a.y0);
  const float area_b = std::max(0.0f, b.x1 - b.x0) * std::max(0.0f, b.y1 - b.y0);
  const float uni = area_a + area_b - inter;
  return uni > 0 ? inter / uni : 0.0f;
}

std::vector<Detection> non_max_suppression(std::vector<Detection> candidates, float iou_threshold,
                                           size_t max_detections) {
  std::vector<size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return candidates[a].score > candidates[b].score; });
  std::vector<Detection> kept;
  for (size_t i : order) {
    if (kept.size() == max_detections) break;
    const Detection& d = candidates[i];
    bool suppressed = false;
    for (const Detection& k : kept)
      if (k.label == d.label && iou(k, d) > iou_threshold) {
        suppressed = true;
        break;
      }
    if (!suppressed) kept.push_back(d);
  }
  return kept;
}

std::vector<Detection> decode_yolov8(const float* raw, int64_t classes, int64_t anchors, float score_threshold) {
  std::vector<Detection> out;
  for (int64_t a = 0; a < anchors; ++a) {
    int64_t best = 0;
    float best_score = raw[4 * anchors + a];
    for (int64_t c = 1; c < classes; ++c) {
      const float s = raw[(4 + c) * anchors + a];
      if (s > best_score) {
        best_score = s;
        best = c;
      }
    }
    if (!(best_score > score_threshold)) continue;
    const float cx = raw[a], cy = raw[anchors + a], w = raw[2 * anchors + a], h = raw[3 * anchors + a];
    out.push_back({cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, best_score, best});
  }
  return out;
}

}  // namespace detect
