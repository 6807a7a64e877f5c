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

// A block's run of k as its loop walks it: `units` in all (chunks, or a
// staged kernel's spans), `per_step` of them a step (1 or more).
struct RunSteps {
  int64_t units;
  int64_t per_step;
};

// The steps of the longest run when `run` is split evenly between `size`
// blocks (1 or more).
inline int64_t StepsOfLongestRun(RunSteps run, int size) {
  const int64_t longest = (run.units + size - 1) / size;
  return (longest + run.per_step - 1) / run.per_step;
}

// The blocks of the cluster that owns each of a launch's `blocks` blocks'
// rows, at_once as for LargestClusterSplit (1 where the rows' blocks alone
// fill the device). Else, of every size up to `most` whose units the
// device holds more than `blocks` of at once (a launch that fills every
// place leaves none for the kernel queued behind it), the one whose
// blocks take the fewest steps over `run` (StepsOfLongestRun); of sizes
// that tie, the smallest, as a larger cluster that saves no step only
// adds blocks and their sums.
inline int FewestStepsClusterSplit(int64_t blocks, int most, std::span<const int64_t> at_once, RunSteps run) {
  if (at_once.empty() || blocks >= at_once[0]) return 1;
  int split = 1;
  int64_t least = StepsOfLongestRun(run, 1);
  for (int size = 2; size <= static_cast<int>(at_once.size()) && size <= most; ++size) {
    if (blocks >= at_once[static_cast<size_t>(size - 1)]) continue;
    const int64_t steps = StepsOfLongestRun(run, size);
    if (steps < least) {
      least = steps;
      split = size;
    }
  }
  return split;
}

}  // namespace vt::gpu
