// The argument checks of the GPU entry points, as plain host code (no vendor
// include) so tests/pure can hold them to their table on any machine. Each
// returns the empty string when the launch may go ahead, else a message
// naming the entry point, the argument and its value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vt/kernels/gpu/kernels.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

namespace launch_checks_detail {

inline bool Aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

inline std::string TypeError(const char* entry, GgmlType type, GgmlTypeSet supported) {
  if (static_cast<uint32_t>(type) >= kGgmlTypeIdCount) {
    return std::string(entry) + ": type id " + std::to_string(static_cast<uint32_t>(type)) + " is not a ggml type";
  }
  if (!supported.Contains(type)) {
    return std::string(entry) + ": type " + std::string(NameOf(type)) + " has no GPU kernel";
  }
  return {};
}

inline std::string WholeBlocks(const char* entry, const char* what, int64_t n, GgmlType type) {
  const int64_t block = KernelBlockValues(type);
  if (n <= 0 || n % block != 0) {
    return std::string(entry) + ": " + what + " = " + std::to_string(n) + " is not a positive multiple of " +
           std::to_string(block) + " (" + std::string(NameOf(type)) + " values per block)";
  }
  return {};
}

inline std::string Pointer(const char* entry, const char* what, const void* p, bool aligned) {
  if (p == nullptr) return std::string(entry) + ": " + what + " is null";
  if (aligned && !Aligned16(p)) return std::string(entry) + ": " + what + " is not 16-byte aligned";
  return {};
}

// `sizer`: the function that tells callers the size.
inline std::string Workspace(const char* entry, size_t have, size_t need, const void* workspace,
                             const char* sizer = "GemvWorkspaceBytes") {
  if (need == 0) return {};
  if (workspace == nullptr || have < need) {
    return std::string(entry) + ": workspace holds " + std::to_string(have) + " bytes, needs " +
           std::to_string(need) + " (" + sizer + ")";
  }
  return Pointer(entry, "workspace", workspace, true);
}

// The first non-empty message, or empty.
inline std::string First(std::initializer_list<std::string> checks) {
  for (const std::string& message : checks) {
    if (!message.empty()) return message;
  }
  return {};
}

}  // namespace launch_checks_detail

inline std::string CheckExpand(GgmlType type, const void* blocks, const void* out, int64_t n) {
  using namespace launch_checks_detail;
  const std::string type_error = TypeError("ExpandToBf16", type, ExpandTypes());
  if (!type_error.empty()) return type_error;
  return First({WholeBlocks("ExpandToBf16", "n", n, type), Pointer("ExpandToBf16", "blocks", blocks, true),
                Pointer("ExpandToBf16", "out", out, true)});
}

inline size_t WorkspaceFor(GgmlType type, int64_t k, int activations) {
  return UsesIntegerGemv(type) ? GemvWorkspaceBytes(k, activations) : 0;
}

// entry: the function named in the errors (Gemv, or QuantizeActivations,
// which takes the same arguments).
inline std::string CheckGemv(const GemvArgs& a, const void* workspace, size_t workspace_bytes,
                             const char* entry = "Gemv") {
  using namespace launch_checks_detail;
  const std::string type_error = TypeError(entry, a.type, ExpandTypes());
  if (!type_error.empty()) return type_error;
  if (a.batch < 1 || a.batch > kMaxGemvBatch) {
    return std::string(entry) + ": batch = " + std::to_string(a.batch) + " is outside 1.." +
           std::to_string(kMaxGemvBatch);
  }
  if (a.rows <= 0 || a.rows > INT32_MAX) return std::string(entry) + ": rows = " + std::to_string(a.rows) + " is out of range";
  return First({WholeBlocks(entry, "k", a.k, a.type), Pointer(entry, "weights", a.weights, true),
                Pointer(entry, "x", a.x, true), Pointer(entry, "y", a.y, false),
                Workspace(entry, workspace_bytes, WorkspaceFor(a.type, a.k, a.batch), workspace)});
}

// entry: the function named in the errors (ExpertGemv, or
// QuantizeExpertActivations, which takes the same arguments).
inline std::string CheckExpertGemv(const ExpertGemvArgs& a, const void* workspace, size_t workspace_bytes,
                                   const char* entry = "ExpertGemv") {
  using namespace launch_checks_detail;
  const std::string type_error = TypeError(entry, a.type, ExpandTypes());
  if (!type_error.empty()) return type_error;
  if (a.experts <= 0) return std::string(entry) + ": experts = " + std::to_string(a.experts) + " is not positive";
  if (a.count < 1 || a.count > 65535) {
    return std::string(entry) + ": count = " + std::to_string(a.count) + " is outside 1..65535";
  }
  if (a.rows <= 0 || a.rows > INT32_MAX) return std::string(entry) + ": rows = " + std::to_string(a.rows) + " is out of range";
  const int activations = a.shared_x ? 1 : a.count;
  return First({WholeBlocks(entry, "k", a.k, a.type), Pointer(entry, "tower", a.tower, true),
                Pointer(entry, "ids", a.ids, false), Pointer(entry, "x", a.x, true), Pointer(entry, "y", a.y, false),
                Workspace(entry, workspace_bytes, WorkspaceFor(a.type, a.k, activations), workspace)});
}

inline std::string CheckGemm(const GemmArgs& a, const void* workspace, size_t workspace_bytes) {
  using namespace launch_checks_detail;
  const char* entry = "Gemm";
  const std::string type_error = TypeError(entry, a.type, ExpandTypes());
  if (!type_error.empty()) return type_error;
  if (a.batch < 1 || a.batch > 65535 * 32) {
    return std::string(entry) + ": batch = " + std::to_string(a.batch) + " is outside 1.." + std::to_string(65535 * 32);
  }
  if (a.rows <= 0 || a.rows > INT32_MAX) return std::string(entry) + ": rows = " + std::to_string(a.rows) + " is out of range";
  if (a.x_quantized) return std::string(entry) + ": x_quantized is true, but only Gemv reads x quantized ahead";
  const size_t workspace_needed = UsesIntegerGemv(a.type) ? GemmWorkspaceBytes(a.k) : 0;
  return First({WholeBlocks(entry, "k", a.k, a.type), Pointer(entry, "weights", a.weights, true),
                Pointer(entry, "x", a.x, true), Pointer(entry, "y", a.y, false),
                Workspace(entry, workspace_bytes, workspace_needed, workspace, "GemmWorkspaceBytes")});
}

}  // namespace vt::gpu
