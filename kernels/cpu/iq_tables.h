// The IQ codebooks and the IQ4 / FP4 value tables as host constants
// (vt::cpu::iq). Format constants from ggml (MIT), see NOTICE.
#pragma once

#include <cstdint>

namespace vt::cpu::iq {
#define VT_IQ_TABLE inline constexpr
#include "../formats/iq_codebooks.inc"
#undef VT_IQ_TABLE
}  // namespace vt::cpu::iq
