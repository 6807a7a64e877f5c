// A CUDA injection library that records when each kernel ran on the GPU,
// for measuring how back-to-back launches (a quantizer and its GEMV,
// programmatic dependent launches) overlap and where a chain's time goes.
//
//   export CUDA_INJECTION64_PATH=$PWD/build/cuda/bench/libvt_kernel_trace.so
//   VT_KERNEL_TRACE=trace.csv build/cuda/bench/vt_bench_gpu_kernels --quick ...
//   scripts/kernel_chain_gaps.py trace.csv
//
// The driver loads it into any CUDA program and calls InitializeInjection.
// CUPTI's concurrent-kernel records keep overlapping kernels overlapped.
// At exit it writes one CSV row per kernel, sorted by start:
// start_ns,end_ns,stream,grid_x,block_x,name (GPU timestamps, the name
// mangled). A CUPTI call that fails is reported on stderr, naming the
// call and CUPTI's message, and nothing is traced.
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct KernelRun {
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t stream;
  int32_t grid_x;
  int32_t block_x;
  std::string name;
};

std::mutex runs_mutex;
std::vector<KernelRun> runs;
constexpr size_t kBufferBytes = size_t{8} << 20;

bool Succeeded(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  const char* message = nullptr;
  cuptiGetResultString(result, &message);
  std::fprintf(stderr, "vt_kernel_trace: %s failed: %s\n", call, message != nullptr ? message : "unknown error");
  return false;
}

void CUPTIAPI GiveBuffer(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI TakeBuffer(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
  std::lock_guard<std::mutex> lock(runs_mutex);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    runs.push_back({kernel->start, kernel->end, kernel->streamId, kernel->gridX, kernel->blockX,
                    kernel->name != nullptr ? kernel->name : "?"});
  }
  std::free(buffer);
}

void WriteTrace() {
  cuptiActivityFlushAll(1);
  const char* path = std::getenv("VT_KERNEL_TRACE");
  if (path == nullptr) path = "kernel_trace.csv";
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) {
    std::fprintf(stderr, "vt_kernel_trace: cannot write %s\n", path);
    return;
  }
  std::lock_guard<std::mutex> lock(runs_mutex);
  std::sort(runs.begin(), runs.end(), [](const KernelRun& a, const KernelRun& b) { return a.start_ns < b.start_ns; });
  std::fprintf(file, "start_ns,end_ns,stream,grid_x,block_x,name\n");
  for (const KernelRun& run : runs) {
    std::fprintf(file, "%llu,%llu,%u,%d,%d,%s\n", static_cast<unsigned long long>(run.start_ns),
                 static_cast<unsigned long long>(run.end_ns), run.stream, run.grid_x, run.block_x, run.name.c_str());
  }
  std::fclose(file);
}

}  // namespace

// The entry point the CUDA driver calls (CUDA_INJECTION64_PATH).
extern "C" int InitializeInjection() {
  if (!Succeeded(cuptiActivityRegisterCallbacks(GiveBuffer, TakeBuffer), "cuptiActivityRegisterCallbacks") ||
      !Succeeded(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable")) {
    return 1;  // the program runs on, untraced
  }
  std::atexit(WriteTrace);
  return 1;
}
