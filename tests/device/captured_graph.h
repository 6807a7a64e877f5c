// A graph of vt's launches captured on a stream of the test's own, as an
// engine captures its decode step (the legacy default stream cannot be
// captured), replayed on that stream. The capture is in the strictest
// mode (global): a call that allocated, synchronized or did anything else
// a capture forbids, its first-call set-up included, would end it.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "device_array.h"
#include "gpu_vendor.h"
#include "vt/kernels/gpu/kernels.h"

namespace vt::testing {

class CapturedGraph {
 public:
  // Captures the launches `queue(stream)` makes; queue returns the
  // statuses of the calls it made. A refused call or a failed capture fails
  // the test once the capture has ended, leaving nothing behind.
  template <class Queue>
  explicit CapturedGraph(Queue&& queue) {
    CheckGpu(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "stream");
    try {
      Capture(queue);
    } catch (...) {
      Release();
      throw;
    }
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() { Release(); }

  // The captured graph's edges, and those of them that let a launch start
  // while the one before it ends (CUDA's programmatic dependencies, which
  // vt's early launches become when captured); both 0 on HIP.
  int64_t edges() const { return edges_; }
  int64_t programmatic_edges() const { return programmatic_edges_; }

  // Launches the graph and waits for it. It first waits for the device:
  // the tests write inputs and poison outputs on the legacy default stream,
  // which a non-blocking stream does not wait for.
  void Replay() const {
    CheckGpu(cudaDeviceSynchronize(), "inputs");
    CheckGpu(cudaGraphLaunch(replay_, stream_), "graph launch");
    CheckGpu(cudaStreamSynchronize(stream_), "graph replay");
  }

 private:
  template <class Queue>
  void Capture(Queue& queue) {
    CheckGpu(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal), "begin capture");
    const std::vector<gpu::LaunchStatus> statuses = queue(static_cast<gpu::StreamHandle>(stream_));
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream_, &graph);
    cudaError_t instantiated = cudaSuccess;
    cudaError_t counted = cudaSuccess;
    if (ended == cudaSuccess) {
      counted = CountEdges(graph);
      instantiated = cudaGraphInstantiateWithFlags(&replay_, graph, 0);
      (void)cudaGraphDestroy(graph);
    }
    for (const gpu::LaunchStatus& status : statuses) {
      INFO(status.error);
      REQUIRE(status.ok());
    }
    CheckGpu(ended, "end capture");
    CheckGpu(counted, "graph edges");
    CheckGpu(instantiated, "instantiate graph");
  }

  cudaError_t CountEdges(cudaGraph_t graph) {
#if defined(VT_HIP)
    (void)graph;
    return cudaSuccess;
#else
    size_t count = 0;
    if (const cudaError_t error = cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count); error != cudaSuccess) {
      return error;
    }
    std::vector<cudaGraphNode_t> from(count), to(count);
    std::vector<cudaGraphEdgeData> data(count);
    if (const cudaError_t error = cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &count);
        error != cudaSuccess) {
      return error;
    }
    edges_ = static_cast<int64_t>(count);
    for (const cudaGraphEdgeData& edge : data) {
      programmatic_edges_ += edge.type == cudaGraphDependencyTypeProgrammatic ? 1 : 0;
    }
    return cudaSuccess;
#endif
  }

  void Release() noexcept {
    if (replay_ != nullptr) (void)cudaGraphExecDestroy(replay_);
    (void)cudaStreamDestroy(stream_);
  }

  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t replay_ = nullptr;
  int64_t edges_ = 0, programmatic_edges_ = 0;
};

}  // namespace vt::testing
