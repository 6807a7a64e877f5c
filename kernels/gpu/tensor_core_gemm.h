// The tensor-core GEMMs of CUDA builds, for gemm.cu: those that run on the
// GEMV's kernels (defined in gemv.cu, beside the kernels they launch) and
// the tiled GEMM of the 16-bit floats (float_gemm.cu).
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

// The F16 and BF16 GEMM runs its activations in tiles of kFloatTileBatch
// on FloatTileGemm, the last tile partial where more than
// kFloatMmaGemmMost would be left past the whole ones; at most that many
// left run on FloatMmaGemm instead (GPU_TUNING.md has the runs).
inline constexpr int kFloatTileBatch = 64;
inline constexpr int kFloatMmaGemmMost = 32;

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
