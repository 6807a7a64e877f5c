// Turns a runtime GgmlType into a compile-time one by walking
// registry.h's kDecodedTypes: every listed type is instantiated, so a type
// listed without a decoder is a compile error, and a type not listed is
// refused at run time.
#pragma once

#include <string>
#include <type_traits>

#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

template <GgmlType T>
using TypeTag = std::integral_constant<GgmlType, T>;

template <size_t I = 0, class Fn>
LaunchStatus DispatchDecoded(GgmlType type, Fn&& fn) {
  if constexpr (I == kDecodedTypes.size()) {
    return {"no GPU kernel for type " + std::string(NameOf(type))};
  } else {
    if (type == kDecodedTypes[I]) return fn(TypeTag<kDecodedTypes[I]>{});
    return DispatchDecoded<I + 1>(type, fn);
  }
}

template <GgmlType T>
constexpr bool kUsesIntegerGemv = UsesIntegerGemv(T);

// The status of the launch just queued.
inline LaunchStatus LastLaunch(const char* entry) {
  const cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) return {};
  return {std::string(entry) + ": launch failed: " + cudaGetErrorString(error)};
}

}  // namespace vt::gpu
