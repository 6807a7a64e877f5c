// GPU kernel throughput on the device, as a table: keep-quant GEMV (batch 1
// and 8), expert GEMV (8 of 256 experts, four ways: Feed), expand to
// BF16 and GEMM (batch 64), per type, against a device-to-device copy
// measured in the same run.
//
// Weights rotate through eight matrices of about 150 MB (far beyond the
// H200's 60 MB L2), filled with random bytes once. Effective bandwidth:
// GEMV = weight bytes / time; expand = (blocks read + BF16 written) / time;
// copy = (bytes read + bytes written) / time; GEMM = 2 * rows * k * batch
// floating-point operations / time. Time: CUDA events around a
// run of launches, the median of 5 runs. Needs a GPU; exits 77 without.
//
// Usage: vt_bench_gpu_kernels [--quick] [--graph] [--types q4_K,q8_0,...]
//                             [--gemv-batches 1,4,8 [--k K] [--rows N] [--resident] | --expert
//                              | --gemm-batches 16,64,512 [--k K] [--rows N]]
// --graph times every figure, the ceiling's copies included, as a CUDA
// graph replayed on a stream of its own: each run's launches are captured
// once (after the warm-up, so no first-call set-up is captured) and the
// graph is launched once untimed before the timed runs, as an engine that
// captures its decode step calls them. Without it launches go one by one
// into the default stream.
// --types takes ggml's type names in any case (q4_k is q4_K); a name that
// is no type is refused.
// --gemv-batches prints only the GEMV, at the batches listed (as called by
// default, then with one QuantizeActivations for every two GEMVs, then
// with x quantized once before the timed launches), and the GEMM at batch
// 64, beside a copy of each matrix's bytes timed as the ceiling's is (the
// default call also as a fraction of that copy); with --k, of rows
// of K values (8192 otherwise; types whose block does not divide K are
// left out); with --rows, of N rows each (as many as fill a matrix
// otherwise), so that a model's own shapes can be measured. Seven
// matrices of N rows must outgrow the L2 for the figure to be read from
// HBM. The full table is always of k = 8192, the peer's shape.
// --resident (with --gemv-batches) has every launch, the copy's too, read
// the first matrix (and the copy write the second) instead of turning over
// eight, so that a matrix that fits the L2 is read from there after the
// warm-up: what the kernel reaches when memory costs it least, which says
// whether its decode or HBM bounds it at that shape. A matrix that does
// not fit the L2 gets a note that its figure is partly HBM's; one that
// fits may still be partly evicted (several kernels load their weights as
// streaming, evict-first), so the copy's column, over the ceiling only
// where its bytes stayed in the L2, says how far the run was the L2's.
// --expert prints only the expert GEMV's four columns.
// --gemm-batches prints only the GEMM, at the batches listed (1 to 4096):
// prefill at a prompt's token count; --k and --rows as for --gemv-batches
// (k = 8192 and rows filling a matrix otherwise; a batch whose y would
// outgrow the bench's buffer prints "-").
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_vendor.h"
#include "vt/kernels/gpu/kernels.h"
#include "vt/runtime/backend.h"

namespace {

using vt::GgmlType;

void Check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(error));
    std::exit(1);
  }
}

void CheckLaunch(const vt::gpu::LaunchStatus& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.error.c_str());
    std::exit(1);
  }
}

constexpr int kMatrices = 8;
constexpr uint64_t kMatrixBytes = 150ull << 20;
constexpr int64_t kK = 8192;
constexpr int kMostGemmBatch = 4096;  // --gemm-batches: y and x hold that many activations of k

// How every timed launch is issued (--graph): the stream each launch goes
// to (the default stream, or one of the bench's own that a graph can be
// captured on) and whether a run is captured and replayed.
struct Issue {
  bool graph = false;
  cudaStream_t stream = nullptr;
};

// A run of `launches` launches of `launch(i)`, captured on issue.stream.
template <class Launch>
cudaGraphExec_t Captured(const Issue& issue, int launches, Launch& launch) {
  Check(cudaStreamBeginCapture(issue.stream, cudaStreamCaptureModeThreadLocal), "begin capture");
  for (int i = 0; i < launches; ++i) launch(i);
  cudaGraph_t graph = nullptr;
  Check(cudaStreamEndCapture(issue.stream, &graph), "end capture");
  cudaGraphExec_t replay = nullptr;
  Check(cudaGraphInstantiateWithFlags(&replay, graph, 0), "instantiate graph");
  Check(cudaGraphDestroy(graph), "destroy graph");
  return replay;
}

// Median milliseconds per launch of `launch(i)` over runs of `launches`,
// issued as `issue` says.
template <class Launch>
double MedianMs(const Issue& issue, int launches, Launch&& launch) {
  cudaEvent_t start, stop;
  Check(cudaEventCreate(&start), "event");
  Check(cudaEventCreate(&stop), "event");
  for (int i = 0; i < kMatrices; ++i) launch(i);  // warm-up
  cudaGraphExec_t replay = nullptr;
  if (issue.graph) {
    replay = Captured(issue, launches, launch);
    Check(cudaGraphLaunch(replay, issue.stream), "graph warm-up");
  }
  std::vector<double> runs;
  for (int run = 0; run < 5; ++run) {
    Check(cudaEventRecord(start, issue.stream), "record");
    if (replay != nullptr) {
      Check(cudaGraphLaunch(replay, issue.stream), "graph launch");
    } else {
      for (int i = 0; i < launches; ++i) launch(i);
    }
    Check(cudaEventRecord(stop, issue.stream), "record");
    Check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    Check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    runs.push_back(static_cast<double>(ms) / launches);
  }
  if (replay != nullptr) Check(cudaGraphExecDestroy(replay), "destroy graph");
  Check(cudaEventDestroy(start), "event");
  Check(cudaEventDestroy(stop), "event");
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

struct DeviceMemory {
  explicit DeviceMemory(size_t bytes) { Check(cudaMalloc(&data, bytes), "cudaMalloc"); }
  ~DeviceMemory() { (void)cudaFree(data); }
  uint8_t* bytes() const { return static_cast<uint8_t*>(data); }
  void* data = nullptr;
};

// Device-to-device copies of the first `bytes` of one matrix of `pool`
// into the next (matrices 2m into 2m + 1, m turning over four pairs), as
// GB/s of bytes read + written, the median of MedianMs's runs.
// With `resident`, every copy is of matrix 0 into matrix 1.
double CopyGbps(const Issue& issue, const DeviceMemory& pool, uint64_t bytes, int launches, bool resident = false) {
  const double ms = MedianMs(issue, launches, [&](int i) {
    const int m = resident ? 0 : i % (kMatrices / 2);
    Check(cudaMemcpyAsync(pool.bytes() + (2 * m + 1) * kMatrixBytes, pool.bytes() + 2 * m * kMatrixBytes, bytes,
                          cudaMemcpyDeviceToDevice, issue.stream),
          "copy");
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

// ggml's CUDA backend on the same kind of board, batch 1, from DESIGN.md
// (not measured by this binary): the peer the targets are set against.
double PeerGbps(GgmlType type) {
  switch (type) {
    case GgmlType::kQ8_0: return 3368;
    case GgmlType::kQ4_0: return 2653;
    case GgmlType::kQ5_K: return 2401;
    case GgmlType::kIQ4_XS: return 2269;
    case GgmlType::kQ4_K: return 2228;
    case GgmlType::kQ6_K: return 1911;
    case GgmlType::kMXFP4: return 1830;
    case GgmlType::kIQ2_XXS: return 922;
    case GgmlType::kIQ1_S: return 695;
    default: return 0;
  }
}

// The issue's batch-1 target as a fraction of the ceiling or a multiple of
// the peer; printed so the table reads against it.
std::string Batch1Target(GgmlType type, double ceiling) {
  char text[64];
  if (type == GgmlType::kQ4_K || type == GgmlType::kQ8_0 || type == GgmlType::kQ6_K || type == GgmlType::kMXFP4) {
    std::snprintf(text, sizeof text, ">= %.0f (0.8 ceil)", 0.8 * ceiling);
  } else if (PeerGbps(type) > 0) {
    std::snprintf(text, sizeof text, ">= %.0f (1.25 peer)", 1.25 * PeerGbps(type));
  } else {
    std::snprintf(text, sizeof text, "-");
  }
  return text;
}

// How a GEMV's inputs come about, one column each: its own quantizer (and,
// for the expert GEMV, its ids from a kernel just before: ExpertGemv's
// defaults); the expert GEMV's the same with settled ids; settled ids and
// the quantizer (QuantizeExpertActivations, QuantizeActivations) shared by
// two GEMVs, as a layer's gate and up projections can share it; and the
// GEMV alone, its activations quantized once before the timed launches.
enum class Feed { kOwnQuantizer, kSettled, kSharedQuantizer, kAlone };

// Whether `feed` hands the GEMV x quantized by an earlier call (its args'
// x_quantized).
bool QuantizedAhead(Feed feed) { return feed == Feed::kSharedQuantizer || feed == Feed::kAlone; }

// The median ms a launch of `launch(args_of(i))` takes, fed as `feed`
// says: for kAlone, `quantize` runs once before the timed launches; for
// kSharedQuantizer, before every second launch, on that launch's args.
// args_of sets the args' own feed fields (x_quantized, ids_settled).
template <class ArgsOf, class Quantize, class Launch>
double FedMs(const Issue& issue, int launches, Feed feed, ArgsOf&& args_of, Quantize&& quantize, Launch&& launch) {
  if (feed == Feed::kAlone) quantize(args_of(0));
  return MedianMs(issue, launches, [&](int i) {
    const auto args = args_of(i);
    if (feed == Feed::kSharedQuantizer && i % 2 == 0) quantize(args);
    launch(args);
  });
}

// Whether the table has a row for `type`: a keep-quant GEMV type of the
// CUDA build, or F16 and BF16.
bool Measured(GgmlType type) {
  return vt::gpu::SetOf(vt::gpu::kDecodedTypes).Contains(type) &&
         (vt::gpu::KeepQuantGemvTypes(vt::DeviceKind::kCuda).Contains(type) || type == GgmlType::kF16 ||
          type == GgmlType::kBF16);
}

// The types named in `list` (ggml's names, comma-separated, in any case),
// or an empty vector after printing which name is no type.
std::vector<GgmlType> TypesNamed(std::string_view list) {
  std::vector<GgmlType> types;
  if (list.empty()) std::fprintf(stderr, "--types: want ggml type names separated by commas\n");
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    const auto same = [&](GgmlType t) {
      const std::string_view known = vt::NameOf(t);
      return known.size() == name.size() && std::equal(known.begin(), known.end(), name.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
             });
    };
    const auto all = vt::AllGgmlTypes();
    const auto found = std::find_if(all.begin(), all.end(), same);
    if (found == all.end()) {
      std::fprintf(stderr, "--types: \"%.*s\" is not a ggml type name (q4_K, iq4_xs, mxfp4, ...)\n",
                   static_cast<int>(name.size()), name.data());
      return {};
    }
    if (!Measured(*found)) {
      std::fprintf(stderr, "--types: %.*s has no row in this table (no keep-quant GPU kernel)\n",
                   static_cast<int>(name.size()), name.data());
      return {};
    }
    types.push_back(*found);
  }
  return types;
}

// The batches in `list` (numbers from 1 to `most`, separated by commas)
// appended to `batches`; false, with a message naming `option`, if it is
// not such a list.
bool ParseBatches(const char* option, const char* list, int most, std::vector<int>& batches) {
  for (const char* p = list; *p != '\0';) {
    char* end = nullptr;
    const long batch = std::strtol(p, &end, 10);
    if (end == p || batch < 1 || batch > most || (*end != ',' && *end != '\0')) {
      std::fprintf(stderr, "%s: want batches 1 to %d separated by commas, got \"%s\"\n", option, most, list);
      return false;
    }
    batches.push_back(static_cast<int>(batch));
    p = *end == ',' ? end + 1 : end;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  Issue issue;
  std::vector<GgmlType> selected;  // empty: every type
  std::vector<int> gemv_batches;  // empty: the full table
  std::vector<int> gemm_batches;  // empty: the full table
  int64_t k = kK;
  int64_t fixed_rows = 0;  // 0: as many rows as fill a matrix
  bool expert_only = false;
  bool resident = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--graph") {
      issue.graph = true;
    } else if (arg == "--types" && i + 1 < argc) {
      selected = TypesNamed(argv[++i]);
      if (selected.empty()) return 2;
    } else if (arg == "--gemv-batches" && i + 1 < argc) {
      if (!ParseBatches("--gemv-batches", argv[++i], vt::gpu::kMaxGemvBatch, gemv_batches)) return 2;
    } else if (arg == "--gemm-batches" && i + 1 < argc) {
      if (!ParseBatches("--gemm-batches", argv[++i], kMostGemmBatch, gemm_batches)) return 2;
    } else if (arg == "--expert") {
      expert_only = true;
    } else if (arg == "--resident") {
      resident = true;
    } else if (arg == "--k" && i + 1 < argc) {
      char* end = nullptr;
      const long long value = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || value < 32 || value > 65536 || value % 32 != 0) {
        std::fprintf(stderr, "--k: want a multiple of 32 from 32 to 65536, got \"%s\"\n", argv[i]);
        return 2;
      }
      k = value;
    } else if (arg == "--rows" && i + 1 < argc) {
      char* end = nullptr;
      const long long value = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || value < 1 || value > (1 << 20)) {
        std::fprintf(stderr, "--rows: want a row count from 1 to %d, got \"%s\"\n", 1 << 20, argv[i]);
        return 2;
      }
      fixed_rows = value;
    } else {
      std::fprintf(stderr,
                   "usage: vt_bench_gpu_kernels [--quick] [--graph] [--types q4_K,q8_0,...] "
                   "[--gemv-batches 1,4,8 [--k K] [--rows N] [--resident] | --expert "
                   "| --gemm-batches 16,64,512 [--k K] [--rows N]]\n");
      return 2;
    }
  }
  const bool one_kernel = !gemv_batches.empty() || !gemm_batches.empty();
  if (k != kK && !one_kernel) {
    std::fprintf(stderr, "--k: only with --gemv-batches or --gemm-batches (the full table is of k = %lld)\n",
                 static_cast<long long>(kK));
    return 2;
  }
  if (static_cast<int>(expert_only) + static_cast<int>(!gemv_batches.empty()) +
          static_cast<int>(!gemm_batches.empty()) > 1) {
    std::fprintf(stderr, "--expert, --gemv-batches, --gemm-batches: one at most (each prints its kernel alone)\n");
    return 2;
  }
  if (fixed_rows != 0 && !one_kernel) {
    std::fprintf(stderr, "--rows: only with --gemv-batches or --gemm-batches (the full table fills each matrix)\n");
    return 2;
  }
  if (resident && gemv_batches.empty()) {
    std::fprintf(stderr, "--resident: only with --gemv-batches\n");
    return 2;
  }
  if (vt::GpuDeviceCount() == 0) {
    std::printf("skipped: no GPU\n");
    return 77;
  }
  // The legacy default stream cannot be captured.
  if (issue.graph) Check(cudaStreamCreateWithFlags(&issue.stream, cudaStreamNonBlocking), "stream");
  // Eight random matrices; every type reads them as its own blocks.
  DeviceMemory pool(kMatrices * kMatrixBytes);
  {
    std::vector<uint8_t> host(kMatrixBytes);
    std::mt19937_64 rng(7);
    for (size_t i = 0; i + 8 <= host.size(); i += 8) {
      const uint64_t v = rng();
      std::memcpy(host.data() + i, &v, 8);
    }
    for (int m = 0; m < kMatrices; ++m) {
      host[0] ^= static_cast<uint8_t>(m);
      Check(cudaMemcpy(pool.bytes() + m * kMatrixBytes, host.data(), kMatrixBytes, cudaMemcpyHostToDevice), "upload");
    }
  }
  // The ceiling: device-to-device copies of one matrix into the next.
  const int copy_launches = quick ? 8 : 32;
  const double ceiling = CopyGbps(issue, pool, kMatrixBytes, copy_launches);
  std::printf("device-to-device copy: %.0f GB/s (read + write of %llu MiB)%s\n\n", ceiling,
              static_cast<unsigned long long>(kMatrixBytes >> 20),
              issue.graph ? "; every run a CUDA graph replayed" : "");

  int l2_bytes = 0;
  if (resident) {
    Check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0), "L2 size");
    std::printf("--resident: every launch reads matrix 0, from the L2 (%d MiB) where it fits\n\n", l2_bytes >> 20);
  }

  constexpr int kGemmBatch = 64;
  const int x_rows = std::max(kGemmBatch, gemm_batches.empty() ? 0 : *std::max_element(gemm_batches.begin(),
                                                                                        gemm_batches.end()));
  DeviceMemory x(k * x_rows * sizeof(float));
  {
    std::vector<float> host(k * x_rows);
    std::mt19937 rng(3);
    std::normal_distribution<float> normal;
    for (float& v : host) v = normal(rng);
    Check(cudaMemcpy(x.data, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
  }
  const size_t workspace_bytes = vt::gpu::GemvWorkspaceBytes(k, 256);
  DeviceMemory workspace(workspace_bytes);
  constexpr int64_t kGemmRows = kMatrixBytes / 64;  // the most rows y holds at kGemmBatch
  constexpr int64_t kYValues = kGemmRows * kGemmBatch;
  DeviceMemory y(static_cast<size_t>(kYValues * sizeof(float)));
  DeviceMemory expanded(16 * kMatrixBytes);  // BF16 of the densest type (Q1_0: 14.2 bytes per block byte)

  if (!gemm_batches.empty()) {
    std::printf("%-8s %6s %8s", "type", "N", "MB/mat");
    for (int batch : gemm_batches) std::printf(" | b%d TF/s", batch);
    std::printf("\n");
  } else if (expert_only) {
    std::printf("%-8s |", "type");
    for (const char* feed : {"moe GB/s", "settled", "shared q", "alone"}) std::printf(" %8s %5s |", feed, "ceil");
    std::printf("\n");
  } else if (!gemv_batches.empty()) {
    std::printf("%-8s %6s %8s | %8s %5s", "type", "N", "MB/mat", "copy GB/s", "ceil");
    for (int batch : gemv_batches) {
      std::printf(" | b%d GB/s  ceil  copy | shared q  ceil | alone  ceil", batch);
    }
    std::printf(" | gemm TF/s\n");
  } else {
    std::printf("%-8s %6s %8s | %8s %5s %18s %6s | %8s %5s |", "type", "N", "MB/mat", "b1 GB/s", "ceil", "target",
                "peer", "b8 GB/s", "ceil");
    for (const char* feed : {"moe GB/s", "settled", "shared q", "alone"}) std::printf(" %8s %5s |", feed, "ceil");
    std::printf(" %8s %5s | %9s\n", "exp GB/s", "ceil", "gemm TF/s");
  }
  const int launches = quick ? 16 : 64;
  for (GgmlType type : vt::gpu::kDecodedTypes) {
    const std::string name(vt::NameOf(type));
    if (!selected.empty() && std::find(selected.begin(), selected.end(), type) == selected.end()) continue;
    if (!Measured(type)) continue;
    if (k % vt::gpu::KernelBlockValues(type) != 0) {
      std::printf("%-8s k = %lld is not whole blocks of %lld values\n", name.c_str(), static_cast<long long>(k),
                  static_cast<long long>(vt::gpu::KernelBlockValues(type)));
      continue;
    }
    const int64_t row_bytes = vt::gpu::RowBytes(type, k);
    const int64_t rows_that_fit = static_cast<int64_t>(kMatrixBytes) / row_bytes;
    if (fixed_rows > rows_that_fit) {
      std::printf("%-8s %lld rows of k = %lld do not fit a matrix of %llu MiB\n", name.c_str(),
                  static_cast<long long>(fixed_rows), static_cast<long long>(k),
                  static_cast<unsigned long long>(kMatrixBytes >> 20));
      continue;
    }
    const int64_t rows = fixed_rows != 0 ? fixed_rows : rows_that_fit;
    const double matrix_bytes = static_cast<double>(rows * row_bytes);
    // Launch i reads matrix i % 8 (matrix 0 with --resident).
    auto matrix = [&](int i, int batch) {
      vt::gpu::MatmulArgs args;
      args.type = type;
      args.weights = pool.bytes() + (resident ? 0 : i % kMatrices) * kMatrixBytes;
      args.rows = rows;
      args.k = k;
      args.x = static_cast<const float*>(x.data);
      args.batch = batch;
      args.y = static_cast<float*>(y.data);
      return args;
    };
    // The GEMV fed as `feed` says (kOwnQuantizer, kSharedQuantizer or
    // kAlone).
    auto gemv = [&](int batch, Feed feed = Feed::kOwnQuantizer) {
      return FedMs(
          issue, launches, feed,
          [&](int i) {
            vt::gpu::GemvArgs args = matrix(i, batch);
            args.x_quantized = QuantizedAhead(feed);
            return args;
          },
          [&](const vt::gpu::GemvArgs& args) {
            CheckLaunch(vt::gpu::QuantizeActivations(args, workspace.data, workspace_bytes, issue.stream));
          },
          [&](const vt::gpu::GemvArgs& args) {
            CheckLaunch(vt::gpu::Gemv(args, workspace.data, workspace_bytes, issue.stream));
          });
    };
    const int64_t values = rows * k;
    auto gemm_tflops = [&](int batch) {
      const double gemm_ms = MedianMs(issue, quick ? 4 : 8, [&](int i) {
        CheckLaunch(vt::gpu::Gemm(matrix(i, batch), workspace.data, workspace_bytes, issue.stream));
      });
      return 2.0 * static_cast<double>(values) * batch / (gemm_ms * 1e9);
    };
    if (!gemm_batches.empty()) {
      std::printf("%-8s %6lld %8.1f", name.c_str(), static_cast<long long>(rows), matrix_bytes / 1e6);
      for (int batch : gemm_batches) {
        if (rows * batch <= kYValues) {
          std::printf(" | %*.1f", static_cast<int>(std::to_string(batch).size()) + 6, gemm_tflops(batch));
        } else {
          std::printf(" | %*s", static_cast<int>(std::to_string(batch).size()) + 6, "-");
        }
      }
      std::printf("\n");
      std::fflush(stdout);
      continue;
    }
    // MoE: a DeepSeek-V3-shaped tower (256 experts of 2048 x 7168), eight
    // distinct experts per launch, a different eight each time. Four ways
    // (Feed): the ids are uploaded by a copy before the first launch,
    // so ids_settled is true to its contract.
    constexpr int64_t kExperts = 256, kExpertRows = 2048, kExpertK = 7168;
    const int64_t expert_bytes = vt::gpu::RowBytes(type, kExpertK) * kExpertRows;
    auto expert_figures = [&] {
      std::array<double, 4> moe{};
      // The tower, filled from the random pool.
      const uint64_t tower_bytes = static_cast<uint64_t>(expert_bytes * kExperts);
      DeviceMemory tower(tower_bytes);
      for (uint64_t done = 0; done < tower_bytes; done += kMatrices * kMatrixBytes) {
        const uint64_t bytes = std::min<uint64_t>(kMatrices * kMatrixBytes, tower_bytes - done);
        Check(cudaMemcpy(tower.bytes() + done, pool.bytes(), bytes, cudaMemcpyDeviceToDevice), "fill tower");
      }
      constexpr int kSets = 64;
      std::vector<int32_t> ids(kSets * 8);
      std::mt19937 rng(11);
      for (int s = 0; s < kSets; ++s) {
        std::vector<int32_t> all(kExperts);
        for (int e = 0; e < kExperts; ++e) all[e] = e;
        std::shuffle(all.begin(), all.end(), rng);
        std::copy(all.begin(), all.begin() + 8, ids.begin() + 8 * s);
      }
      DeviceMemory device_ids(ids.size() * sizeof(int32_t));
      Check(cudaMemcpy(device_ids.data, ids.data(), ids.size() * sizeof(int32_t), cudaMemcpyHostToDevice), "upload");
      auto expert_ms = [&](Feed feed) {
        auto args_of = [&](int i) {
          vt::gpu::ExpertGemvArgs args;
          args.type = type;
          args.tower = tower.bytes();
          args.experts = kExperts;
          args.rows = kExpertRows;
          args.k = kExpertK;
          args.ids = static_cast<const int32_t*>(device_ids.data) + 8 * (i % kSets);
          args.count = 8;
          args.x = static_cast<const float*>(x.data);
          args.y = static_cast<float*>(y.data);
          args.ids_settled = feed != Feed::kOwnQuantizer;
          args.x_quantized = QuantizedAhead(feed);
          return args;
        };
        return FedMs(
            issue, launches, feed, args_of,
            [&](const vt::gpu::ExpertGemvArgs& args) {
              CheckLaunch(vt::gpu::QuantizeExpertActivations(args, workspace.data, workspace_bytes, issue.stream));
            },
            [&](const vt::gpu::ExpertGemvArgs& args) {
              CheckLaunch(vt::gpu::ExpertGemv(args, workspace.data, workspace_bytes, issue.stream));
            });
      };
      for (Feed feed : {Feed::kOwnQuantizer, Feed::kSettled, Feed::kSharedQuantizer, Feed::kAlone}) {
        moe[static_cast<int>(feed)] = 8.0 * static_cast<double>(expert_bytes) / (expert_ms(feed) * 1e6);
      }
      return moe;
    };
    if (expert_only) {
      std::printf("%-8s |", name.c_str());
      for (double gbps : expert_figures()) std::printf(" %8.0f %5.2f |", gbps, gbps / ceiling);
      std::printf("\n");
      std::fflush(stdout);
      continue;
    }
    if (!gemv_batches.empty()) {
      // The same copy as the ceiling's, of this matrix's bytes: what a
      // call of this size reaches at best, its launch and ramp included.
      const double copy = CopyGbps(issue, pool, static_cast<uint64_t>(matrix_bytes), copy_launches, resident);
      std::printf("%-8s %6lld %8.1f | %9.0f %5.2f", name.c_str(), static_cast<long long>(rows), matrix_bytes / 1e6,
                  copy, copy / ceiling);
      for (int batch : gemv_batches) {
        const double gbps = matrix_bytes / (gemv(batch) * 1e6);
        std::printf(" | %8.0f %5.2f %5.2f", gbps, gbps / ceiling, gbps / copy);
        for (Feed feed : {Feed::kSharedQuantizer, Feed::kAlone}) {
          const double fed = matrix_bytes / (gemv(batch, feed) * 1e6);
          std::printf(" | %8.0f %5.2f", fed, fed / ceiling);
        }
      }
      if (rows <= kGemmRows) {
        std::printf(" | %9.1f", gemm_tflops(kGemmBatch));
      } else {
        std::printf(" | %9s", "-");
      }
      std::printf(resident && matrix_bytes > l2_bytes ? "  (over the L2: partly read from HBM)\n" : "\n");
      std::fflush(stdout);
      continue;
    }
    const double b1 = matrix_bytes / (gemv(1) * 1e6);
    const double b8 = matrix_bytes / (gemv(8) * 1e6);

    const std::array<double, 4> moe = expert_figures();

    const double expand_ms = MedianMs(issue, quick ? 4 : 16, [&](int i) {
      CheckLaunch(vt::gpu::ExpandToBf16(type, pool.bytes() + (i % kMatrices) * kMatrixBytes,
                                        static_cast<uint16_t*>(expanded.data), values, issue.stream));
    });
    const double expand = (matrix_bytes + 2.0 * static_cast<double>(values)) / (expand_ms * 1e6);
    const double gemm = gemm_tflops(kGemmBatch);
    std::printf("%-8s %6lld %8.1f | %8.0f %5.2f %18s %6.0f | %8.0f %5.2f |", name.c_str(), static_cast<long long>(rows),
                matrix_bytes / 1e6, b1, b1 / ceiling, Batch1Target(type, ceiling).c_str(), PeerGbps(type), b8,
                b8 / ceiling);
    for (double gbps : moe) std::printf(" %8.0f %5.2f |", gbps, gbps / ceiling);
    std::printf(" %8.0f %5.2f | %9.1f\n", expand, expand / ceiling, gemm);
    std::fflush(stdout);
  }
  return 0;
}
