"""Export every model in every format the serving stack consumes.

Usage: python scripts/export_all.py --out build/artifacts
"""
import argparse
import logging
import pathlib

import torch

from legacy_models import TinyClassifier, TokenEncoder
from legacy_models.compiling import compile_aot
from legacy_models.exporting import DiskExporter, ProgramStore, export_for_serving, export_program
from legacy_models.models import example_inputs
from legacy_models.onnx_export import export_onnx, export_onnx_dynamo
from legacy_models.quantization import quantize_for_cpu

log = logging.getLogger("export_all")


def export(name, fn, *args):
    """Run one export step and log it (the script's own helper, not torch.export)."""
    log.info("exporting %s", name)
    return fn(*args)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("artifacts"))
    parser.add_argument("--skip-aot", action="store_true")
    opts = parser.parse_args()
    opts.out.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO)

    inputs = example_inputs()
    classifier = TinyClassifier().eval()
    encoder = TokenEncoder().eval()
    store = ProgramStore(DiskExporter(), str(opts.out))

    program = export("classifier", export_for_serving, classifier, inputs["classifier"])
    store.save("classifier", program)
    program = export("encoder", export_program, encoder, inputs["encoder"])
    store.save("encoder", program)

    export("classifier.onnx", export_onnx, classifier, inputs["classifier"], str(opts.out / "classifier.onnx"))
    export("encoder.onnx", export_onnx_dynamo, encoder, inputs["encoder"], str(opts.out / "encoder.onnx"))

    quantized = quantize_for_cpu(TinyClassifier().eval())
    torch.save(quantized.state_dict(), opts.out / "classifier_int8.pt")

    if not opts.skip_aot:
        compile_aot(classifier, inputs["classifier"], str(opts.out / "classifier.pt2"))


if __name__ == "__main__":
    main()
