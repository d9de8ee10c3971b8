// Schema and CPU kernel of legacy_ops::fused_bias_gelu (the CUDA kernel is in
// bias_gelu_kernel.cu). Only torch/types.h is included: enough for tensors and dtypes.
#include <torch/types.h>

#include <cmath>

#include "legacy_ops.h"

namespace legacy_ops {

torch::Tensor fused_bias_gelu_cpu(const torch::Tensor& input, const torch::Tensor& bias) {
  TORCH_CHECK(input.size(-1) == bias.size(0), "bias must match the last dimension of input");
  const torch::Tensor x = input + bias;
  return x * 0.5 * (1.0 + torch::erf(x * M_SQRT1_2));
}

}  // namespace legacy_ops

TORCH_LIBRARY(legacy_ops, m) {
  m.def("fused_bias_gelu(Tensor input, Tensor bias) -> Tensor");
}

TORCH_LIBRARY_IMPL(legacy_ops, CPU, m) {
  m.impl("fused_bias_gelu", &legacy_ops::fused_bias_gelu_cpu);
}
