"""ONNX export for the runtime team (TorchScript exporter) and the new dynamo-based path."""
import torch


def export_onnx(model, args, path):
    torch.onnx.export(
        model,
        args,
        path,
        input_names=["x"],
        output_names=["logits"],
        dynamic_axes={"x": {0: "batch"}, "logits": {0: "batch"}},
    )


def export_onnx_dynamo(model, args, path):
    torch.onnx.export(model, args, path, dynamo=True)


def export_onnx_program(model, args, path):
    program = torch.onnx.dynamo_export(model, *args)
    program.save(path)
