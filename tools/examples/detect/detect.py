#!/usr/bin/python3
"""detect.py MODEL IMAGE [OUT.png]: the detection example on gkrun's Python module
(onnxruntime's shape: `import gkrun as ort`). Letterbox, run, boxes back to the
image; NMS is in the graph (boxes [N, 4], scores [N], labels [N] outputs)."""
import json, sys, time
import numpy as np
from PIL import Image, ImageDraw
import gkrun as ort

model, path = sys.argv[1], sys.argv[2]
sess = ort.InferenceSession(model, providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
inp = sess.get_inputs()[0]
in_h, in_w = inp.shape[2], inp.shape[3]
image = Image.open(path).convert("RGB")
scale = min(in_w / image.width, in_h / image.height)
w, h = max(1, round(image.width * scale)), max(1, round(image.height * scale))
pad_x, pad_y = (in_w - w) // 2, (in_h - h) // 2
canvas = Image.new("RGB", (in_w, in_h), (114, 114, 114))
canvas.paste(image.resize((w, h), Image.BILINEAR), (pad_x, pad_y))
x = (np.asarray(canvas, np.float32) / 255.0).transpose(2, 0, 1)[None]
t0 = time.perf_counter()
boxes, scores, labels = sess.run(None, {inp.name: x})
ms = (time.perf_counter() - t0) * 1e3
boxes = (boxes - [pad_x, pad_y, pad_x, pad_y]) / scale
boxes = boxes.clip(0, [image.width, image.height, image.width, image.height])
draw = ImageDraw.Draw(image)
for b, l in zip(boxes, labels):
    draw.rectangle(list(map(float, b)), outline=(255, 64, 64), width=2)
if len(sys.argv) > 3:
    image.save(sys.argv[3])
print(json.dumps({"run_ms": ms, "detections": [{"label": int(l), "score": float(s), "box": [float(v) for v in b]}
                                               for b, s, l in zip(boxes, scores, labels)]}))
