#!/usr/bin/python3
"""Exports torchvision models to ONNX with random (seeded) weights: pretrained
weights cannot be downloaded here, and the differential tests only need the
architectures. Uses Debian's python3-torch / python3-torchvision.

    /usr/bin/python3 models/export_torchvision.py OUT_DIR [name ...]

Names: resnet18, mobilenet_v2, lraspp (LR-ASPP MobileNetV3: bilinear Resize),
squeezenet. Existing files are kept (delete to re-export).
"""
import os
import sys

import torch
import torchvision

MODELS = {
    # name: (constructor, input shape, opset)
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 224, 224), 13),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(), (1, 3, 224, 224), 13),
    "squeezenet": (lambda: torchvision.models.squeezenet1_1(), (1, 3, 224, 224), 13),
    "lraspp": (lambda: torchvision.models.segmentation.lraspp_mobilenet_v3_large(
        pretrained=False, pretrained_backbone=False, num_classes=21), (1, 3, 256, 256), 13),
}


class OutOnly(torch.nn.Module):
    """Segmentation models return a dict; export its 'out' tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        y = self.model(x)
        return y["out"] if isinstance(y, dict) else y


def randomize_batchnorm(model):
    """Random BatchNorm statistics, so that folding them is actually exercised and
    activations keep their scale (models/export_bench.py uses it too)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)


def export(name, out_dir):
    path = os.path.join(out_dir, name + ".onnx")
    if os.path.exists(path):
        return path
    ctor, shape, opset = MODELS[name]
    torch.manual_seed(0)
    model = OutOnly(ctor()).eval()
    randomize_batchnorm(model)
    x = torch.rand(*shape)
    tmp = path + ".tmp"
    torch.onnx.export(model, x, tmp, opset_version=opset, input_names=["input"], output_names=["output"],
                      dynamic_axes=None, do_constant_folding=True)
    os.replace(tmp, path)
    return path


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    names = sys.argv[2:] or list(MODELS)
    for name in names:
        if name not in MODELS:
            print(f"export_torchvision: unknown model '{name}' (known: {', '.join(MODELS)})", file=sys.stderr)
            return 2
        print(export(name, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
