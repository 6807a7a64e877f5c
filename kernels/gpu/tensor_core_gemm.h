// The tensor-core GEMMs of CUDA builds, for gemm.cu: those that run on the
// GEMV's kernels (defined in gemv.cu, beside the kernels they launch) and
// the tiled GEMM of the 16-bit floats (float_gemm.cu).
#pragma once

#include "float_tile_split.h"
#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

// y = W x over a.batch activations, for a type of Int8GemmTypes(kCuda) in a
// CUDA build. The arguments have passed CheckGemm; `workspace` holds
// GemmWorkspaceBytes(a.k).
LaunchStatus Int8Gemm(const GemmArgs& a, void* workspace, StreamHandle stream);

// y = W x over a.batch activations, for F16 or BF16 in a CUDA build (the
// arguments have passed CheckGemm); gemm.cu gives it the activations
// TiledActivations leaves.
LaunchStatus FloatMmaGemm(const GemmArgs& a, StreamHandle stream);

// Activations first .. first + count - 1 of the GEMM `a`.
inline GemmArgs ActivationsOf(const GemmArgs& a, int64_t first, int64_t count) {
  GemmArgs part = a;
  part.x = a.x + first * a.k;
  part.y = a.y + first * a.rows;
  part.batch = static_cast<int>(count);
  return part;
}

// y = W x over a.batch activations for F16 or BF16 in a CUDA build (the
// arguments have passed CheckGemm), on tiles of W x kFloatTileBatch
// activations (float_gemm.cu); a last, partial tile costs as much as a
// whole one.
LaunchStatus FloatTileGemm(const GemmArgs& a, StreamHandle stream);

}  // namespace vt::gpu
