// How many blocks of a cluster split k over a GEMV's rows
// (cluster_split.cuh's ChooseClusterSplit), as plain host code (no vendor
// include) so tests/pure holds it to a table on any machine. Where a choice
// "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include <cstdint>
#include <span>

namespace vt::gpu {

// Which sizes of cluster a GEMV's cluster kernel may take: every size from
// 2, or powers of two only.
enum class ClusterSizes { kAny, kPowersOfTwo };

// The blocks of the cluster that owns each of a launch's `blocks` blocks'
// rows (1: no cluster). at_once[s - 1] is how many units of s blocks the
// device holds at once (s = 1: blocks of the kernel without clusters; a
// device without clusters passes one entry; an entry of 0 or less rules
// its size out). 1 where the rows' blocks alone fill the device (`blocks`
// of at_once[0] or more). Else the largest size of `sizes` up to `most`
// whose units the device holds `blocks` of at once, so that every cluster
// runs in one wave and as many blocks stream as one wave allows; 1 where
// none does.
inline int LargestClusterSplit(int64_t blocks, int most, std::span<const int64_t> at_once, ClusterSizes sizes) {
  if (at_once.empty() || blocks >= at_once[0]) return 1;
  int split = 1;
  for (int size = 2; size <= static_cast<int>(at_once.size()) && size <= most;
       size = sizes == ClusterSizes::kAny ? size + 1 : 2 * size) {
    if (blocks <= at_once[static_cast<size_t>(size - 1)]) split = size;
  }
  return split;
}

}  // namespace vt::gpu
