"""gkrun as an ONNX backend (onnx.backend.base.Backend), as onnxruntime.backend
is: onnx's backend test runner and code written against that interface drive
gkrun through it.

    import gkrun.backend
    rep = gkrun.backend.prepare(model_proto_or_path, device="CPU")
    outputs = rep.run([x])            # or {name: x}

Needs python3-onnx (only for ModelProto serialisation and the base classes).
"""
import numpy as np
from onnx import ModelProto
from onnx.backend.base import Backend, BackendRep

from . import InferenceSession


def _providers(device):
    device = (device or "CPU").upper()
    if device.startswith("CUDA") or device.startswith("GPU"):
        return ["CUDAExecutionProvider"]
    return ["CPUExecutionProvider"]


class GkrunBackendRep(BackendRep):
    def __init__(self, session):
        self.session = session

    def run(self, inputs, **kwargs):
        names = [a.name for a in self.session.get_inputs()]
        if isinstance(inputs, dict):
            feed = dict(inputs)
        else:
            if isinstance(inputs, np.ndarray):
                inputs = [inputs]
            feed = dict(zip(names, inputs))
        return self.session.run(None, feed)


class GkrunBackend(Backend):
    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        return cls.supports_device(device)

    @classmethod
    def supports_device(cls, device):
        return (device or "CPU").upper().split(":")[0] in ("CPU", "CUDA", "GPU")

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        if isinstance(model, ModelProto):
            model = model.SerializeToString()
        return GkrunBackendRep(InferenceSession(model, providers=_providers(device)))

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        raise NotImplementedError("gkrun runs models; build a one-node model for run_node")


prepare = GkrunBackend.prepare
run_model = GkrunBackend.run_model
supports_device = GkrunBackend.supports_device
is_compatible = GkrunBackend.is_compatible
