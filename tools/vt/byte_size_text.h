// Byte counts as people read them.
#pragma once

#include <cstdint>
#include <string>

namespace vt::cli {

// "512 B", "1.50 KiB", "139.80 GiB": binary units, two decimals above bytes.
std::string FormatBytes(uint64_t bytes);

}  // namespace vt::cli
