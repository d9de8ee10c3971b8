"""torch.export helpers used by the serving and fine-tuning pipelines."""
import torch
import torch.export as te
from torch.export import Dim, export_for_inference as efi


def export_program(model, args):
    """Graph capture for the AOTInductor package."""
    return torch.export.export(model, args)


def export_strict(model, args):
    # Already explicit: nothing to migrate here.
    return torch.export.export(model, args, strict=True)


def export_for_finetuning(model, args):
    batch = Dim("batch", min=2, max=256)
    dynamic_shapes = tuple({0: batch} for _ in args)
    return te.export_for_training(model, args, dynamic_shapes=dynamic_shapes)


def export_for_serving(model, args):
    return efi(model, args)


def export_decomposed(model, args, decomp_table=None):
    return te.export_for_inference(model, args, decomp_table=decomp_table)


class ProgramStore:
    """Writes exported programs through a pluggable exporter (local disk, object store...)."""

    def __init__(self, exporter, root):
        self.exporter = exporter
        self.root = root

    def save(self, name, program):
        path = f"{self.root}/{name}.pt2"
        self.exporter.export(program, path)
        return path


class DiskExporter:
    def export(self, program, path):
        torch.export.save(program, path)
