// Every fragment decoder of the tensor-core GEMV: FragBlock<T> for the
// types that have one (frag_decode.cuh holds the contract, the 4-bit,
// 5-bit and 8-bit types and the K-quants; the others are in the two files
// below). kHasFragDecoder<T> is read only after all of them.
#pragma once

#include "frag_decode.cuh"
#include "frag_decode_codebooks.cuh"
#include "frag_decode_fields.cuh"
