#!/usr/bin/python3
"""The detection example end to end (label examples): gkdetect on PNGs that need a
real letterbox (384x256 into the model's 256x256), against ONNX Runtime run on the
very tensor gkdetect fed gkrun, with the boxes mapped back by the letterbox
formula here; the letterboxed tensor itself against a numpy bilinear resample; a
raw YOLOv8 head (NMS after the graph) against a numpy decode + NMS; the Python
example's boxes inside the image. Exits 77 (skip) when the models, node or ONNX
Runtime are absent.

    detect_e2e_test.py GKDETECT SOURCE_DIR WORK_DIR [PYTHONPATH_FOR_GKRUN]
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image

SKIP = 77


def fail(msg):
    print("detect_e2e: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        fail("{} exited {}: {}{}".format(" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def ort_outputs(src, model, inputs, out_dir):
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cmd = ["node", os.path.join(src, "tools", "ort", "run_ort.js"), model]
    for name, path in inputs.items():
        cmd += ["--input", "{}={}".format(name, path)]
    run(cmd + ["--out-dir", out_dir])
    return {f[:-4]: np.load(os.path.join(out_dir, f)) for f in os.listdir(out_dir) if f.endswith(".npy")}


def letterbox_reference(rgb, in_w, in_h):
    """Half-pixel-centre bilinear with edge clamp into grey (114) padding: the same
    definition letterbox.cpp implements, written independently."""
    h, w = rgb.shape[:2]
    scale = min(in_w / w, in_h / h)
    sw, sh = max(1, int(np.floor(w * scale + 0.5))), max(1, int(np.floor(h * scale + 0.5)))
    px, py = (in_w - sw) // 2, (in_h - sh) // 2
    img = rgb.astype(np.float64)
    fy = np.clip((np.arange(sh) + 0.5) * (h / sh) - 0.5, 0, h - 1)
    fx = np.clip((np.arange(sw) + 0.5) * (w / sw) - 0.5, 0, w - 1)
    y0, x0 = np.floor(fy).astype(int), np.floor(fx).astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    wy, wx = (fy - y0)[:, None, None], (fx - x0)[None, :, None]
    top = img[y0][:, x0] + (img[y0][:, x1] - img[y0][:, x0]) * wx
    bottom = img[y1][:, x0] + (img[y1][:, x1] - img[y1][:, x0]) * wx
    out = np.full((in_h, in_w, 3), 114.0)
    out[py:py + sh, px:px + sw] = top + (bottom - top) * wy
    return (out / 255.0).transpose(2, 0, 1)[None].astype(np.float32), scale, px, py


def to_image(boxes, scale, px, py, w, h):
    b = (boxes.astype(np.float64) - [px, py, px, py]) / scale
    return np.clip(b, 0, [w, h, w, h])


def canvas_png(npy, path, width=384):
    """The model's test image (a [1, 3, 256, 256] tensor) on a wider dark canvas."""
    img = (np.load(npy)[0].transpose(1, 2, 0) * 255).round().clip(0, 255).astype(np.uint8)
    canvas = np.full((img.shape[0], width, 3), 60, np.uint8)
    off = (width - img.shape[1]) // 2
    canvas[:, off:off + img.shape[1]] = img
    Image.fromarray(canvas).save(path)
    return canvas


def compare(name, got, ref_boxes, ref_scores, ref_labels):
    dets = got["detections"]
    if len(dets) != len(ref_scores):
        fail("{}: {} detections, ONNX Runtime {}".format(name, len(dets), len(ref_scores)))
    for i, d in enumerate(dets):
        if ref_labels is not None and d["label"] != int(ref_labels[i]):
            fail("{}: detection {} label {}, ONNX Runtime {}".format(name, i, d["label"], ref_labels[i]))
        if not np.isclose(d["score"], ref_scores[i], rtol=1e-3, atol=1e-4):
            fail("{}: detection {} score {}, ONNX Runtime {}".format(name, i, d["score"], ref_scores[i]))
        if not np.allclose(d["box"], ref_boxes[i], rtol=1e-3, atol=0.05):
            fail("{}: detection {} box {}, ONNX Runtime {}".format(name, i, d["box"], list(ref_boxes[i])))


def nms_reference(boxes, scores, labels, iou_threshold, max_det):
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    kept = []
    for i in order:
        if len(kept) == max_det:
            break
        ok = True
        for k in kept:
            if labels[k] != labels[i]:
                continue
            x0, y0 = max(boxes[i][0], boxes[k][0]), max(boxes[i][1], boxes[k][1])
            x1, y1 = min(boxes[i][2], boxes[k][2]), min(boxes[i][3], boxes[k][3])
            inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
            area = lambda b: max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])
            union = area(boxes[i]) + area(boxes[k]) - inter
            if union > 0 and inter / union > iou_threshold:
                ok = False
                break
        if ok:
            kept.append(i)
    return kept


def raw_head_model(path):
    """A YOLOv8-shaped raw head: [1, 3, 32, 32] -> 1x1 Conv to 4 + 3 rows -> [1, 7, 1024]:
    rows 0-3 cx cy w h (pixels), rows 4-6 class scores (sigmoid)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    # From the pixel's (r, g, b): centre (32 r, 32 g), size 4 + 8 b, class logits
    # 12 (c - 0.5): many candidates, crowded enough that NMS drops most of them.
    w = np.zeros((7, 3, 1, 1), np.float32)
    b = np.zeros(7, np.float32)
    w[0, 0] = w[1, 1] = 32
    w[2, 2] = w[3, 2] = 8
    b[2:4] = 4
    for c in range(3):
        w[4 + c, c] = 12
        b[4 + c] = -6
    nodes = [helper.make_node("Conv", ["image", "w", "b"], ["conv"]),
             helper.make_node("Reshape", ["conv", "shape"], ["flat"]),
             helper.make_node("Slice", ["flat", "s0", "s4", "ax"], ["xywh"]),
             helper.make_node("Slice", ["flat", "s4", "s7", "ax"], ["logits"]),
             helper.make_node("Sigmoid", ["logits"], ["probs"]),
             helper.make_node("Concat", ["xywh", "probs"], ["raw"], axis=1)]
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
             numpy_helper.from_array(np.array([1, 7, 1024], np.int64), "shape"),
             numpy_helper.from_array(np.array([0], np.int64), "s0"), numpy_helper.from_array(np.array([4], np.int64), "s4"),
             numpy_helper.from_array(np.array([7], np.int64), "s7"), numpy_helper.from_array(np.array([1], np.int64), "ax")]
    g = helper.make_graph(nodes, "raw_head", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("raw", TensorProto.FLOAT, [1, 7, 1024])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, path)


def main():
    gkdetect, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    pypath = sys.argv[4] if len(sys.argv) > 4 else ""
    models = os.path.join(src, "models", "cache", "detect")
    if shutil.which("node") is None or not os.path.isdir(os.path.join(src, "tools", "ort", "node_modules",
                                                                      "onnxruntime-node")):
        print("skip: node or onnxruntime-node absent (scripts/setup.sh)")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    checked = 0
    for model in ("yolo_nms_opset17", "yolo_onnx_nms_opset11"):
        onnx_path = os.path.join(models, model + ".onnx")
        stem = model.rsplit("_opset", 1)[0]
        if not os.path.exists(onnx_path):
            continue
        for case in ("some", "none"):
            png = os.path.join(work, "{}_{}.png".format(model, case))
            rgb = canvas_png(os.path.join(models, "{}.{}.npy".format(stem, case)), png)
            fed, out = os.path.join(work, "fed.npy"), os.path.join(work, "boxes.png")
            got = json.loads(run([gkdetect, onnx_path, png, "--json", "--backend", "cpu", "--save-input", fed,
                                  "--out", out, "--runs", "2"]))
            want, scale, px, py = letterbox_reference(rgb, 256, 256)
            x = np.load(fed)
            if x.shape != want.shape or not np.allclose(x, want, atol=2e-6):
                fail("{} {}: letterboxed tensor differs from the numpy resample by {}".format(
                    model, case, np.abs(x - want).max() if x.shape == want.shape else x.shape))
            lb = got["letterbox"]
            if not (np.isclose(lb["scale"], scale) and lb["pad_x"] == px and lb["pad_y"] == py):
                fail("{}: letterbox {} want scale {} pad {} {}".format(model, lb, scale, px, py))
            ref = ort_outputs(src, onnx_path, {"image": fed}, os.path.join(work, "ort"))
            compare("{} {}".format(model, case), got, to_image(ref["boxes"], scale, px, py, 384, 256),
                    ref["scores"], ref["labels"])
            if (case == "some") != (len(got["detections"]) > 0):
                fail("{} {}: {} detections".format(model, case, len(got["detections"])))
            if Image.open(out).size != (384, 256):
                fail("{}: the annotated PNG is {}".format(model, Image.open(out).size))
            checked += 1
            # The Python example: same model and image, its own (PIL) resample.
            if pypath:
                py_out = json.loads(run(["/usr/bin/python3", os.path.join(src, "tools", "examples", "detect",
                                                                         "detect.py"), onnx_path, png],
                                        env=dict(os.environ, PYTHONPATH=pypath)))
                for d in py_out["detections"]:
                    x0, y0, x1, y1 = d["box"]
                    if not (0 <= x0 <= x1 <= 384 and 0 <= y0 <= y1 <= 256):
                        fail("detect.py: box {} outside the 384x256 image".format(d["box"]))
                if (case == "some") != (len(py_out["detections"]) > 0):
                    fail("detect.py {} {}: {} detections".format(model, case, len(py_out["detections"])))

    # A raw YOLOv8 head: decode, threshold and NMS after the graph.
    raw_model = os.path.join(work, "raw_head.onnx")
    raw_head_model(raw_model)
    rng = np.random.default_rng(3)
    img = (rng.random((48, 64, 3)) * 255).astype(np.uint8)
    png = os.path.join(work, "raw.png")
    Image.fromarray(img).save(png)
    fed = os.path.join(work, "raw_fed.npy")
    got = json.loads(run([gkdetect, raw_model, png, "--json", "--backend", "cpu", "--save-input", fed,
                          "--score", "0.6", "--iou", "0.3", "--max", "25"]))
    if got["nms"] != "host":
        fail("raw head: NMS reported as {}".format(got["nms"]))
    raw = ort_outputs(src, raw_model, {"image": fed}, os.path.join(work, "ort_raw"))["raw"][0].astype(np.float64)
    probs = raw[4:]
    labels, best = probs.argmax(0), probs.max(0)
    cand = np.nonzero(best > 0.6)[0]
    boxes = np.stack([raw[0] - raw[2] / 2, raw[1] - raw[3] / 2, raw[0] + raw[2] / 2, raw[1] + raw[3] / 2], 1)[cand]
    kept = nms_reference(boxes.tolist(), best[cand].tolist(), labels[cand].tolist(), 0.3, 25)
    _, scale, px, py = letterbox_reference(img, 32, 32)
    if len(kept) != 25 or len(cand) < 100:
        fail("raw head: the reference keeps {} of {} candidates: the case tests nothing".format(len(kept), len(cand)))
    compare("raw head", got, to_image(boxes[kept], scale, px, py, 64, 48), best[cand][kept], labels[cand][kept])
    if checked == 0:
        print("skip: no YOLO detection models in models/cache/detect (scripts/setup.sh exports them)")
        return SKIP
    print("detect_e2e: OK ({} model images, raw head {} of {} candidates kept)".format(checked, len(kept), len(cand)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
