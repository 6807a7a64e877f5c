// Device decoders for the ternary blocks TQ1_0 and TQ2_0: values -1, 0, 1
// times one scale.
#pragma once

#include "block_format.cuh"

namespace vt::gpu {

// Trit n (0..4) of a byte of base-3 fixed-point digits: the top of
// (byte * 3^n mod 256) * 3. 3^n by selects, not a table (a table indexed at
// run time would live in local memory).
__device__ __forceinline__ int Trit(uint8_t byte, int n) {
  const int pow3 = n == 0 ? 1 : n == 1 ? 3 : n == 2 ? 9 : n == 3 ? 27 : 81;
  const uint8_t q = static_cast<uint8_t>(byte * pow3);
  return (static_cast<int>(q) * 3) >> 8;
}
// TQ1_0's value e (0..255) as a trit 0..2: five trits of each of qs[0..31]
// (values 0..159), five of qs[32..47] (160..239), four of qh[0..3].
__device__ __forceinline__ int Tq1TritAt(const uint8_t* b, int e) {
  if (e < 160) return Trit(b[e % 32], e / 32);
  if (e < 240) return Trit(b[32 + (e - 160) % 16], (e - 160) / 16);
  return Trit(b[48 + (e - 240) % 4], (e - 240) / 4);
}
template <>
struct Block<T::kTQ1_0> {
  static constexpr int kBytes = 54, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 52);
    for (int j = 0; j < 32; ++j) v[j] = Mul(F(Tq1TritAt(b, 32 * chunk + j) - 1), d);
  }
};
template <>
struct Block<T::kTQ2_0> {
  static constexpr int kBytes = 66, kValues = 256;
  __device__ static void Decode(const uint8_t* b, int chunk, float* v) {
    const float d = HalfAt(b + 64);
    const uint8_t* q = b + 32 * (chunk / 4);
    const int shift = 2 * (chunk % 4);
    for (int m = 0; m < 32; ++m) v[m] = Mul(F(((q[m] >> shift) & 3) - 1), d);
  }
};

}  // namespace vt::gpu
