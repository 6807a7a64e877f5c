#include <catch2/catch.hpp>

#include "vt/policy/device.h"

namespace vt {
namespace {

TEST_CASE("device ids parse from every spelling an operator types", "[policy][device]") {
  using Row = std::tuple<std::string_view, std::optional<DeviceId>>;
  const auto [text, expected] = GENERATE(table<std::string_view, std::optional<DeviceId>>({
      Row{"cpu", DeviceId{DeviceKind::kCpu, 0}},
      Row{"CPU", DeviceId{DeviceKind::kCpu, 0}},
      Row{"host", DeviceId{DeviceKind::kCpu, 0}},
      Row{"cuda", DeviceId{DeviceKind::kCuda, 0}},
      Row{"cuda:1", DeviceId{DeviceKind::kCuda, 1}},
      Row{"CUDA1", DeviceId{DeviceKind::kCuda, 1}},
      Row{"rocm0", DeviceId{DeviceKind::kRocm, 0}},
      Row{"hip:2", DeviceId{DeviceKind::kRocm, 2}},
      Row{"metal", DeviceId{DeviceKind::kMetal, 0}},
      Row{"tenstorrent:3", DeviceId{DeviceKind::kTenstorrent, 3}},
      Row{"gpu", std::nullopt},
      Row{"cuda:", std::nullopt},
      Row{"cpu1", std::nullopt},
      Row{"cuda:256", std::nullopt},
      Row{"cuda:1000", std::nullopt},
      Row{"", std::nullopt},
      Row{":1", std::nullopt},
  }));
  CAPTURE(text);
  CHECK(ParseDeviceId(text) == expected);
}

TEST_CASE("device names round-trip", "[policy][device]") {
  for (DeviceKind kind : kAllDeviceKinds) {
    CHECK(DeviceKindFromName(NameOf(kind)) == kind);
  }
  CHECK(ToString(kHostDevice) == "cpu");
  CHECK(ToString(DeviceId{DeviceKind::kRocm, 1}) == "rocm:1");
  STATIC_REQUIRE(ParseDeviceId("cuda:7") == DeviceId{DeviceKind::kCuda, 7});
}

}  // namespace
}  // namespace vt
