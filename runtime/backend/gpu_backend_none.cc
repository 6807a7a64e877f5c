// A build without CUDA or HIP: no GPU backend.
#include "vt/runtime/backend.h"

namespace vt {

std::unique_ptr<Backend> MakeGpuBackend(int, const StagingConfig&) {
  throw BackendError("this vt was built without CUDA or HIP (configure with --preset cuda or hip)");
}
int GpuDeviceCount() { return 0; }
const char* GpuBuildKind() { return "none"; }

}  // namespace vt
