// A set of ggml types as a 64-bit mask over type ids: what a device keeps,
// gathers or executes. constexpr throughout so capability tables are
// compile-time constants.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "vt/policy/ggml_type.h"

namespace vt {

class GgmlTypeSet {
 public:
  constexpr GgmlTypeSet() = default;
  constexpr GgmlTypeSet(std::initializer_list<GgmlType> types) {
    for (GgmlType type : types) mask_ |= Bit(type);
  }

  constexpr bool Contains(GgmlType type) const { return (mask_ & Bit(type)) != 0; }
  constexpr bool empty() const { return mask_ == 0; }
  constexpr int size() const { return __builtin_popcountll(mask_); }
  constexpr GgmlTypeSet With(GgmlType type) const { return FromMask(mask_ | Bit(type)); }
  constexpr GgmlTypeSet Without(GgmlType type) const { return FromMask(mask_ & ~Bit(type)); }
  constexpr uint64_t mask() const { return mask_; }
  friend constexpr bool operator==(const GgmlTypeSet&, const GgmlTypeSet&) = default;

  static constexpr GgmlTypeSet FromMask(uint64_t mask) {
    GgmlTypeSet set;
    set.mask_ = mask;
    return set;
  }

 private:
  static constexpr uint64_t Bit(GgmlType type) {
    return uint64_t{1} << static_cast<uint32_t>(type);
  }
  uint64_t mask_ = 0;
};
static_assert(kGgmlTypeIdCount <= 64, "GgmlTypeSet holds type ids below 64");

}  // namespace vt
