// Dot products of a weight row with an activation row in the weight type's
// activation format (activation.h), and the registry of what the CPU
// executes.
//
// VecDotReference is the scalar reference for every type: both rows are dequantized
// exactly and their products (exact in double) are summed in double, so the
// result is the dot of the dequantized values up to one final rounding.
// ggml accumulates in float, in block order; the two agree within the bound
// the golden test states.
#pragma once

#include <cstdint>

#include "vt/policy/ggml_type.h"
#include "vt/policy/ggml_type_set.h"

namespace vt::cpu {

// True when the CPU computes vec_dot for weights of `type`.
bool HasVecDot(GgmlType type);

// The weight block types the CPU executes from their blocks (vec_dot),
// read from the kernel table: what the policy's CPU capability must claim.
GgmlTypeSet CpuVecDotBlockTypes();

// Dot of `k` weights of `weight_type` with `k` activations stored in
// ActivationFormatFor(weight_type), with the fastest kernel this CPU runs.
// Returns NaN for a type without vec_dot or a k that is not a whole number
// of both formats' blocks.
float VecDot(GgmlType weight_type, const void* weights, const void* activations, int64_t k);

// The scalar reference (see above), whatever the CPU.
float VecDotReference(GgmlType weight_type, const void* weights, const void* activations, int64_t k);

// The instruction set VecDot uses for `type` on this CPU: "avx2" or "scalar".
const char* VecDotIsa(GgmlType type);

}  // namespace vt::cpu
