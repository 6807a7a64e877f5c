// RouteGgufTensor: in what form one tensor lives on the device that executes
// it, and why. Total and noexcept: every (role, type, shape, device,
// switches) has an answer, so no loader path can meet an unrouted tensor.
//
// Pure: the device's capability comes in as a value (DeviceCaps), never
// looked up. The caller passes the caps of the device that *runs* the tensor
// (ComputeDeviceFor), not the engine's.
#pragma once

#include <cstdint>
#include <string_view>

#include "vt/policy/device_caps.h"
#include "vt/policy/tensor_bytes.h"
#include "vt/policy/tensor_role.h"

namespace vt {

enum class Residency : uint8_t {
  kKeepQuantBlocks,  // the file's blocks, executed as they are
  kKeepF16,          // F16 weights kept as F16
  kExpandBf16,       // expanded to BF16 on the device: 2 bytes per element
  kQuantGather,      // an embedding table kept in blocks; rows gathered
  kKeepNativeFloat,  // plain numbers (F32, BF16, F64, integers) used as stored
};

constexpr std::string_view NameOf(Residency residency) {
  switch (residency) {
    case Residency::kKeepQuantBlocks: return "keep-quant";
    case Residency::kKeepF16: return "keep-f16";
    case Residency::kExpandBf16: return "expand-bf16";
    case Residency::kQuantGather: return "quant-gather";
    case Residency::kKeepNativeFloat: return "native";
  }
  return "unknown";
}

// Switches an operator sets. cpu_ref forces every block and F16 tensor to
// expand (a reference run that trusts no block kernel).
struct RouteSwitches {
  bool keep_quant = true;
  bool keep_f16 = true;
  bool cpu_ref = false;
};

struct RouteInputs {
  TensorRole role = TensorRole::kUnclaimed;
  GgmlType type = GgmlType::kF32;
  TensorDims ne = {1, 1, 1, 1};
  DeviceCaps caps;  // of the device that executes the tensor
  RouteSwitches switches;
};

// Why a route was chosen. Each value has one sentence (Describe).
enum class RouteReason : uint8_t {
  kPlainNumbers,
  kBlocksExecuted,
  kBlocksNotExecutedHere,
  kPartialBlockRow,
  kKeepQuantSwitchedOff,
  kCpuReference,
  kTransformedAtLoad,
  kF16Executed,
  kF16NotExecutedHere,
  kKeepF16SwitchedOff,
  kRowsGathered,
  kGatherNotSupportedHere,
  kBlocksReadAsNumbers,
  kUnclaimedName,
};

constexpr std::string_view Describe(RouteReason reason) {
  switch (reason) {
    case RouteReason::kPlainNumbers: return "plain numbers are used as stored";
    case RouteReason::kBlocksExecuted: return "the executing device runs these blocks directly";
    case RouteReason::kBlocksNotExecutedHere:
      return "the executing device has no kernel for this block type, so it expands to bf16";
    case RouteReason::kPartialBlockRow:
      return "K is not a whole number of blocks, so it expands to bf16";
    case RouteReason::kKeepQuantSwitchedOff: return "keep-quant is switched off";
    case RouteReason::kCpuReference: return "cpu-ref forces every weight to expand";
    case RouteReason::kTransformedAtLoad:
      return "the engine reshapes this weight at load, so its blocks cannot be kept";
    case RouteReason::kF16Executed: return "the executing device runs f16 weights";
    case RouteReason::kF16NotExecutedHere:
      return "the executing device keeps no f16 weights, so it expands to bf16";
    case RouteReason::kKeepF16SwitchedOff: return "keep-f16 is switched off";
    case RouteReason::kRowsGathered: return "embedding rows are gathered from the blocks";
    case RouteReason::kGatherNotSupportedHere:
      return "the executing device cannot gather rows of this block type, so it expands";
    case RouteReason::kBlocksReadAsNumbers:
      return "a vector or convolution in blocks is expanded to numbers";
    case RouteReason::kUnclaimedName:
      return "no role claims this name: it is kept as numbers, never run as a matmul";
  }
  return "unknown reason";
}

struct Route {
  Residency residency = Residency::kKeepNativeFloat;
  RouteReason reason = RouteReason::kPlainNumbers;
  friend constexpr bool operator==(const Route&, const Route&) = default;
};

// A verbatim role's weight is used by a GEMM exactly as stored, so it may
// keep its blocks.
constexpr bool IsVerbatimMatrixRole(TensorRole role) {
  switch (role) {
    case TensorRole::kMatmulWeight:
    case TensorRole::kStackedExperts:
      return true;
    case TensorRole::kEmbeddingTable:
    case TensorRole::kTransformedWeight:
    case TensorRole::kConvWeight:
    case TensorRole::kVector:
    case TensorRole::kUnclaimed:
      return false;
  }
  return false;
}

// Keep-quant needs all four terms: a verbatim role, a type the executing
// device runs, K a whole number of blocks, and the switch on (cpu-ref off).
constexpr bool MayKeepQuantBlocks(const RouteInputs& in) {
  return IsVerbatimMatrixRole(in.role) && in.caps.keep_quant.Contains(in.type) &&
         in.ne[0] % TraitsOf(in.type).block_elements == 0 && in.switches.keep_quant &&
         !in.switches.cpu_ref;
}

namespace route_detail {

constexpr Route RouteF16Matrix(const RouteInputs& in) {
  if (in.role == TensorRole::kTransformedWeight) {
    return {Residency::kExpandBf16, RouteReason::kTransformedAtLoad};
  }
  if (in.switches.cpu_ref) return {Residency::kExpandBf16, RouteReason::kCpuReference};
  if (!in.switches.keep_f16) return {Residency::kExpandBf16, RouteReason::kKeepF16SwitchedOff};
  if (!in.caps.keep_f16) return {Residency::kExpandBf16, RouteReason::kF16NotExecutedHere};
  return {Residency::kKeepF16, RouteReason::kF16Executed};
}

constexpr Route RouteBlocks(const RouteInputs& in) {
  if (MayKeepQuantBlocks(in)) return {Residency::kKeepQuantBlocks, RouteReason::kBlocksExecuted};
  if (!IsVerbatimMatrixRole(in.role)) {
    return {Residency::kExpandBf16, RouteReason::kTransformedAtLoad};
  }
  if (in.switches.cpu_ref) return {Residency::kExpandBf16, RouteReason::kCpuReference};
  if (!in.switches.keep_quant) return {Residency::kExpandBf16, RouteReason::kKeepQuantSwitchedOff};
  if (!in.caps.keep_quant.Contains(in.type)) {
    return {Residency::kExpandBf16, RouteReason::kBlocksNotExecutedHere};
  }
  return {Residency::kExpandBf16, RouteReason::kPartialBlockRow};
}

}  // namespace route_detail

// The route of one tensor. Never throws.
constexpr Route RouteGgufTensor(const RouteInputs& in) noexcept {
  const bool blocks = TraitsOf(in.type).quantized;
  const bool f16 = in.type == GgmlType::kF16;
  if (!blocks && !f16) return {Residency::kKeepNativeFloat, RouteReason::kPlainNumbers};

  switch (in.role) {
    case TensorRole::kMatmulWeight:
    case TensorRole::kStackedExperts:
    case TensorRole::kTransformedWeight:
      return f16 ? route_detail::RouteF16Matrix(in) : route_detail::RouteBlocks(in);
    case TensorRole::kEmbeddingTable:
      if (f16) return route_detail::RouteF16Matrix(in);
      if (in.switches.cpu_ref) return {Residency::kExpandBf16, RouteReason::kCpuReference};
      if (in.caps.quant_gather.Contains(in.type)) {
        return {Residency::kQuantGather, RouteReason::kRowsGathered};
      }
      return {Residency::kExpandBf16, RouteReason::kGatherNotSupportedHere};
    case TensorRole::kConvWeight:
    case TensorRole::kVector:
      if (f16) return {Residency::kKeepNativeFloat, RouteReason::kPlainNumbers};
      return {Residency::kExpandBf16, RouteReason::kBlocksReadAsNumbers};
    case TensorRole::kUnclaimed:
      if (f16) return {Residency::kKeepNativeFloat, RouteReason::kUnclaimedName};
      return {Residency::kExpandBf16, RouteReason::kUnclaimedName};
  }
  return {Residency::kKeepNativeFloat, RouteReason::kUnclaimedName};
}

// Bytes a tensor occupies where it lives: its file bytes, except that an
// expansion to BF16 takes two bytes per element.
constexpr uint64_t ResidentBytes(Residency residency, uint64_t file_bytes, int64_t elements) {
  switch (residency) {
    case Residency::kExpandBf16: return static_cast<uint64_t>(elements) * 2;
    case Residency::kKeepQuantBlocks:
    case Residency::kKeepF16:
    case Residency::kQuantGather:
    case Residency::kKeepNativeFloat:
      return file_bytes;
  }
  return file_bytes;
}

}  // namespace vt
