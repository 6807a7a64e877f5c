// vt::kernels_gpu: expand to BF16, keep-quant GEMV, expert GEMV and GEMM on the
// device, for every type in registry.h. No vendor include: pointers are
// device pointers, `stream` is the vendor's stream handle (cudaStream_t or
// hipStream_t) or nullptr for the default stream. Launches are asynchronous.
// Arguments are checked before anything is launched: a refused call writes
// nothing. Otherwise an error is the runtime's report of a failed launch.
// A call queues launches on `stream` and nothing else (no allocation, no
// synchronization), so it may be captured into a CUDA graph, its first
// call included; a replay reads the pointers' contents at replay time
// (tests/device: the graph test cases).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vt/kernels/gpu/registry.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

using StreamHandle = void*;

// Empty when the launch was queued; otherwise what was refused and why.
struct LaunchStatus {
  std::string error;
  bool ok() const { return error.empty(); }
};

// Expands `n` values of `type` (whole blocks; for F32/F16/BF16 a multiple
// of 32) to BF16, rounding to nearest even: the same bits as
// cpu::DequantizeRowBf16, except that a NaN (from a NaN or infinite scale,
// or a NaN float) comes out as a NaN with the device's bits. `blocks` and
// `out` 16-byte aligned.
LaunchStatus ExpandToBf16(GgmlType type, const void* blocks, uint16_t* out, int64_t n, StreamHandle stream);

// A matrix in its file blocks times activations: y[b][r] = sum_k W[r][k] *
// x[b][k] for b < batch, W `rows` x `k` with rows contiguous. `weights`
// 16-byte aligned; `k` whole blocks (registry.h, KernelBlockValues).
struct MatmulArgs {
  GgmlType type = GgmlType::kF32;
  const void* weights = nullptr;
  int64_t rows = 0;
  int64_t k = 0;
  const float* x = nullptr;  // [batch][k], 16-byte aligned
  int batch = 1;
  float* y = nullptr;        // [batch][rows]
  // Gemv only (Gemm refuses it): the workspace already holds x as
  // QuantizeActivations queued it for the same type, k, batch and x, and
  // nothing has written the workspace since. A block type then launches no
  // quantizer of its own, so GEMVs that multiply one x (a layer's q, k and
  // v projections, or its gate and up ones, where they share a type) can
  // share one (a GEMV on tensor cores still launches a small kernel that
  // zeroes y, which it adds into). The plain floats read x either way, so x
  // is still required.
  bool x_quantized = false;
};

// Decode, batch 1-8: the weights are read once for the whole batch. Block
// types (kIntegerGemvTypes) quantize x to int8 per 32 values first (into
// `workspace`; per block on the tensor cores for kBlockScaledGemvTypes);
// F32, F16 and BF16 read x as floats. On CUDA, F16 and BF16 from batch 2
// run on 16-bit float tensor cores (batch 1 too, where their rows fill
// under a third of a wave of the plain kernel's blocks, or 1 to 1.25
// waves), each activation split into two values of the weights' type so
// that the result keeps float accuracy (F16's scaled by a power of two per
// 32 values, so any finite x fits its range); where their rows are too few
// to fill the device (a 4096-row matrix), clusters of 2-8 blocks split k
// and add their sums in a fixed order, so y is the same from run to run.
// On CUDA every block type runs on int8 tensor cores from a batch chosen
// per type (1 for TQ1_0, TQ2_0, Q1_0, Q2_0, Q2_K and Q3_K, else 2 to 5),
// adding partial row sums into y atomically: there y's last bits may differ
// between runs. Below that batch, the block types that read their blocks
// straight from global memory (Q4_0, Q5_0, Q5_1, Q4_K, Q5_K, IQ2_XXS,
// IQ4_NL, IQ4_XS, MXFP4, NVFP4), and Q6_K, split k over clusters at batch
// 1 where their rows are too few to fill the device, in a fixed order as
// above.
using GemvArgs = MatmulArgs;

// Prefill, any batch (GEMV serves 1-8 better). On CUDA the types of
// Int8GemmTypes (registry.h) make one pass over the weights per
// kGemmColumns activations (a last pass of at most 8 runs the GEMV): x
// quantized to int8 per 32 values, each decoded weight chunk multiplied
// with all of the pass's activations on int8 tensor cores, partial sums
// added into y atomically (y's last bits may differ between runs). F16 and
// BF16 on CUDA run their activations on a tiled tensor-core GEMM (tiles of
// 128 rows by 64 activations, each activation split into two 16-bit
// values as the GEMV splits it; k split over clusters of 2-8 blocks where
// the tiles are too few to fill the device or their last wave would leave
// it mostly idle, in a fixed order), the last tile partial where more than
// 32 activations are left past the whole ones; at most 32 left run on the
// GEMV's 16-bit float tensor-core kernel in one pass over the weights (8
// or fewer on the GEMV); y is the same from run to run. The other types, and every type built as
// HIP, decode weight tiles to floats in shared memory and multiply them on
// tensor cores in TF32 (10-bit mantissa inputs, float accumulation) or, on
// HIP, with FMAs. Block types take a workspace of GemmWorkspaceBytes(k) on
// every backend (HIP leaves it unused).
using GemmArgs = MatmulArgs;

// MoE decode: for each slot s < count, y[s] = W[ids[s]] x_s over a stacked
// [experts][rows][k] tower, in one launch. x_s is x (shared_x) or x + s*k.
// An id outside [0, experts) yields NaN rows for its slot. The workspace is
// GemvWorkspaceBytes(k, shared_x ? 1 : count).
struct ExpertGemvArgs {
  GgmlType type = GgmlType::kF32;
  const void* tower = nullptr;
  int64_t experts = 0;
  int64_t rows = 0;
  int64_t k = 0;
  const int32_t* ids = nullptr;  // device, [count]
  int count = 0;
  const float* x = nullptr;
  bool shared_x = true;
  float* y = nullptr;  // [count][rows]
  // The caller's promise that no launch after the ids' writer can start
  // before they are final: the writer is a copy, or a kernel that never
  // lets the next launch start early (an ordinary kernel, which does not
  // call cudaTriggerProgrammaticLaunchCompletion), or something of that
  // kind (or an event wait) lies between the writer and this call (see
  // below). With an ordinary router kernel, an MoE layer's gate, up and
  // down projections all qualify; ids written by a kernel that lets the
  // next launch start early (as vt's own kernels do), with nothing of that
  // kind after it, do not.
  bool ids_settled = false;
  // The workspace already holds x as QuantizeExpertActivations queued it
  // for the same type, k, x, shared_x and count, and nothing has written
  // the workspace since: a block type then launches no quantizer of its own,
  // so the gate and up projections of an MoE layer can share one (an
  // expert GEMV on tensor cores still launches a small kernel that zeroes
  // y, which it adds into). The plain floats read x either way, so x is
  // still required.
  bool x_quantized = false;
};

inline constexpr int kMaxGemvBatch = 8;

// Device bytes the GEMV needs in `workspace` for `activations` rows of k
// (integer path: int8 codes, then a 16-byte scale record per 32 values; 1 to
// 8 activations take the room of 8, the tensor-core layout, which some
// types use from batch 1; the float path needs none, but a workspace of
// this size always suffices).
constexpr size_t GemvWorkspaceBytes(int64_t k, int activations) {
  const int columns = activations >= 1 && activations <= kMaxGemvBatch ? kMaxGemvBatch : activations;
  const size_t codes = static_cast<size_t>(k) * static_cast<size_t>(columns);
  return (codes + 15) / 16 * 16 + codes / 32 * 16;
}

// Each GEMV and GEMM of a block type quantizes x in a launch of its own
// (but a Gemv with x_quantized), and its main kernel may start while the
// kernels queued before it in `stream` finish (CUDA's programmatic
// dependent launch). Gemv and Gemm of block types read W before they wait
// for them (on CUDA's tensor cores at any batch; below them, at batch 1-2,
// most block types), so the call must not overlap the end of a kernel that
// writes W: write W with a copy, or queue something that is not a
// programmatic launch (a copy, an event wait, a plain kernel) between its
// writer and the call. vt's own kernels never write block-type
// weights. ExpertGemv asks the same of W and its ids when ids_settled is
// true, and then reads both early as Gemv reads W; when it is false, it asks
// nothing of the kind: where it reads its ids and W early, its main kernel
// starts only once every kernel queued before the call has finished. Whatever
// they read early, all of them write y (and the workspace) only after every
// kernel queued before the call has finished, so a kernel before the call may
// still be reading y.
LaunchStatus Gemv(const GemvArgs& args, void* workspace, size_t workspace_bytes, StreamHandle stream);
// Queues the quantizer of Gemv(args) alone: args.x into `workspace`, laid
// out as the GEMV of args.type at args.batch reads it, for Gemv calls with
// x_quantized (see there). It checks args as Gemv does; for the plain
// floats it queues nothing. Like Gemv's own, it writes the workspace only
// after every kernel queued before it has finished.
LaunchStatus QuantizeActivations(const GemvArgs& args, void* workspace, size_t workspace_bytes, StreamHandle stream);
LaunchStatus ExpertGemv(const ExpertGemvArgs& args, void* workspace, size_t workspace_bytes, StreamHandle stream);
// Queues the quantizer of ExpertGemv(args) alone: args.x into `workspace`,
// laid out as the expert GEMV of args.type reads it, for ExpertGemv calls
// with x_quantized (see there). It checks args as ExpertGemv does; for the
// plain floats it queues nothing.
LaunchStatus QuantizeExpertActivations(const ExpertGemvArgs& args, void* workspace, size_t workspace_bytes,
                                       StreamHandle stream);
// Device bytes the GEMM of a block type needs in `workspace` (plain floats
// need none; a workspace of this size always suffices).
inline constexpr int kGemmColumns = 64;
constexpr size_t GemmWorkspaceBytes(int64_t k) { return GemvWorkspaceBytes(k, kGemmColumns); }

LaunchStatus Gemm(const GemmArgs& args, void* workspace, size_t workspace_bytes, StreamHandle stream);

}  // namespace vt::gpu
