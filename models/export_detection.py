#!/usr/bin/python3
"""Exports the detection family to ONNX, post-processing (score threshold, top-k,
NMS) inside the graph, with seeded random weights (pretrained weights cannot be
downloaded here; the architectures and their run-time shapes are what is under
test). Uses Debian's python3-torch 1.13 / python3-torchvision 0.14, whose only
ONNX exporter is the TorchScript one (torch.onnx.export; the dynamo exporter
arrived in torch 2.x).

    /usr/bin/python3 models/export_detection.py OUT_DIR [--only NAME ... | --light] [--opset 11|17 ...]
                                               [--verify] [--force] [--list]

--light exports the models the `detect` test label runs (not the slow ones:
SSD300-VGG16 and the ResNet-50 detectors, `detect-slow`); scripts/setup.sh uses it.

Writes OUT_DIR/NAME_opsetN.onnx for each model and opset (both 11 and 17 unless
--opset says; for the models in DYNAMIC also NAME_dynamic_opset17.onnx, whose
image height and width are dynamic, and NAME.crop.npy, an image of another size
for it), and per model the two test images OUT_DIR/NAME.some.npy (seeded
coloured shapes: some detections) and OUT_DIR/NAME.none.npy (constant grey: no
detection), and OUT_DIR/manifest.json (input name and shape, output names, the
detection counts PyTorch gave, whether the model is a slow one). Existing model
files are kept unless --force. --verify runs every written model on ONNX Runtime
(node tools/ort/run_ort.js) on both images and fails unless the first gives at
least one detection and the second none.

Random weights give junk scores: deep nets whose activations die or saturate
score every image alike, and heads initialised near zero give the same score
everywhere (a softmax over 91 near-zero logits is 1/91 at every anchor), ties
that make the kept set depend on the TopK/NMS tie rule rather than on the
arithmetic. So the BatchNorm statistics are calibrated on the shapes image
(calibrate_batchnorm), each model's final classification layers are rescaled
until their logits spread (weight part up to kLogitMax on the shapes image), and
the score threshold is placed in a wide gap (in logit space) of the shapes
image's scores, above every score of the grey image, so that neither case lies
near the threshold. Should no threshold separate the images, the classification
biases are lowered by the grey image's response first (lower_constant_response).

Sizes are small (300-320 for torchvision, 256 for the small models; R-CNN RPNs
keep 200/100 proposals) so that each model runs in about a second.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torchvision
from torchvision.models import detection as tvd
from torchvision.models.detection import _utils as det_utils

HERE = os.path.dirname(os.path.abspath(__file__))
kLogitMax = 6.0        # largest weight part of the rescaled classification logits on the shapes image
kWantDetections = 8    # roughly how many detections the shapes image should give
kMinGap = 0.05         # gap in logit space each side of the threshold (scores within it would be fragile)


# ----------------------------------------------------------------------------
# Wrappers: one image tensor in, the detection tensors out (no dicts, no lists).

class TorchvisionDetector(torch.nn.Module):
    """A torchvision detector on one CHW image; outputs in OUTPUTS order."""

    def __init__(self, model, outputs):
        super().__init__()
        self.model = model
        self.outputs = outputs

    def forward(self, image):
        d = self.model([image])[0]
        return tuple(d[k] for k in self.outputs)

    def set_threshold(self, t):
        if hasattr(self.model, "roi_heads"):
            self.model.roi_heads.score_thresh = t
        else:
            self.model.score_thresh = t


def conv_bn_act(cin, cout, k=3, s=1):
    return torch.nn.Sequential(torch.nn.Conv2d(cin, cout, k, s, k // 2, bias=False), torch.nn.BatchNorm2d(cout),
                               torch.nn.SiLU())


class TinyYolo(torch.nn.Module):
    """A YOLOv8-style anchor-free detector: strided conv backbone, three levels
    (strides 8/16/32), decoupled box (DFL, 16 bins) and class heads, decoding to
    xyxy pixels, then max class score, a score threshold (NonZero), class-aware
    NMS and the best max_det. onnx_nms=False: torchvision.ops.batched_nms (one
    class-offset NonMaxSuppression); onnx_nms=True: one multi-class ONNX
    NonMaxSuppression node over [1, classes, boxes] with its score_threshold input,
    as YOLO exports with NMS write it, then GatherND of the selected triples."""

    def __init__(self, num_classes=20, reg_max=16, onnx_nms=False, size=256):
        super().__init__()
        self.nc, self.reg_max, self.onnx_nms, self.size = num_classes, reg_max, onnx_nms, size
        self.stem = torch.nn.Sequential(conv_bn_act(3, 16, 3, 2), conv_bn_act(16, 32, 3, 2), conv_bn_act(32, 32),
                                        conv_bn_act(32, 48, 3, 2))  # stride 8
        self.down16 = torch.nn.Sequential(conv_bn_act(48, 64, 3, 2), conv_bn_act(64, 64))
        self.down32 = torch.nn.Sequential(conv_bn_act(64, 96, 3, 2), conv_bn_act(96, 96))
        chans = (48, 64, 96)
        self.box_heads = torch.nn.ModuleList(
            torch.nn.Sequential(conv_bn_act(c, 32), torch.nn.Conv2d(32, 4 * reg_max, 1)) for c in chans)
        self.cls_heads = torch.nn.ModuleList(
            torch.nn.Sequential(conv_bn_act(c, 32), torch.nn.Conv2d(32, num_classes, 1)) for c in chans)
        self.register_buffer("bins", torch.arange(reg_max, dtype=torch.float32))
        self.score_thresh, self.iou_thresh, self.max_det = 0.25, 0.45, 100

    def set_threshold(self, t):
        self.score_thresh = t

    def classification_layers(self):
        return [h[-1] for h in self.cls_heads]

    def heads(self, x):
        f8 = self.stem(x)
        f16 = self.down16(f8)
        f32 = self.down32(f16)
        boxes, logits = [], []
        for f, stride, bh, ch in zip((f8, f16, f32), (8, 16, 32), self.box_heads, self.cls_heads):
            n, _, h, w = f.shape
            dist = bh(f).view(n, 4, self.reg_max, h * w).softmax(2)          # DFL
            dist = (dist * self.bins.view(1, 1, -1, 1)).sum(2)                 # [n, 4, hw] in strides
            ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32),
                                    indexing="ij")
            cx = (xs.reshape(-1) + 0.5)
            cy = (ys.reshape(-1) + 0.5)
            xyxy = torch.stack((cx - dist[:, 0], cy - dist[:, 1], cx + dist[:, 2], cy + dist[:, 3]), 1) * stride
            boxes.append(xyxy)                                                  # [n, 4, hw]
            logits.append(ch(f).view(n, self.nc, h * w))
        return torch.cat(boxes, 2)[0].t(), torch.cat(logits, 2)[0]            # [N, 4], [nc, N]

    def forward(self, images):
        boxes, logits = self.heads(images)
        scores = logits.sigmoid()
        if self.onnx_nms:
            return onnx_multiclass_nms(boxes, scores, self.score_thresh, self.iou_thresh, self.max_det)
        best, labels = scores.max(0)
        keep = best > self.score_thresh
        boxes, best, labels = boxes[keep], best[keep], labels[keep]
        kept = torchvision.ops.batched_nms(boxes, best, labels, self.iou_thresh)[: self.max_det]
        return boxes[kept], best[kept], labels[kept]


class OnnxNms(torch.autograd.Function):
    """ONNX NonMaxSuppression (selected [k, 3] = batch, class, box) with a PyTorch
    forward for calibration; the export writes the ONNX node itself."""

    @staticmethod
    def forward(ctx, boxes, scores, max_per_class, iou, score_thresh):
        # boxes [1, N, 4], scores [1, C, N]
        out = []
        for c in range(scores.shape[1]):
            s = scores[0, c]
            idx = torch.nonzero(s > score_thresh).flatten()
            k = torchvision.ops.nms(boxes[0, idx], s[idx], float(iou))[: int(max_per_class)]
            sel = idx[k]
            out.append(torch.stack((torch.zeros_like(sel), torch.full_like(sel, c), sel), 1))
        return torch.cat(out, 0)

    @staticmethod
    def symbolic(g, boxes, scores, max_per_class, iou, score_thresh):
        return g.op("NonMaxSuppression", boxes, scores, max_per_class, iou, score_thresh, center_point_box_i=0)


def onnx_multiclass_nms(boxes, scores, score_thresh, iou_thresh, max_det):
    sel = OnnxNms.apply(boxes.unsqueeze(0), scores.unsqueeze(0), torch.tensor([max_det], dtype=torch.int64),
                        torch.tensor([iou_thresh], dtype=torch.float32),
                        torch.tensor([score_thresh], dtype=torch.float32))
    cls, box = sel[:, 1], sel[:, 2]
    s = scores[cls, box]
    # best max_det over all classes, highest first (TopK with K from the run)
    s, order = s.topk(det_utils._topk_min(s, max_det, 0))
    return boxes[box[order]], s, cls[order]


class TinyDetr(torch.nn.Module):
    """A DETR-style detector: conv backbone to stride 16, 1x1 projection, learned
    positional embedding, nn.Transformer (encoder 2, decoder 2, d_model 64) over
    the flattened feature map with learned object queries, class (+ no-object)
    and box (MLP, sigmoid cxcywh) heads; post-processing keeps queries whose best
    real-class probability passes the threshold (NonZero) and sorts them by score
    (TopK with K from the run)."""

    def __init__(self, num_classes=20, d_model=64, queries=50, size=256):
        super().__init__()
        self.size = size
        self.backbone = torch.nn.Sequential(conv_bn_act(3, 16, 3, 2), conv_bn_act(16, 32, 3, 2),
                                            conv_bn_act(32, 64, 3, 2), conv_bn_act(64, 96, 3, 2))
        self.proj = torch.nn.Conv2d(96, d_model, 1)
        hw = (size // 16) ** 2
        self.pos = torch.nn.Parameter(torch.randn(hw, 1, d_model) * 0.1)
        self.query = torch.nn.Parameter(torch.randn(queries, 1, d_model))
        # batch_first=False keeps nn.Transformer off its fused fast path, which
        # the TorchScript exporter cannot trace.
        self.transformer = torch.nn.Transformer(d_model, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                                dim_feedforward=128, dropout=0.0)
        self.class_embed = torch.nn.Linear(d_model, num_classes + 1)
        self.bbox_embed = torch.nn.Sequential(torch.nn.Linear(d_model, d_model), torch.nn.ReLU(),
                                              torch.nn.Linear(d_model, d_model), torch.nn.ReLU(),
                                              torch.nn.Linear(d_model, 4))
        self.score_thresh = 0.5

    def set_threshold(self, t):
        self.score_thresh = t

    def classification_layers(self):
        return [self.class_embed]

    def forward(self, images):
        f = self.proj(self.backbone(images))                     # [1, d, h, w]
        src = f.flatten(2).permute(2, 0, 1) + self.pos           # [hw, 1, d]
        hs = self.transformer(src, self.query)                   # [q, 1, d]
        logits = self.class_embed(hs)[:, 0]                      # [q, nc + 1]
        cxcywh = self.bbox_embed(hs)[:, 0].sigmoid()             # [q, 4]
        prob = logits.softmax(-1)[:, :-1]
        scores, labels = prob.max(-1)
        keep = scores > self.score_thresh
        scores, labels, cxcywh = scores[keep], labels[keep], cxcywh[keep]
        scores, order = scores.topk(det_utils._topk_min(scores, self.query.shape[0], 0))
        c = cxcywh[order]
        xyxy = torch.stack((c[:, 0] - 0.5 * c[:, 2], c[:, 1] - 0.5 * c[:, 3], c[:, 0] + 0.5 * c[:, 2],
                            c[:, 1] + 0.5 * c[:, 3]), 1) * float(self.size)
        return xyxy, scores, labels[order]


def register_roi_align_opset16():
    """torchvision 0.14 writes RoiAlign without coordinate_transformation_mode at
    every opset; from opset 16 that attribute defaults to half_pixel (aligned=True),
    so its opset-17 R-CNN exports compute other boxes than PyTorch (ONNX Runtime
    then gives 9 detections where PyTorch gives 10). The opset-16 form below is
    torchvision 0.15's: the mode named, output_half_pixel for aligned=False."""
    from torch.onnx import register_custom_op_symbolic
    from torch.onnx.symbolic_helper import parse_args
    from torch.onnx.symbolic_opset11 import select, squeeze
    from torch.onnx.symbolic_opset9 import _cast_Long

    @parse_args("v", "v", "f", "i", "i", "i", "i")
    def roi_align(g, input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
        batch = _cast_Long(g, squeeze(g, select(g, rois, 1, g.op("Constant", value_t=torch.tensor([0]))), 1), False)
        rois = select(g, rois, 1, g.op("Constant", value_t=torch.tensor([1, 2, 3, 4])))
        return g.op("RoiAlign", input, rois, batch, spatial_scale_f=spatial_scale, output_height_i=pooled_height,
                    output_width_i=pooled_width, sampling_ratio_i=max(sampling_ratio, 0),
                    coordinate_transformation_mode_s="half_pixel" if aligned else "output_half_pixel")

    register_custom_op_symbolic("torchvision::roi_align", roi_align, 16)


# ----------------------------------------------------------------------------
# The model list.

BOX_OUT = ["boxes", "scores", "labels"]


def tv(ctor, outputs=BOX_OUT, cls_layers=None, **kw):
    def build():
        m = ctor(weights=None, weights_backbone=None, **kw).eval()
        w = TorchvisionDetector(m, outputs).eval()
        w.classification_layers = lambda: cls_layers(m)
        return w
    return build


def rcnn_cls(m):
    return [m.roi_heads.box_predictor.cls_score]


def ssd_cls(m):
    out = []
    for layer in m.head.classification_head.module_list:
        convs = [x for x in layer.modules() if isinstance(x, torch.nn.Conv2d)]
        out.append(convs[-1])
    return out


def tv_cls(m):
    return [m.head.classification_head.cls_logits]


def tiny(model):
    """torchvision's conv init (Kaiming, fan out) for the small models."""
    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            torch.nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
    return model.eval()


RCNN_SMALL = dict(min_size=320, max_size=320, rpn_pre_nms_top_n_test=200, rpn_post_nms_top_n_test=100)

# name: (builder, image shape CHW, slow)
MODELS = {
    "ssd300_vgg16": (tv(tvd.ssd300_vgg16, cls_layers=ssd_cls), (3, 300, 300), True),  # VGG-16: 31 GFLOPs
    "ssdlite320_mobilenet_v3_large": (tv(tvd.ssdlite320_mobilenet_v3_large, cls_layers=ssd_cls), (3, 320, 320),
                                      False),
    "retinanet_resnet50_fpn": (tv(tvd.retinanet_resnet50_fpn, cls_layers=tv_cls, min_size=320, max_size=320),
                               (3, 320, 320), True),
    "fcos_resnet50_fpn": (tv(tvd.fcos_resnet50_fpn, cls_layers=tv_cls, min_size=320, max_size=320),
                          (3, 320, 320), True),
    "fasterrcnn_mobilenet_v3_large_320_fpn": (tv(tvd.fasterrcnn_mobilenet_v3_large_320_fpn, cls_layers=rcnn_cls),
                                              (3, 320, 320), False),
    "fasterrcnn_resnet50_fpn": (tv(tvd.fasterrcnn_resnet50_fpn, cls_layers=rcnn_cls, **RCNN_SMALL), (3, 320, 320),
                                True),
    "maskrcnn_resnet50_fpn": (tv(tvd.maskrcnn_resnet50_fpn, outputs=BOX_OUT + ["masks"], cls_layers=rcnn_cls,
                                 **RCNN_SMALL), (3, 320, 320), True),
    "keypointrcnn_resnet50_fpn": (tv(tvd.keypointrcnn_resnet50_fpn,
                                     outputs=BOX_OUT + ["keypoints", "keypoints_scores"], cls_layers=rcnn_cls,
                                     **RCNN_SMALL), (3, 320, 320), True),
    "yolo_nms": (lambda: tiny(TinyYolo(onnx_nms=False)), (1, 3, 256, 256), False),
    "yolo_onnx_nms": (lambda: tiny(TinyYolo(onnx_nms=True)), (1, 3, 256, 256), False),
    "detr": (lambda: tiny(TinyDetr()), (1, 3, 256, 256), False),
}


# ----------------------------------------------------------------------------
# Calibration: spread the logits, then place the threshold.

def calibrate_batchnorm(model, image, seed=0):
    """Random BatchNorm statistics that keep activations alive: each BatchNorm's
    running mean and variance become its input's statistics on IMAGE (set in one
    pass, in execution order, so each layer sees calibrated layers upstream),
    its scale and shift random in [0.5, 1.5] and [-0.2, 0.2]. Without it random
    weights saturate or die in the deep nets and every image gives the same
    scores. Channels constant on IMAGE get variance 1e-2, not ~0, so float noise
    is not amplified."""
    g = torch.Generator().manual_seed(seed)

    def pre(bn, args):
        x = args[0].detach().transpose(0, 1).reshape(bn.num_features, -1)
        bn.running_mean.copy_(x.mean(1))
        bn.running_var.copy_(x.var(1, unbiased=False).clamp(min=1e-2))
        bn.weight.copy_(torch.rand(bn.num_features, generator=g) + 0.5)
        bn.bias.copy_(torch.rand(bn.num_features, generator=g) * 0.4 - 0.2)

    handles = [m.register_forward_pre_hook(pre) for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    model.set_threshold(1.0)
    with torch.no_grad():
        model(image)
    for h in handles:
        h.remove()


def head_outputs(model, image):
    """The final classification layers' outputs on IMAGE less their bias (the part
    the weights contribute), by layer, in channel-last form [positions, channels]."""
    layers = model.classification_layers()
    parts = {}

    def hook(layer):
        def f(_, __, out):
            out = out.detach()
            if isinstance(layer, torch.nn.Conv2d):
                out = out.transpose(1, -1)
            out = out.reshape(-1, out.shape[-1]) - (layer.bias if layer.bias is not None else 0)
            # a head shared by the pyramid levels (RetinaNet, FCOS) runs once a level
            parts[layer] = torch.cat((parts[layer], out)) if layer in parts else out
        return f

    handles = [layer.register_forward_hook(hook(layer)) for layer in layers]
    model.set_threshold(1.0)  # nothing passes: only the heads matter here
    with torch.no_grad():
        model(image)
    for h in handles:
        h.remove()
    return parts


def spread_logits(model, image):
    """Rescales each final classification layer's weights so that their part of
    the logits reaches kLogitMax at most on IMAGE (the bias, which carries
    torchvision's prior, is kept): spread, but short of saturating a sigmoid."""
    with torch.no_grad():
        for layer, part in head_outputs(model, image).items():
            top = part.abs().max().item()
            if top > 0:
                layer.weight.mul_(kLogitMax / top)


def lower_constant_response(model, image):
    """Shifts each classification channel's bias down by that channel's largest
    weight part on the constant IMAGE, so that the image the test expects no
    detection from scores at most what the bias alone gives."""
    with torch.no_grad():
        for layer, part in head_outputs(model, image).items():
            layer.bias.sub_(part.max(0).values)


def all_scores(model, image):
    model.set_threshold(0.0)
    with torch.no_grad():
        out = model(image)
    return out[1].flatten().sort(descending=True).values.tolist()


def logit(p):
    p = min(max(p, 1e-12), 1 - 1e-7)
    return math.log(p / (1 - p))


def place_threshold(name, some, none):
    """A threshold with about kWantDetections of SOME's scores (sorted, highest
    first) above it, in a gap of at least kMinGap either side in logit space
    (scores crowd near 1 and near 0, so a gap in p would say little), and above
    every score of NONE by as much. Returns (threshold, detections)."""
    none_max = max(none) if none else 0.0
    best = None
    for k in range(1, min(len(some), 40) + 1):
        hi = logit(some[k - 1])
        lo = logit(max(some[k] if k < len(some) else 0.0, none_max))
        if hi - lo >= 2 * kMinGap:
            t = 1 / (1 + math.exp(-(hi + lo) / 2))
            cost = abs(k - kWantDetections)
            if best is None or cost < best[0]:
                best = (cost, t, k)
    if best is None:
        raise RuntimeError(f"{name}: no threshold separates the images (shapes image's top scores {some[:5]}, "
                           f"constant image's best {none_max})")
    return best[1], best[2]


def images(shape, seed):
    """The test images: shapes (rectangles and discs of random colours and sizes,
    10-60% of the side) over mild noise on grey, which some detector responds to,
    and the constant grey image, which none should."""
    g = torch.Generator().manual_seed(seed)
    h, w = shape[-2], shape[-1]
    img = torch.full((3, h, w), 0.5) + 0.05 * torch.randn(3, h, w, generator=g)
    ys = torch.arange(h, dtype=torch.float32).view(-1, 1)
    xs = torch.arange(w, dtype=torch.float32).view(1, -1)
    for i in range(12):
        r = torch.rand(6, generator=g)
        cy, cx = r[0] * h, r[1] * w
        sy, sx = (0.05 + 0.25 * r[2]) * h, (0.05 + 0.25 * r[3]) * w
        colour = torch.rand(3, 1, 1, generator=g)
        if i % 2:
            inside = ((ys - cy).abs() < sy) & ((xs - cx).abs() < sx)
        else:
            inside = ((ys - cy) / sy) ** 2 + ((xs - cx) / sx) ** 2 < 1
        img = torch.where(inside, colour.expand(3, h, w), img)
    some = img.clamp(0, 1).reshape(shape)
    none = torch.full(shape, 0.5)
    return some, none


def build_calibrated(name):
    builder, shape, _ = MODELS[name]
    torch.manual_seed(0)
    model = builder()
    some, none = images(shape, 1234)
    calibrate_batchnorm(model, some)
    spread_logits(model, some)
    try:
        t, _ = place_threshold(name, all_scores(model, some), all_scores(model, none))
    except RuntimeError:
        lower_constant_response(model, none)
        t, _ = place_threshold(name, all_scores(model, some), all_scores(model, none))
    model.set_threshold(float(t))
    with torch.no_grad():
        n_some = model(some)[1].numel()
        n_none = model(none)[1].numel()
    if n_some == 0 or n_none != 0:
        raise RuntimeError(f"{name}: threshold {t} gives {n_some} / {n_none} detections in PyTorch")
    return model, some, none, t, n_some


# Also exported with the image's height and width dynamic (opset 17 only), and run
# by the test on a third image of another size on the same session: the shapes
# downstream (resize, anchors, feature maps) then come from the run.
DYNAMIC = ("ssdlite320_mobilenet_v3_large", "fasterrcnn_mobilenet_v3_large_320_fpn", "yolo_nms", "yolo_onnx_nms")


def crop_of(model, image, t):
    """Three quarters of IMAGE's height (240 of 320, 192 of 256), from the first
    offset whose scores all keep kMinGap / 5 (in logit space; the threshold was
    not placed for this image, and a crop can score 100 candidates densely) from
    the threshold T; the model's threshold is T again afterwards."""
    h = image.shape[-2]
    for top in range(h // 16, h // 4 + 1, 4):
        crop = image[..., top: top + 3 * h // 4, :].contiguous()
        scores = all_scores(model, crop)
        model.set_threshold(t)
        if all(abs(logit(x) - logit(t)) >= kMinGap / 5 for x in scores):
            return crop
    raise RuntimeError(f"no crop of the shapes image keeps its scores {kMinGap / 5} from the threshold {t}")


def export(name, out_dir, opsets, force):
    _, shape, slow = MODELS[name]
    paths = {o: os.path.join(out_dir, f"{name}_opset{o}.onnx") for o in opsets}
    if name in DYNAMIC and 17 in opsets:
        paths["dynamic"] = os.path.join(out_dir, f"{name}_dynamic_opset17.onnx")
    todo = [o for o in paths if force or not os.path.exists(paths[o])]
    entry = None
    if todo or not os.path.exists(os.path.join(out_dir, name + ".some.npy")):
        model, some, none, t, n_some = build_calibrated(name)
        np.save(os.path.join(out_dir, name + ".some.npy"), some.numpy().astype(np.float32))
        np.save(os.path.join(out_dir, name + ".none.npy"), none.numpy().astype(np.float32))
        outputs = model.outputs if isinstance(model, TorchvisionDetector) else BOX_OUT
        entry = {"input": "image", "shape": list(shape), "outputs": outputs, "threshold": t,
                 "torch_some": n_some, "torch_none": 0, "slow": slow}
        if "dynamic" in paths:
            crop = crop_of(model, some, t)
            np.save(os.path.join(out_dir, name + ".crop.npy"), crop.numpy().astype(np.float32))
            with torch.no_grad():
                entry["torch_crop"] = model(crop)[1].numel()
        for o in todo:
            tmp = paths[o] + ".tmp"
            dynamic = o == "dynamic"
            axes = {"image": {len(shape) - 2: "height", len(shape) - 1: "width"}} if dynamic else None
            torch.onnx.export(model, (some,), tmp, opset_version=17 if dynamic else o, input_names=["image"],
                              output_names=outputs, dynamic_axes=axes, do_constant_folding=True)
            os.replace(tmp, paths[o])
    return paths, entry


# ----------------------------------------------------------------------------
# Verification on ONNX Runtime.

def ort_counts(model_path, out_dir, name):
    root = os.path.dirname(HERE)
    counts = []
    for case in ("some", "none"):
        with tempfile.TemporaryDirectory() as d:
            subprocess.run(["node", os.path.join(root, "tools", "ort", "run_ort.js"), model_path, "--input",
                            f"image={os.path.join(out_dir, f'{name}.{case}.npy')}", "--out-dir", d], check=True,
                           stdout=subprocess.DEVNULL)
            counts.append(int(np.load(os.path.join(d, "scores.npy")).shape[0]))
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", nargs="?")
    ap.add_argument("--only", nargs="+", metavar="NAME")
    ap.add_argument("--light", action="store_true", help="only the models that are not slow")
    ap.add_argument("--opset", nargs="+", type=int, choices=(11, 17), default=[11, 17])
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for n, (_, shape, slow) in MODELS.items():
            print(n, "x".join(map(str, shape)), "slow" if slow else "")
        return 0
    if not a.out_dir:
        ap.print_usage()
        return 2
    names = a.only or [n for n, (_, _, slow) in MODELS.items() if not (a.light and slow)]
    for n in names:
        if n not in MODELS:
            print(f"export_detection: unknown model '{n}' (known: {', '.join(MODELS)})", file=sys.stderr)
            return 2
    os.makedirs(a.out_dir, exist_ok=True)
    register_roi_align_opset16()
    manifest_path = os.path.join(a.out_dir, "manifest.json")
    manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
    failed = 0
    for n in names:
        try:
            paths, entry = export(n, a.out_dir, a.opset, a.force)
        except Exception as e:  # one model failing must not stop the others
            print(f"export_detection: {n}: {type(e).__name__}: {e}", file=sys.stderr)
            failed += 1
            continue
        if entry:
            # read again: another export may have written it since
            manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
            manifest[n] = entry
            with open(manifest_path + ".tmp", "w") as f:
                json.dump(manifest, f, indent=1, sort_keys=True)
            os.replace(manifest_path + ".tmp", manifest_path)
        for o, p in paths.items():
            line = p
            if a.verify:
                some, none = ort_counts(p, a.out_dir, n)
                ok = some > 0 and none == 0
                failed += not ok
                torch_some = manifest.get(n, {}).get("torch_some")
                line += f"  ORT detections: shapes {some} (PyTorch {torch_some}), grey {none} {'ok' if ok else 'FAIL'}"
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
