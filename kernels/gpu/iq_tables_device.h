// The IQ codebooks and the IQ4 / FP4 value tables as device constants
// (vt::gpu::iq), from the same generated definitions as the CPU's.
// Format constants from ggml (MIT), see NOTICE.
#pragma once

#include "gpu_dialect.h"

namespace vt::gpu::iq {
#define VT_IQ_TABLE __device__ const
#include "../formats/iq_codebooks.inc"
#undef VT_IQ_TABLE
}  // namespace vt::gpu::iq

// The same as compile-time constants, for kernels that fold small tables
// into immediates.
namespace vt::gpu::iq_constants {
#define VT_IQ_TABLE constexpr
#include "../formats/iq_codebooks.inc"
#undef VT_IQ_TABLE
}  // namespace vt::gpu::iq_constants
