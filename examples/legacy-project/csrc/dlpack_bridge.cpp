// Hands frames to the capture service, a C library that exchanges tensors as DLPack capsules
// and accepts device memory or pinned host memory only.
#include <ATen/DLConvertor.h>
#include <ATen/dlpack.h>
#include <torch/extension.h>

#include <string>

namespace legacy_ops {

// The service's protocol names the memory kinds "kDLGPU" and "kDLCPUPinned"; its docs still
// describe a DLContext. `frames_kDLGPU_total` counts the device frames sent so far.
static int64_t frames_kDLGPU_total = 0;

DLContext capture_context(const torch::Tensor& frame) {
  DLContext ctx;
  if (frame.is_cuda()) {
    ctx.device_type = kDLGPU;
    ctx.device_id = frame.get_device();
  } else {
    ctx.device_type = frame.is_pinned() ? kDLCPUPinned : kDLCPU;
    ctx.device_id = 0;
  }
  return ctx;
}

std::string device_name(const DLContext& ctx) {
  switch (ctx.device_type) {
    case kDLGPU:
      return "cuda:" + std::to_string(ctx.device_id);
    case kDLCPUPinned:
      return "cpu (pinned)";
    default:
      return "cpu";
  }
}

void delete_unconsumed(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    managed->deleter(managed);
  }
}

pybind11::capsule export_frame(const torch::Tensor& frame) {
  const DLContext ctx = capture_context(frame);
  TORCH_CHECK(ctx.device_type != kDLCPU, "the capture service takes kDLGPU or kDLCPUPinned memory, got ",
              device_name(ctx));
  if (ctx.device_type == kDLGPU) ++frames_kDLGPU_total;
  return pybind11::capsule(at::toDLPack(frame), "dltensor", &delete_unconsumed);
}

}  // namespace legacy_ops

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("export_frame", &legacy_ops::export_frame, "Wrap a frame as a DLPack capsule for the capture service");
  m.def("frames_sent_from_gpu", [] { return legacy_ops::frames_kDLGPU_total; });
}
