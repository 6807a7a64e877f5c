#include "activation_q8.cuh"

namespace vt::gpu {

__global__ void QuantizeActivationsQ8(const float* x, int64_t runs, Q8Activations out) {
  StartDependentKernel();  // the GEMV may launch now; it waits for this grid before reading `out`
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / kWarpSize);
  for (int64_t run = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize; run < runs;
       run += warps) {
    const float v = x[run * kWarpSize + lane];
    const float amax = WarpMax(fabsf(v));
    const float d = amax / 127.0f;
    const int q = amax == 0.0f ? 0 : static_cast<int>(roundf(v * (127.0f / amax)));
    out.codes[run * kWarpSize + lane] = static_cast<int8_t>(q);
    const int half_sum = GroupSum<16>(q);
    const int upper_sum = ShuffleXor(half_sum, 16);
    if (lane == 0) out.scales[run] = make_float4(d, d * static_cast<float>(half_sum), d * static_cast<float>(upper_sum), 0.0f);
  }
}

}  // namespace vt::gpu
