// A detector's outputs as a list of detections: either the post-processed
// (boxes [N, 4] xyxy, scores [N], labels [N]) of a model with NMS in its graph, or
// the raw YOLOv8 head ([1, 4 + classes, anchors], cx cy w h then class scores)
// decoded, thresholded and suppressed here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace detect {

struct Detection {
  float x0, y0, x1, y1;  // input pixels
  float score;
  int64_t label;
};

float iou(const Detection& a, const Detection& b);

// Greedy NMS: best score first (ties: the earlier detection, as ONNX
// NonMaxSuppression orders them), a detection dropped when it overlaps a kept one
// of the same label by more than `iou_threshold`. At most `max_detections`.
std::vector<Detection> non_max_suppression(std::vector<Detection> candidates, float iou_threshold,
                                           size_t max_detections);

// YOLOv8's raw output [1, 4 + classes, anchors]: each anchor's best class above
// `score_threshold`, as xyxy.
std::vector<Detection> decode_yolov8(const float* raw, int64_t classes, int64_t anchors, float score_threshold);

}  // namespace detect
