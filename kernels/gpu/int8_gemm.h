// The GEMM of the int8 tensor-core types (defined in gemv.cu, beside the
// kernels it launches), for gemm.cu.
#pragma once

#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

// y = W x over a.batch activations, for a type of Int8GemmTypes(kCuda) in a
// CUDA build. The arguments have passed CheckGemm; `workspace` holds
// GemmWorkspaceBytes(a.k).
LaunchStatus Int8Gemm(const GemmArgs& a, void* workspace, StreamHandle stream);

}  // namespace vt::gpu
