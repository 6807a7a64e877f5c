// Integer decoders for the keep-quant GEMV: a 32-value chunk of a block as
// 32 small integers (eight packed int8 words) under two affine maps, one per
// half of 16 values:
//   value[i] = d[i / 16] * v[i] - m[i / 16]
// so that a dot product with an int8-quantized activation is eight dp4a
// instructions plus two scale terms. Every block type has this form; the
// plain floats take the float path (block_decode.cuh).
#pragma once

#include "int_decode_small.cuh"
#include "int_decode_kquants.cuh"
#include "int_decode_codebooks.cuh"
#include "int_decode_ternary.cuh"
