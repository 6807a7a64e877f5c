// The GEMMs that run on the GEMV's tensor-core kernels (defined in gemv.cu,
// beside the kernels they launch), for gemm.cu.
#pragma once

#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

// y = W x over a.batch activations, for a type of Int8GemmTypes(kCuda) in a
// CUDA build. The arguments have passed CheckGemm; `workspace` holds
// GemmWorkspaceBytes(a.k).
LaunchStatus Int8Gemm(const GemmArgs& a, void* workspace, StreamHandle stream);

// y = W x over a.batch activations, for F16 or BF16 in a CUDA build (the
// arguments have passed CheckGemm).
LaunchStatus FloatMmaGemm(const GemmArgs& a, StreamHandle stream);

}  // namespace vt::gpu
