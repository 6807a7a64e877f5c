// Runner for tests/device: without a GPU it exits with CTest's skip code,
// never a pass.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>
#include <string_view>

#include "vt/runtime/backend.h"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::string_view(argv[i]).starts_with("--list");
  if (!listing && vt::GpuDeviceCount() == 0) {
    std::cout << "skipped: no GPU (" << vt::GpuBuildKind() << " build sees 0 devices)\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
