// A kernel that touches memory as late as it can, for the device tests
// (CUDA only): it stands in for a MoE router still writing an expert GEMV's
// ids, or for a consumer still reading the y a GEMV is about to write.
#pragma once

#include <cstdint>

#include "gpu_vendor.h"

namespace vt::testing {

// Queues on `stream` a kernel that at once lets the next launch start
// (griddepcontrol.launch_dependents, as vt's own kernels do), then spins for
// `delay_ns` of the device's global timer, then copies `count` 32-bit words
// from `from` to `to`. A launch queued behind it that read `to` before this
// kernel ended would see what was there before; one that wrote `from`
// before it ended would change what this kernel copies.
cudaError_t CopyLate(const uint32_t* from, uint32_t* to, int count, uint64_t delay_ns, cudaStream_t stream);

}  // namespace vt::testing
