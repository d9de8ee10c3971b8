// Declarations shared by the CPU and CUDA implementations of legacy_ops::fused_bias_gelu.
#pragma once

#include <torch/types.h>

namespace legacy_ops {

torch::Tensor fused_bias_gelu_cpu(const torch::Tensor& input, const torch::Tensor& bias);
torch::Tensor fused_bias_gelu_cuda(const torch::Tensor& input, const torch::Tensor& bias);

}  // namespace legacy_ops
