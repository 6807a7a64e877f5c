// RouteGgufTensor: a truth table with one row per term of keep-quant, and an
// exhaustive cross-product checked against an expectation written here, in
// a different shape from the code under test (a decision table by case).
#include <catch2/catch.hpp>

#include "vt/policy/route.h"

namespace vt {
namespace {

RouteInputs Inputs(TensorRole role, GgmlType type, bool type_kept, bool gathered, bool f16_kept,
                   RouteSwitches switches, bool whole_blocks = true) {
  RouteInputs in;
  in.role = role;
  in.type = type;
  const int64_t block = TraitsOf(type).block_elements;
  in.ne = {whole_blocks ? block * 16 : block * 16 + 1, 8, 1, 1};
  in.caps.kind = DeviceKind::kRocm;
  in.caps.keep_quant = type_kept ? GgmlTypeSet{type} : GgmlTypeSet{};
  in.caps.quant_gather = gathered ? GgmlTypeSet{type} : GgmlTypeSet{};
  in.caps.keep_f16 = f16_kept;
  in.switches = switches;
  return in;
}

TEST_CASE("keep-quant: each of its terms alone turns it off", "[policy][route]") {
  const RouteSwitches on{true, true, false};
  struct Row {
    const char* what;
    RouteInputs in;
    Route expected;
  };
  const Row rows[] = {
      {"all terms hold", Inputs(TensorRole::kStackedExperts, GgmlType::kQ4_K, true, false, false, on),
       {Residency::kKeepQuantBlocks, RouteReason::kBlocksExecuted}},
      {"role not verbatim",
       Inputs(TensorRole::kTransformedWeight, GgmlType::kQ4_K, true, false, false, on),
       {Residency::kExpandBf16, RouteReason::kTransformedAtLoad}},
      {"type not kept by the device",
       Inputs(TensorRole::kStackedExperts, GgmlType::kQ4_K, false, false, false, on),
       {Residency::kExpandBf16, RouteReason::kBlocksNotExecutedHere}},
      {"K not a whole number of blocks",
       Inputs(TensorRole::kStackedExperts, GgmlType::kQ4_K, true, false, false, on, false),
       {Residency::kExpandBf16, RouteReason::kPartialBlockRow}},
      {"keep-quant switched off",
       Inputs(TensorRole::kStackedExperts, GgmlType::kQ4_K, true, false, false, {false, true, false}),
       {Residency::kExpandBf16, RouteReason::kKeepQuantSwitchedOff}},
      {"cpu-ref on",
       Inputs(TensorRole::kStackedExperts, GgmlType::kQ4_K, true, false, false, {true, true, true}),
       {Residency::kExpandBf16, RouteReason::kCpuReference}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    const Route route = RouteGgufTensor(row.in);
    CHECK(NameOf(route.residency) == NameOf(row.expected.residency));
    CHECK(Describe(route.reason) == Describe(row.expected.reason));
  }
}

TEST_CASE("the seeds' tower: IQ1_S keeps its blocks on the host and expands on ROCm",
          "[policy][route]") {
  RouteInputs in;
  in.role = TensorRole::kStackedExperts;
  in.type = GgmlType::kIQ1_S;
  in.ne = {7168, 2048, 256, 1};
  in.caps = CapsOf(DeviceKind::kCpu);
  CHECK(RouteGgufTensor(in).residency == Residency::kKeepQuantBlocks);
  in.caps = CapsOf(DeviceKind::kRocm);
  CHECK(RouteGgufTensor(in).residency == Residency::kExpandBf16);
  CHECK(RouteGgufTensor(in).reason == RouteReason::kBlocksNotExecutedHere);
  // Q4_K stays blocks on both.
  in.type = GgmlType::kQ4_K;
  CHECK(RouteGgufTensor(in).residency == Residency::kKeepQuantBlocks);
}

enum class TypeClass { kPlain, kF16, kBlocks };

// The expectation, written as a decision table by case.
Residency Expected(TensorRole role, TypeClass type, bool type_kept, bool gathered, bool f16_kept,
                   RouteSwitches sw, bool whole) {
  if (type == TypeClass::kPlain) return Residency::kKeepNativeFloat;
  const bool f16_stays = f16_kept && sw.keep_f16 && !sw.cpu_ref;
  switch (role) {
    case TensorRole::kUnclaimed:
    case TensorRole::kVector:
    case TensorRole::kConvWeight:
      return type == TypeClass::kF16 ? Residency::kKeepNativeFloat : Residency::kExpandBf16;
    case TensorRole::kTransformedWeight:
      return Residency::kExpandBf16;
    case TensorRole::kEmbeddingTable:
      if (type == TypeClass::kF16) return f16_stays ? Residency::kKeepF16 : Residency::kExpandBf16;
      return gathered && !sw.cpu_ref ? Residency::kQuantGather : Residency::kExpandBf16;
    case TensorRole::kMatmulWeight:
    case TensorRole::kStackedExperts:
      if (type == TypeClass::kF16) return f16_stays ? Residency::kKeepF16 : Residency::kExpandBf16;
      return type_kept && whole && sw.keep_quant && !sw.cpu_ref ? Residency::kKeepQuantBlocks
                                                                : Residency::kExpandBf16;
  }
  return Residency::kKeepNativeFloat;
}

TEST_CASE("every combination of role, type, capability and switch routes as expected",
          "[policy][route]") {
  const std::pair<GgmlType, TypeClass> types[] = {
      {GgmlType::kF32, TypeClass::kPlain},   {GgmlType::kBF16, TypeClass::kPlain},
      {GgmlType::kI32, TypeClass::kPlain},   {GgmlType::kF16, TypeClass::kF16},
      {GgmlType::kQ4_K, TypeClass::kBlocks}, {GgmlType::kIQ1_S, TypeClass::kBlocks},
      {GgmlType::kQ8_0, TypeClass::kBlocks}, {GgmlType::kMXFP4, TypeClass::kBlocks}};
  int combinations = 0;
  for (TensorRole role : kAllTensorRoles) {
    for (const auto& [type, type_class] : types) {
      for (int bits = 0; bits < (1 << 7); ++bits) {
        const bool type_kept = bits & 1;
        const bool gathered = bits & 2;
        const bool f16_kept = bits & 4;
        const RouteSwitches sw{(bits & 8) != 0, (bits & 16) != 0, (bits & 32) != 0};
        const bool whole = (bits & 64) != 0 || TraitsOf(type).block_elements == 1;
        const RouteInputs in = Inputs(role, type, type_kept, gathered, f16_kept, sw, whole);
        const Residency got = RouteGgufTensor(in).residency;
        const Residency want = Expected(role, type_class, type_kept, gathered, f16_kept, sw, whole);
        if (got != want) {
          CAPTURE(NameOf(role), NameOf(type), type_kept, gathered, f16_kept, sw.keep_quant,
                  sw.keep_f16, sw.cpu_ref, whole);
          CHECK(NameOf(got) == NameOf(want));
        }
        ++combinations;
      }
    }
  }
  CHECK(combinations == 7 * 8 * 128);
}

TEST_CASE("resident bytes: file bytes, except two per element when expanded", "[policy][route]") {
  STATIC_REQUIRE(ResidentBytes(Residency::kExpandBf16, 50, 256) == 512);
  STATIC_REQUIRE(ResidentBytes(Residency::kKeepQuantBlocks, 50, 256) == 50);
  STATIC_REQUIRE(ResidentBytes(Residency::kQuantGather, 144, 256) == 144);
  STATIC_REQUIRE(ResidentBytes(Residency::kKeepF16, 512, 256) == 512);
  STATIC_REQUIRE(ResidentBytes(Residency::kKeepNativeFloat, 1024, 256) == 1024);
}

}  // namespace
}  // namespace vt
