// Activation formats: the quantized form ggml gives the activation x before
// a dot product with a weight row (Q8_0, Q8_1 or Q8_K; F32/F16/BF16 for the
// float weights), and the quantizers that produce them.
#pragma once

#include <cstdint>

#include "vt/policy/ggml_type.h"

namespace vt::cpu {

// The activation format vec_dot pairs with weights of `weight_type`
// (ggml's vec_dot_type).
GgmlType ActivationFormatFor(GgmlType weight_type);

// Quantizes `n` floats (a whole number of blocks of the format) into `out`.
// Returns false, writing nothing, for another format or a partial block.
// Rounding: nearest, ties to even, as ggml's x86 CPU backend does.
bool QuantizeActivation(GgmlType format, const float* x, void* out, int64_t n);

}  // namespace vt::cpu
