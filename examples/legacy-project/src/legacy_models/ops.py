"""Python side of the legacy_models._C extension: the fused bias + GELU op, an in-place
variant for activation memory, and frames handed to the capture service over DLPack."""
import enum

import torch
import torch.nn.functional as F
from torch.utils.dlpack import DLDeviceType

from legacy_models import _C  # registers torch.ops.legacy_ops


class CaptureMemory(enum.IntEnum):
    """The capture service's own memory codes (its wire protocol, not torch's DLPack enum)."""

    kDLCPUPinned = 3
    kDLGPU = 2


def fused_bias_gelu(x, bias):
    """The fused kernel when it supports x's dtype, else the eager composite."""
    try:
        return torch.ops.legacy_ops.fused_bias_gelu(x, bias)
    except RuntimeError as e:
        if type(e) is RuntimeError:  # the fused kernel has no path for this dtype
            return F.gelu(x + bias)
        raise


class InplaceBiasGelu(torch.autograd.Function):
    """GELU(x + bias) written into x, to keep one activation less alive in the encoder."""

    @staticmethod
    def forward(ctx, x, bias):
        pre = x + bias
        ctx.save_for_backward(pre)
        x.copy_(F.gelu(pre))
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        (pre,) = ctx.saved_tensors
        with torch.enable_grad():
            pre = pre.detach().requires_grad_()
            (grad_pre,) = torch.autograd.grad(F.gelu(pre), pre, grad)
        return grad_pre, grad_pre.sum(dim=tuple(range(grad_pre.dim() - 1)))


def send_frame(frame):
    """Wraps `frame` as a DLPack capsule for the capture service, with its memory code."""
    device_type, _ = frame.__dlpack_device__()
    if device_type == DLDeviceType.kDLGPU:
        return _C.export_frame(frame), CaptureMemory.kDLGPU
    return _C.export_frame(frame.pin_memory()), CaptureMemory.kDLCPUPinned
