// A stand-in for a MoE router in the device tests (CUDA only): a kernel
// that writes an expert GEMV's ids as late as it can.
#pragma once

#include <cstdint>

#include "gpu_vendor.h"

namespace vt::testing {

// Queues on `stream` a kernel that at once lets the next launch start
// (griddepcontrol.launch_dependents, as vt's own kernels do), then spins for
// `delay_ns` of the device's global timer, then copies count ids from
// `from` to `to`. A launch queued behind it that read `to` before this
// kernel ended would see the ids that were there before.
cudaError_t WriteIdsLate(const int32_t* from, int32_t* to, int count, uint64_t delay_ns, cudaStream_t stream);

}  // namespace vt::testing
