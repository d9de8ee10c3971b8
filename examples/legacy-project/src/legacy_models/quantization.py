"""Post-training dynamic quantization for CPU serving."""
import torch
from torch import nn
from torch.ao.quantization import quantize_dynamic


def quantize_for_cpu(model):
    model.eval()
    return quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
