// Device decoders: one per GGUF block type, each turning 32 consecutive
// values (a "chunk") of one block into floats, in the order the CPU
// dequantizer writes them. Products and sums use the _rn intrinsics so nvcc
// cannot fuse them: every value equals the CPU kernels' (and so ggml's) bit
// for bit. The plain float types are read as chunks of 32 elements.
#pragma once

#include "block_decode_small.cuh"
#include "block_decode_kquants.cuh"
#include "block_decode_codebooks.cuh"
#include "block_decode_ternary.cuh"
