// CUDA kernel of legacy_ops::fused_bias_gelu, wrapped in an NVTX range for Nsight timelines.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <nvtx3/nvToolsExt.h>
#include <torch/library.h>

#include "legacy_ops.h"

namespace legacy_ops {
namespace {

template <typename scalar_t>
__global__ void bias_gelu_kernel(const scalar_t* __restrict__ input, const scalar_t* __restrict__ bias,
                                 scalar_t* __restrict__ out, int64_t numel, int64_t features) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i >= numel) return;
  const float x = static_cast<float>(input[i]) + static_cast<float>(bias[i % features]);
  out[i] = static_cast<scalar_t>(0.5f * x * (1.0f + erff(x * 0.70710678f)));
}

}  // namespace

torch::Tensor fused_bias_gelu_cuda(const torch::Tensor& input, const torch::Tensor& bias) {
  TORCH_CHECK(input.is_cuda() && bias.is_cuda(), "fused_bias_gelu expects CUDA tensors");
  TORCH_CHECK(input.size(-1) == bias.size(0), "bias must match the last dimension of input");
  const c10::cuda::CUDAGuard guard(input.device());
  const torch::Tensor x = input.contiguous();
  const torch::Tensor b = bias.contiguous();
  torch::Tensor out = torch::empty_like(x);
  const int64_t numel = x.numel();
  if (numel == 0) return out;

  nvtxRangePushA("legacy_ops::fused_bias_gelu");
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((numel + kThreads - 1) / kThreads);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "bias_gelu", [&] {
    bias_gelu_kernel<scalar_t><<<blocks, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), numel, b.numel());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  nvtxRangePop();
  return out;
}

}  // namespace legacy_ops

// Frames imported from the capture service (kDLGPU memory, see dlpack_bridge.cpp) run here too.
TORCH_LIBRARY_IMPL(legacy_ops, CUDA, m) {
  m.impl("fused_bias_gelu", &legacy_ops::fused_bias_gelu_cuda);
}
