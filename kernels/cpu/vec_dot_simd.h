// SIMD vec_dot kernels, one per (weight type, ISA): `blocks` weight blocks
// against the matching activation blocks. Internal to kernels/cpu.
#pragma once

#include <cstdint>

#include "vt/policy/ggml_type.h"

namespace vt::cpu {
// Every f16 bit pattern's float value (256 KiB, built on first use): the SIMD
// kernels but Q8_0's read block scales through it, a load instead of a
// conversion on the shuffle port (vec_dot_x86_blocks.inc says why Q8_0
// converts).
const float* HalfToFloatTable();
// Every E8M0 exponent's value, halved (MXFP4's scale convention).
const float* E8m0HalfToFloatTable();

using SimdVecDot = float (*)(const uint8_t* w, const uint8_t* x, int64_t blocks);

// The x86 instruction sets a kernel is built for. Both builds come from the
// same sources (vec_dot_x86_*.inc) and cover the same types.
enum class X86Isa { kAvx2, kAvx512Vnni };

// The kernel for `type` built for `isa`, or null when the type has none. It
// may be called only on a CPU that has `isa`.
SimdVecDot X86VecDot(X86Isa isa, GgmlType type);

// One x86 build's kernels. Each build defines its table in its own
// namespace from the shared sources (vec_dot_x86_exports.inc).
struct X86Kernels {
  SimdVecDot q8_0, q4_0, mxfp4, q4_k, q5_k, q6_k, iq4_xs, iq2_xxs, iq1_s;
};

namespace avx2 {
extern const X86Kernels kKernels;
}
namespace avx512 {
extern const X86Kernels kKernels;
}

}  // namespace vt::cpu
