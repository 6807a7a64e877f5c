// Memory policy from a device's reported properties: whether allocations
// must be managed, whether the device may read pageable host memory, and the
// ceiling a weight budget must respect. HIP-free: the properties come in as
// values (hipGetDeviceProperties / cudaGetDeviceProperties fill them in
// runtime/), so every board is table-tested on any machine.
//
// The two predicates answer different questions and are never folded into
// one: an integrated board with managed allocations (gfx1151, Strix Halo)
// still cannot read pageable host memory when pageableMemoryAccess is 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vt {

struct DeviceMemoryProperties {
  bool integrated = false;                 // shares physical memory with the host
  bool managed_memory = false;             // supports managed (unified) allocations
  bool concurrent_managed_access = false;  // device and host may touch managed pages at once
  bool pageable_memory_access = false;     // device reads ordinary pageable host memory
  uint64_t total_bytes = 0;                // what the runtime reports as device memory
  // Largest managed allocation total measured on the board, when known: on
  // integrated boards the reported total can exceed what managed allocations reach.
  std::optional<uint64_t> measured_managed_ceiling_bytes;
};

// Allocations go through the managed allocator: the board is integrated and
// supports it (its "device memory" is host memory the driver manages).
constexpr bool UseManagedAlloc(const DeviceMemoryProperties& p) {
  return p.integrated && p.managed_memory;
}

// The device may read host memory that was never registered or pinned: it
// needs pageable access, and concurrent access so the host may keep using
// those pages while kernels run.
constexpr bool HostMemoryIsDeviceAddressable(const DeviceMemoryProperties& p) {
  return p.pageable_memory_access && p.concurrent_managed_access;
}

struct MemoryPolicy {
  bool use_managed_alloc = false;
  bool host_memory_is_device_addressable = false;
  uint64_t budget_ceiling_bytes = 0;  // most bytes a plan may put on the device
  std::string_view ceiling_reason;
};

// Budget ceiling = reported total - margin, lowered to the measured managed
// ceiling when allocations are managed and a ceiling is known.
constexpr MemoryPolicy DecideMemoryPolicy(const DeviceMemoryProperties& p, uint64_t margin_bytes) {
  MemoryPolicy policy;
  policy.use_managed_alloc = UseManagedAlloc(p);
  policy.host_memory_is_device_addressable = HostMemoryIsDeviceAddressable(p);
  const uint64_t reported = p.total_bytes > margin_bytes ? p.total_bytes - margin_bytes : 0;
  policy.budget_ceiling_bytes = reported;
  policy.ceiling_reason = "reported total less the margin";
  if (policy.use_managed_alloc && p.measured_managed_ceiling_bytes) {
    if (*p.measured_managed_ceiling_bytes < reported) {
      policy.budget_ceiling_bytes = *p.measured_managed_ceiling_bytes;
      policy.ceiling_reason = "measured managed-allocation ceiling";
    }
  }
  return policy;
}

}  // namespace vt
