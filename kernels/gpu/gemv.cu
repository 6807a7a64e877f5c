// Keep-quant GEMV, expert GEMV and GEMM: which kernel each call takes, and
// its launch. The dp4a and plain-float kernel is gemv_rows.cuh's; larger
// batches of the types with a fragment decoder run on tensor cores instead
// (gemv_tensor_core.cuh), as do their GEMM (LaunchInt8Gemm below) and a
// few types' expert GEMV; so do F16's and BF16's from batch 2
// (gemv_float_mma.cuh). The per-type choices are in gemv_tuning.cuh
// (gemv_tensor_core_tuning.cuh for the tensor-core kernel's).
#include <limits>
#include <utility>

#include "cluster_split.cuh"
#include "gemv_float_mma.cuh"
#include "gemv_params.cuh"
#include "gemv_rows.cuh"
#include "gemv_tensor_core.cuh"
#include "gemv_tuning.cuh"
#include "launch_checks.h"
#include "tensor_core_gemm.h"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

#if !defined(VT_HIP)
// kTensorCoreGemvTypes (registry.h), which the GEMM hands to this GEMV, lists
// exactly the types with a fragment decoder.
template <size_t... I>
constexpr bool TensorCoreListMatches(std::index_sequence<I...>) {
  return ((kTensorCoreGemv<kDecodedTypes[I]> == SetOf(kTensorCoreGemvTypes).Contains(kDecodedTypes[I])) && ...);
}
static_assert(TensorCoreListMatches(std::make_index_sequence<kDecodedTypes.size()>{}),
              "kTensorCoreGemvTypes must list exactly the types with a fragment decoder");
#endif

// Queues the activation quantizer: p.xf's `activations` rows into the room
// of `columns` in `workspace` (p.xq), laid out as `layout`, after zeroing
// the first `clear` floats of p.y. It may launch while the kernel before it
// finishes and waits for that kernel on the device before touching memory;
// with `release_after_wait` the GEMV behind it launches only after that.
// group_runs: runs of 32 under one scale (activation_q8.cuh).
cudaError_t QueueQuantizer(GemvParams& p, Q8Layout layout, int activations, int columns, int64_t clear,
                           void* workspace, cudaStream_t stream, bool release_after_wait = false, int group_runs = 1) {
  p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, columns);
  const int64_t warps = static_cast<int64_t>(columns) * p.chunks / group_runs;
  const int64_t quant_blocks = (warps * kWarpSize + 255) / 256;
  const dim3 grid(static_cast<unsigned>(quant_blocks < 65535 ? quant_blocks : 65535));
  auto* const kernel = layout == Q8Layout::kMmaTileBlockWords
                           ? (release_after_wait ? QuantizeActivationsQ8BlockWordsReleasedAfterWait
                                                 : QuantizeActivationsQ8BlockWords)
                       : release_after_wait ? QuantizeActivationsQ8ReleasedAfterWait
                                            : QuantizeActivationsQ8;
  return LaunchAfterPrevious(kernel, grid, dim3(256), stream, p.xf, layout, activations, columns,
                             static_cast<int64_t>(p.chunks), group_runs, p.xq, p.y, clear);
}

// Queues the zeroing of y's first `clear` floats (ClearAfterPrevious), for a
// tensor-core expert GEMV whose activations an earlier call quantized;
// `release_after_wait` as in QueueQuantizer.
cudaError_t QueueClear(float* y, int64_t clear, cudaStream_t stream, bool release_after_wait) {
  const int64_t blocks = (clear + 255) / 256;
  const dim3 grid(static_cast<unsigned>(blocks < 65535 ? blocks : 65535));
  return LaunchAfterPrevious(release_after_wait ? ClearAfterPreviousReleasedAfterWait : ClearAfterPrevious, grid,
                             dim3(256), stream, y, clear);
}

// Whether an expert GEMV of T with `activations` (1 for a shared x) runs on
// the tensor cores: its activations then fill one tile, in T's tensor-core
// layout, whether its own quantizer or QuantizeExpertActivations writes them.
template <GgmlType T>
constexpr bool TensorCoreExpert(int activations) {
  return kTensorCoreExpertGemv<T> && activations <= kQ8TileColumns;
}

// The activation layout of T's dp4a GEMV (every GEMV below the tensor
// cores, and every expert GEMV).
template <GgmlType T>
constexpr Q8Layout kDp4aGemvLayout = kNibblePairGemv<T>     ? Q8Layout::kNibblePairs
                                     : kSubBlockPairGemv<T> ? Q8Layout::kSubBlockPairs
                                                            : Q8Layout::kRows;

#if !defined(VT_HIP)
// Types whose plain batch-1 GEMV splits k over clusters where its rows are
// too few to fill the device: those that read their blocks straight from
// global memory there (DirectRows), and the kStagedClusterSplit ones
// (StagedRows, each block a run of spans); the other staged ones keep
// whole rows.
template <GgmlType T>
constexpr bool kClusterSplitGemv = kUsesIntegerGemv<T> && (!kStagedGemv<T> || kStagedClusterSplit<T>) &&
                                   !kStagedAtFewRows<T> && !kBatchOneOnTwoActivationKernel<T> &&
                                   kTensorCoreMinBatch<T> > 1;
// The fewest chunks a block of such a cluster keeps: two for each lane.
constexpr int kClusterSplitMinChunks = 2 * kWarpSize;
// The sizes BatchOneFill's estimate assumes, by which some types choose
// their rows a warp: powers of two, though the launch takes any size
// (LaunchClusterSplitGemv). Every size in both, measured as one change,
// lost for Q4_K, MXFP4 and IQ4_XS at 3072 x 8192.
constexpr ClusterSizes kClusterSplitFillSizes = ClusterSizes::kPowersOfTwo;

// A block's run of k in T's plain batch-1 GEMV of R rows a warp as
// FewestStepsClusterSplit counts it: a staged type's spans one at a time,
// a direct type's chunks a lane's pass (a warp's chunks) at a time, times
// the loop's unroll.
template <GgmlType T, int R, bool kEarly>
RunSteps ClusterSplitRun(const GemvParams& p) {
  if constexpr (kStagedGemv<T>) return {(p.chunks + kWarpSize - 1) / kWarpSize, 1};
  return {p.chunks, int64_t{kWarpSize} * kDirectRowsUnroll<T, R, 1, kEarly>};
}

// Launches T's plain batch-1 GEMV (R rows a warp, kEarly as GemvKernel's)
// over `blocks` blocks, k split over clusters of the size
// FewestStepsClusterSplit takes: any size that fits one wave with a place
// to spare, the fewest steps a block, which measured up to 1.41x faster
// than powers of two at a model's few-row shapes. Timed as CUDA graphs,
// its split read within 3.5% of the fastest forced one for eleven types
// at six such shapes (within 1% for 58 of the 66). Taking the largest
// size that fits instead lost where that saved no step (Q4_0 at 2048 x
// 16384, 5 in place of 4, by 8%); a wave with no place to spare cost
// IQ4_XS's default call a tenth (2048 x 28672, clusters of 5 in place of
// 4).
template <GgmlType T, int R, bool kEarly>
cudaError_t LaunchClusterSplitGemv(const GemvParams& p, int64_t blocks, cudaStream_t stream) {
  constexpr auto kWhole = GemvKernel<T, R, 1, kEarly, false>;
  constexpr auto kSplit = GemvKernel<T, R, 1, kEarly, true>;
  const int most = p.chunks / kClusterSplitMinChunks;
  const auto fewest_steps = [&](std::span<const int64_t> at_once) {
    return FewestStepsClusterSplit(blocks, most, at_once, ClusterSplitRun<T, R, kEarly>(p));
  };
  int split = 1;
  if (const cudaError_t error = ChooseClusterSplit<kWhole, kSplit, kGemvThreads>(blocks, most, fewest_steps, split);
      error != cudaSuccess) {
    return error;
  }
  if (split == 1) {
    return LaunchAfterPrevious(kWhole, dim3(static_cast<unsigned>(blocks)), dim3(kGemvThreads), stream, p);
  }
  return LaunchClustersAfterPrevious(kSplit, dim3(static_cast<unsigned>(blocks * split)), dim3(kGemvThreads),
                                     static_cast<unsigned>(split), stream, p);
}

// How many waves of the blocks the device holds at once (`resident`) a grid
// of `blocks` blocks of kKernel takes (`waves`, fractional).
template <auto kKernel>
cudaError_t Waves(int64_t blocks, int64_t& resident, double& waves) {
  if (const cudaError_t error = ResidentBlocks<kKernel, kGemvThreads>(resident); error != cudaSuccess) return error;
  waves = static_cast<double>(blocks) / static_cast<double>(resident);
  return cudaSuccess;
}

// How much of the device a plain batch-1 launch of T at R rows a warp
// (held to eight blocks a SM with kEightBlocks) keeps busy (`fill`): from
// one wave of the blocks it holds at once, its waves over the whole waves
// they take; under one, its blocks (times the cluster split of
// kClusterSplitFillSizes, for a kClusterSplitGemv type) over those it
// holds.
template <GgmlType T, int R, bool kEightBlocks = false>
cudaError_t BatchOneFill(const GemvParams& p, double& fill) {
  static_assert(!kEightBlocks || !kClusterSplitGemv<T>, "eight blocks a SM only for whole rows");
  constexpr auto kWhole = GemvKernel<T, R, 1, kEarlyWeightsGemv<T>, false, kEightBlocks>;
  const int64_t blocks = RowBlocks<R>(p.rows);
  int64_t resident = 0;
  double waves = 0.0;
  if (const cudaError_t error = Waves<kWhole>(blocks, resident, waves); error != cudaSuccess) return error;
  if (waves >= 1.0) {
    fill = waves / static_cast<double>((blocks + resident - 1) / resident);
    return cudaSuccess;
  }
  int split = 1;
  if constexpr (kClusterSplitGemv<T>) {
    constexpr auto kSplit = GemvKernel<T, R, 1, kEarlyWeightsGemv<T>, true>;
    const int most = p.chunks / kClusterSplitMinChunks;
    const auto largest = [&](std::span<const int64_t> at_once) {
      return LargestClusterSplit(blocks, most, at_once, kClusterSplitFillSizes);
    };
    if (const cudaError_t error = ChooseClusterSplit<kWhole, kSplit, kGemvThreads>(blocks, most, largest, split);
        error != cudaSuccess) {
      return error;
    }
  }
  fill = waves * split;
  return cudaSuccess;
}

// The rows a warp other than kGemvRowsAtBatchOne that a kBatchOneRowsByFill
// type's batch-1 GEMV may take.
template <GgmlType T>
constexpr int kOtherBatchOneRows = kGemvRowsAtBatchOne<T> == 3 ? 2 : 3;

// Whether T's plain batch-1 kernel of R rows a warp (held to eight blocks a
// SM with kEightBlocks) keeps the device busier than its own kernel
// (kGemvRowsAtBatchOne rows, its own blocks a SM) by more than a twentieth,
// as BatchOneFill measures it (`better`): the choice of a
// kBatchOneRowsByFill type's rows a warp, and of a kBatchOneBlocksByFill
// type's blocks a SM.
template <GgmlType T, int R, bool kEightBlocks>
cudaError_t FillsBetter(const GemvParams& p, bool& better) {
  double fill = 0.0, fill_other = 0.0;
  cudaError_t error = BatchOneFill<T, kGemvRowsAtBatchOne<T>>(p, fill);
  if (error == cudaSuccess) error = BatchOneFill<T, R, kEightBlocks>(p, fill_other);
  better = error == cudaSuccess && fill_other > fill + 0.05;
  return error;
}

// Whether F16's or BF16's batch 1 runs on the 16-bit float tensor-core
// kernel rather than FloatRows (`yes`): where FloatRows' blocks leave the
// device short, fewer than kFloatMmaBatchOneWaves of the blocks it holds at
// once, or a second wave of fewer than kFloatMmaBatchOneTail of them (its
// per-warp loads then wait on memory with few warps to cover them, and the
// tensor-core kernel splits k over clusters instead).
template <GgmlType T>
cudaError_t FloatMmaAtBatchOne(const GemvParams& p, bool& yes) {
  yes = false;
  int64_t resident = 0;
  double waves = 0.0;
  if (const cudaError_t error = Waves<GemvKernel<T, kGemvRowsAtBatchOne<T>, 1, false>>(
          RowBlocks<kGemvRowsAtBatchOne<T>>(p.rows), resident, waves);
      error != cudaSuccess) {
    return error;
  }
  yes = waves < kFloatMmaBatchOneWaves || (waves > 1.0 && waves < 1.0 + kFloatMmaBatchOneTail);
  return cudaSuccess;
}
#endif

// How a GEMV's inputs came about (ExpertGemvArgs' ids_settled and
// x_quantized, MatmulArgs' x_quantized); a plain GEMV's ids_settled and a
// GEMM pass's both take the defaults.
struct GemvInputs {
  bool ids_settled = false;
  bool x_quantized = false;
};

// Whether the GEMV of T over p, with `activations` of them (1 for an expert
// GEMV's shared x), runs on the tensor cores; its activations then take
// T's tensor-core layout, one tile of them.
template <GgmlType T>
bool OnTensorCores(const GemvParams& p, int activations) {
  return kTensorCoreGemv<T> && p.row_bytes <= std::numeric_limits<int>::max() &&
         (p.ids == nullptr ? p.batch >= kTensorCoreMinBatch<T> : TensorCoreExpert<T>(activations));
}

// Queues the quantizer alone of the GEMV of T over p (a block type), as
// QuantizeActivations and QuantizeExpertActivations do for callers that
// share it; `entry` names the caller in errors.
template <GgmlType T>
LaunchStatus QueueSharedQuantizer(GemvParams p, int activations, void* workspace, cudaStream_t stream,
                                  const char* entry) {
  const cudaError_t queued =
      OnTensorCores<T>(p, activations)
          ? QueueQuantizer(p, kTensorCoreGemvLayout<T>, activations, kQ8TileColumns, 0, workspace, stream, false,
                           kTensorCoreGroupRuns<T>)
          : QueueQuantizer(p, kDp4aGemvLayout<T>, activations, activations, 0, workspace, stream);
  if (queued != cudaSuccess) return {std::string(entry) + ": launch failed: " + cudaGetErrorString(queued)};
  return LastLaunch(entry);
}

// Quantizes the activations (integer path; not with inputs.x_quantized,
// whose workspace holds them already) and launches the GEMV of type T.
template <GgmlType T>
LaunchStatus LaunchGemv(GemvParams p, int activations, int slots, void* workspace, cudaStream_t stream,
                        const char* entry, GemvInputs inputs = {}) {
  static_assert(kTensorCoreGroupRuns<T> <= kMaxGroupRuns, "a group a warp can quantize");
  const bool tensor_cores = OnTensorCores<T>(p, activations);
  // An expert GEMV of a type that reads W before its wait in the plain
  // GEMV reads its ids and weights early too: with settled ids behind a
  // quantizer (if any) that releases it at once, as there; otherwise behind
  // its own quantizer, which must then release it only after its own wait
  // (with x_quantized and ids not settled there is none, so it waits first).
  const bool early_expert =
      p.ids != nullptr && kEarlyWeightsGemv<T> && (inputs.ids_settled || !inputs.x_quantized);
  if constexpr (kUsesIntegerGemv<T>) {
    cudaError_t queued = cudaSuccess;
    if (tensor_cores) {  // it adds into y ([slots][rows] for an expert GEMV), zeroed first
      // Its kernel reads an expert's id before its wait, so with ids not
      // settled the launch before it releases it only after its own wait.
      const int64_t clear = static_cast<int64_t>(p.ids == nullptr ? p.batch : slots) * p.rows;
      const bool release_after_wait = p.ids != nullptr && !inputs.ids_settled;
      if (inputs.x_quantized) {
        p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, kQ8TileColumns);
        queued = QueueClear(p.y, clear, stream, release_after_wait);
      } else {
        queued = QueueQuantizer(p, kTensorCoreGemvLayout<T>, activations, kQ8TileColumns, clear, workspace, stream,
                                release_after_wait, kTensorCoreGroupRuns<T>);
      }
    } else if (inputs.x_quantized) {
      p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, activations);
    } else {
      queued = QueueQuantizer(p, kDp4aGemvLayout<T>, activations, activations, 0, workspace, stream,
                              early_expert && !inputs.ids_settled);
    }
    if (queued != cudaSuccess) return {std::string(entry) + ": quantizer launch failed: " + cudaGetErrorString(queued)};
  }
  if constexpr (kTensorCoreGemv<T>) {
    if (tensor_cores) {
      cudaError_t launched = cudaSuccess;
      if constexpr (kTensorCoreExpertGemv<T>) {
        launched = p.ids != nullptr ? LaunchTensorCoreGemv<T, 1, true>(p, stream, slots)
                                    : LaunchTensorCoreGemv<T, 1>(p, stream);
      } else {
        launched = LaunchTensorCoreGemv<T, 1>(p, stream);
      }
      if (launched != cudaSuccess) {
        return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
      }
      return LastLaunch(entry);
    }
  }
#if !defined(VT_HIP)
  if constexpr (T == GgmlType::kF16 || T == GgmlType::kBF16) {
    bool float_mma = false;  // the plain GEMV from kFloatMmaMinBatch, and batch 1 where FloatMmaAtBatchOne says
    if (p.ids == nullptr && p.batch >= kFloatMmaMinBatch) {
      float_mma = true;
    } else if (p.ids == nullptr) {
      if (const cudaError_t error = FloatMmaAtBatchOne<T>(p, float_mma); error != cudaSuccess) {
        return {std::string(entry) + ": device query failed: " + cudaGetErrorString(error)};
      }
    }
    if (float_mma) {
      if (const cudaError_t launched = LaunchFloatMmaGemv<T>(p, stream); launched != cudaSuccess) {
        return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
      }
      return LastLaunch(entry);
    }
  }
#endif
  auto launch = [&](auto rows_per_warp, auto activations) {
    constexpr int R = decltype(rows_per_warp)::value;
    constexpr int N = decltype(activations)::value;
    const dim3 grid(static_cast<unsigned>(RowBlocks<R>(p.rows)), static_cast<unsigned>(slots));
    if constexpr (kUsesIntegerGemv<T> && kEarlyWeightsGemv<T> && N <= kFewActivations) {
      if (p.ids == nullptr || early_expert) {
        return LaunchAfterPrevious(GemvKernel<T, R, N, true>, grid, dim3(kGemvThreads), stream, p);
      }
    }
    return LaunchAfterPrevious(GemvKernel<T, R, N, false>, grid, dim3(kGemvThreads), stream, p);
  };
  // The activation cap of the batch-1 kernel (and the expert GEMV's).
  using BatchOne = std::integral_constant<int, kBatchOneOnTwoActivationKernel<T> ? kFewActivations : 1>;
  using PlainRows = std::integral_constant<int, kGemvRowsAtFewActivations<T>>;
  using BatchOneRows = std::integral_constant<int, kGemvRowsAtBatchOne<T>>;
  cudaError_t launched;
  if (p.batch > kFewActivations) {
    launched = launch(std::integral_constant<int, kManyRows>{}, std::integral_constant<int, kMaxGemvBatch>{});
  } else if (p.batch == kFewActivations) {  // the plain GEMV (an expert GEMV has one activation per slot)
    launched = launch(PlainRows{}, std::integral_constant<int, kFewActivations>{});
  } else if (slots == 1 && p.ids != nullptr) {  // an expert GEMV of one expert
    launched = launch(BatchOneRows{}, BatchOne{});
  } else if (slots == 1) {  // the plain GEMV
#if !defined(VT_HIP)
    // R rows a warp, k split over clusters for a kClusterSplitGemv type.
    auto batch_one = [&](auto rows_per_warp) {
      if constexpr (kClusterSplitGemv<T>) {
        constexpr int R = decltype(rows_per_warp)::value;
        return LaunchClusterSplitGemv<T, R, kEarlyWeightsGemv<T>>(p, RowBlocks<R>(p.rows), stream);
      } else {
        return launch(rows_per_warp, BatchOne{});
      }
    };
    bool other = false, eight = false;  // the choices FillsBetter makes for the types that make them
    cudaError_t asked = cudaSuccess;
    if constexpr (kBatchOneRowsByFill<T>) asked = FillsBetter<T, kOtherBatchOneRows<T>, false>(p, other);
    if constexpr (kBatchOneBlocksByFill<T>) asked = FillsBetter<T, kGemvRowsAtBatchOne<T>, true>(p, eight);
    if (asked != cudaSuccess) return {std::string(entry) + ": device query failed: " + cudaGetErrorString(asked)};
    if constexpr (kBatchOneRowsByFill<T>) {
      launched = other ? batch_one(std::integral_constant<int, kOtherBatchOneRows<T>>{}) : batch_one(BatchOneRows{});
    } else if constexpr (kBatchOneBlocksByFill<T>) {
      static_assert(!kEarlyWeightsGemv<T> && !kClusterSplitGemv<T> && BatchOne::value == 1,
                    "the kernel launch() picks, held to eight blocks");
      launched = eight ? LaunchAfterPrevious(GemvKernel<T, BatchOneRows::value, BatchOne::value, false, false, true>,
                                             dim3(static_cast<unsigned>(RowBlocks<BatchOneRows::value>(p.rows))),
                                             dim3(kGemvThreads), stream, p)
                       : batch_one(BatchOneRows{});
    } else {
      launched = batch_one(BatchOneRows{});
    }
#else
    launched = launch(BatchOneRows{}, BatchOne{});
#endif
  } else {
    launched = launch(std::integral_constant<int, kExpertGemvRows<T>>{}, BatchOne{});
  }
  if (launched != cudaSuccess) return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
  return LastLaunch(entry);
}

// The parameters of `a`'s matrix times its activations first .. first +
// batch - 1.
GemvParams MatmulParams(const MatmulArgs& a, int64_t first, int batch) {
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.weights);
  p.row_bytes = RowBytes(a.type, a.k);
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.xf = a.x + first * a.k;
  p.batch = batch;
  p.y = a.y + first * a.rows;
  return p;
}

// The parameters of the expert GEMV `a` (checked).
GemvParams ExpertParams(const ExpertGemvArgs& a) {
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.tower);
  p.row_bytes = RowBytes(a.type, a.k);
  p.expert_bytes = p.row_bytes * a.rows;
  p.ids = a.ids;
  p.experts = a.experts;
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.xf = a.x;
  p.x_slot_stride = a.shared_x ? 0 : a.k;
  p.batch = 1;
  p.y = a.y;
  p.y_slot_stride = a.rows;
  return p;
}

// Activations of a GEMM pass: whole tiles of 8 the tensor-core kernel
// multiplies per decoded weight chunk.
constexpr int kGemmTiles = kGemmColumns / kQ8TileColumns;
static_assert(kGemmColumns % kQ8TileColumns == 0, "GEMM passes are whole tiles");
static_assert(kGemmPassTiles[0] < kGemmPassTiles[1] && kGemmPassTiles[1] < kGemmTiles, "narrower kernels, in order");

// A GEMM pass of more than 8 activations (quantized, y's columns zeroed) on
// the tensor-core kernel of the fewest tiles that hold them: of
// kGemmPassTiles, or else kGemmTiles.
template <GgmlType T>
cudaError_t LaunchGemmPass(const GemvParams& p, cudaStream_t stream) {
  const int tiles = (p.batch + kQ8TileColumns - 1) / kQ8TileColumns;
  if (tiles <= kGemmPassTiles[0]) return LaunchTensorCoreGemv<T, kGemmPassTiles[0]>(p, stream);
  if (tiles <= kGemmPassTiles[1]) return LaunchTensorCoreGemv<T, kGemmPassTiles[1]>(p, stream);
  return LaunchTensorCoreGemv<T, kGemmTiles>(p, stream);
}

// The GEMM of a tensor-core type T: passes over the weights, each with up
// to kGemmColumns activations (quantized into the workspace, y's columns
// zeroed, then the tensor-core kernel LaunchGemmPass picks); a pass of 8 or
// fewer is the GEMV's. The stream orders the passes.
template <GgmlType T>
LaunchStatus LaunchInt8Gemm(const GemmArgs& a, void* workspace, cudaStream_t stream) {
  if constexpr (!kTensorCoreGemv<T>) {
    return {"Gemm: type " + std::string(NameOf(T)) + " has no int8 tensor-core kernel"};
  } else {
    constexpr int kPass = kGemmColumns;
    for (int64_t b0 = 0; b0 < a.batch; b0 += kPass) {
      GemvParams p = MatmulParams(a, b0, static_cast<int>(a.batch - b0 < kPass ? a.batch - b0 : kPass));
      if (p.batch <= kMaxGemvBatch || p.row_bytes > std::numeric_limits<int>::max()) {
        for (int g0 = 0; g0 < p.batch; g0 += kMaxGemvBatch) {
          GemvParams group = p;
          group.xf = p.xf + g0 * a.k;
          group.y = p.y + g0 * a.rows;
          group.batch = p.batch - g0 < kMaxGemvBatch ? p.batch - g0 : kMaxGemvBatch;
          if (LaunchStatus status = LaunchGemv<T>(group, group.batch, 1, workspace, stream, "Gemm"); !status.ok()) {
            return status;
          }
        }
        continue;
      }
      const int columns = (p.batch + kQ8TileColumns - 1) / kQ8TileColumns * kQ8TileColumns;
      if (const cudaError_t queued = QueueQuantizer(p, Q8Layout::kMmaTiles, p.batch, columns,
                                                    static_cast<int64_t>(p.batch) * p.rows, workspace, stream);
          queued != cudaSuccess) {
        return {std::string("Gemm: quantizer launch failed: ") + cudaGetErrorString(queued)};
      }
      if (const cudaError_t launched = LaunchGemmPass<T>(p, stream); launched != cudaSuccess) {
        return {std::string("Gemm: launch failed: ") + cudaGetErrorString(launched)};
      }
      if (LaunchStatus status = LastLaunch("Gemm"); !status.ok()) return status;
    }
    return {};
  }
}

#if !defined(VT_HIP)
// The GEMM of F16 or BF16: passes over the weights, each with up to
// kFloatGemmColumnTiles tiles of 8 activations, on the GEMV's kernel; a
// pass of 8 or fewer is the GEMV's (which streams the weights about twice
// as fast as a pass of the GEMM's kernel, whose time hardly depends on how
// many of its tiles are full).
template <GgmlType T>
LaunchStatus LaunchFloatMmaGemm(const GemmArgs& a, cudaStream_t stream) {
  constexpr int kPass = 8 * kFloatGemmColumnTiles;
  for (int64_t b0 = 0; b0 < a.batch; b0 += kPass) {
    const GemvParams p = MatmulParams(a, b0, static_cast<int>(a.batch - b0 < kPass ? a.batch - b0 : kPass));
    if (p.batch <= kMaxGemvBatch) {
      if (LaunchStatus status = LaunchGemv<T>(p, p.batch, 1, nullptr, stream, "Gemm"); !status.ok()) return status;
      continue;
    }
    if (const cudaError_t launched = LaunchFloatMmaGemv<T, kFloatGemmColumnTiles, kFloatGemmRowTiles>(p, stream);
        launched != cudaSuccess) {
      return {std::string("Gemm: launch failed: ") + cudaGetErrorString(launched)};
    }
    if (LaunchStatus status = LastLaunch("Gemm"); !status.ok()) return status;
  }
  return {};
}
#endif

}  // namespace

#if !defined(VT_HIP)
LaunchStatus FloatMmaGemm(const GemmArgs& a, StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  return a.type == GgmlType::kF16 ? LaunchFloatMmaGemm<GgmlType::kF16>(a, s)
                                  : LaunchFloatMmaGemm<GgmlType::kBF16>(a, s);
}
#endif

LaunchStatus Int8Gemm(const GemmArgs& a, void* workspace, StreamHandle stream) {
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchInt8Gemm<decltype(tag)::value>(a, workspace, static_cast<cudaStream_t>(stream));
  });
}

LaunchStatus Gemv(const GemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  const GemvParams p = MatmulParams(a, 0, a.batch);
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(p, a.batch, 1, workspace, static_cast<cudaStream_t>(stream), "Gemv",
                                            {.x_quantized = a.x_quantized});
  });
}

LaunchStatus QuantizeActivations(const GemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  const char* entry = "QuantizeActivations";
  if (std::string error = CheckGemv(a, workspace, workspace_bytes, entry); !error.empty()) return {error};
  return DispatchDecoded(a.type, [&](auto tag) -> LaunchStatus {
    constexpr GgmlType T = decltype(tag)::value;
    if constexpr (!kUsesIntegerGemv<T>) {
      return {};
    } else {
      return QueueSharedQuantizer<T>(MatmulParams(a, 0, a.batch), a.batch, workspace,
                                     static_cast<cudaStream_t>(stream), entry);
    }
  });
}

LaunchStatus ExpertGemv(const ExpertGemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckExpertGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  const int activations = a.shared_x ? 1 : a.count;
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(ExpertParams(a), activations, a.count, workspace,
                                            static_cast<cudaStream_t>(stream), "ExpertGemv",
                                            {.ids_settled = a.ids_settled, .x_quantized = a.x_quantized});
  });
}

LaunchStatus QuantizeExpertActivations(const ExpertGemvArgs& a, void* workspace, size_t workspace_bytes,
                                       StreamHandle stream) {
  const char* entry = "QuantizeExpertActivations";
  if (std::string error = CheckExpertGemv(a, workspace, workspace_bytes, entry); !error.empty()) return {error};
  const int activations = a.shared_x ? 1 : a.count;
  return DispatchDecoded(a.type, [&](auto tag) -> LaunchStatus {
    constexpr GgmlType T = decltype(tag)::value;
    if constexpr (!kUsesIntegerGemv<T>) {
      return {};
    } else {
      return QueueSharedQuantizer<T>(ExpertParams(a), activations, workspace, static_cast<cudaStream_t>(stream),
                                     entry);
    }
  });
}

}  // namespace vt::gpu
