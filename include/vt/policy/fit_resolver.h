// The fit resolver: the smallest host placement that fits the board.
//
// Escalation order: first move the routed experts of layers 0..N-1 to the
// host (llama.cpp --n-cpu-moe N) with the fewest N that fits; only when every
// expert on the host still does not fit, shorten the context (the longest
// that fits, in steps of kContextStep, down to min_ctx). Every candidate is
// sized by DecideTensor, i.e. by resident bytes on the device that would run
// each tensor: an expert tower left on a device that cannot keep its blocks
// is sized expanded, never by its bytes on disk.
//
// The user's override rules stay in force in every candidate (they win in
// ComputeDeviceFor), so pinned tensors are honoured, not reasons to give up.
// Deterministic: binary searches over monotone needs. Pure.
#pragma once

#include <cstdint>
#include <string>

#include "vt/policy/fit.h"

namespace vt {

inline constexpr uint32_t kContextStep = 256;

struct FitRequest {
  PlacementPlan base;  // engine device, overrides and layer split; its expert placement is replaced
  PlanInputs inputs;   // inputs.ctx is the context wanted
  Board board;
  uint32_t layer_count = 0;
  uint32_t min_ctx = 512;
};

struct FitResolution {
  bool fits = false;
  PlacementPlan plan;  // origin kFit; host_expert_layers = N
  uint32_t ctx = 0;
  Footprint footprint;
  FitReport report;
  uint32_t candidates_tried = 0;
};

// One past the last layer that has a routed-expert tensor (0 for a dense model).
inline uint32_t ExpertLayerEnd(std::span<const PlannedTensor> tensors) {
  uint32_t end = 0;
  for (const PlannedTensor& tensor : tensors) {
    if (tensor.cls.routed_expert && tensor.cls.layer >= 0) {
      end = std::max(end, static_cast<uint32_t>(tensor.cls.layer) + 1);
    }
  }
  return end;
}

namespace fit_resolver_detail {

struct Candidate {
  PlacementPlan plan;
  Footprint footprint;
  FitReport report;
};

inline Candidate Evaluate(const FitRequest& request, uint32_t host_layers, uint32_t ctx) {
  Candidate candidate;
  candidate.plan = WithHostExpertLayers(request.base, request.layer_count, host_layers,
                                        PlacementOrigin::kFit);
  PlanInputs inputs = request.inputs;
  inputs.ctx = ctx;
  candidate.footprint = ComputeFootprint(candidate.plan, inputs);
  candidate.report = CheckFit(candidate.footprint, request.board);
  return candidate;
}

}  // namespace fit_resolver_detail

inline FitResolution ResolveFit(const FitRequest& request) {
  using fit_resolver_detail::Candidate;
  using fit_resolver_detail::Evaluate;
  FitResolution resolution;
  const uint32_t expert_end = std::min(ExpertLayerEnd(request.inputs.tensors), request.layer_count);
  const uint32_t wanted_ctx = request.inputs.ctx;
  const auto finish = [&](Candidate candidate, uint32_t ctx) {
    resolution.fits = candidate.report.fits;
    resolution.plan = std::move(candidate.plan);
    resolution.footprint = std::move(candidate.footprint);
    resolution.report = std::move(candidate.report);
    resolution.ctx = ctx;
    return resolution;
  };
  const auto try_candidate = [&](uint32_t host_layers, uint32_t ctx) {
    ++resolution.candidates_tried;
    return Evaluate(request, host_layers, ctx);
  };

  Candidate nothing_placed = try_candidate(0, wanted_ctx);
  if (nothing_placed.report.fits) return finish(std::move(nothing_placed), wanted_ctx);
  Candidate all_on_host =
      expert_end == 0 ? std::move(nothing_placed) : try_candidate(expert_end, wanted_ctx);
  if (all_on_host.report.fits) {
    // Fewest host layers: the need falls as N grows, so search (0, expert_end].
    uint32_t low = 1;
    uint32_t high = expert_end;  // fits
    Candidate best = std::move(all_on_host);
    while (low < high) {
      const uint32_t mid = low + (high - low) / 2;
      Candidate candidate = try_candidate(mid, wanted_ctx);
      if (candidate.report.fits) {
        high = mid;
        best = std::move(candidate);
      } else {
        low = mid + 1;
      }
    }
    return finish(std::move(best), wanted_ctx);
  }

  // Every expert on the host is not enough: the longest context that fits.
  const uint32_t floor_ctx = std::min(request.min_ctx, wanted_ctx);
  Candidate shortest = try_candidate(expert_end, floor_ctx);
  if (!shortest.report.fits) return finish(std::move(shortest), floor_ctx);
  uint32_t low_steps = floor_ctx / kContextStep;  // fits (floor_ctx rounds down to it)
  uint32_t high_steps = wanted_ctx / kContextStep;
  Candidate best = std::move(shortest);
  uint32_t best_ctx = floor_ctx;
  while (low_steps < high_steps) {
    const uint32_t mid = low_steps + (high_steps - low_steps + 1) / 2;
    const uint32_t ctx = std::max(mid * kContextStep, floor_ctx);
    Candidate candidate = try_candidate(expert_end, ctx);
    if (candidate.report.fits) {
      low_steps = mid;
      best = std::move(candidate);
      best_ctx = ctx;
    } else {
      high_steps = mid - 1;
    }
  }
  return finish(std::move(best), best_ctx);
}

// The command-line flags that reproduce a resolution: "--n-cpu-moe 40",
// "--cpu-moe", "--cpu-moe --ctx 2048", or "" when nothing needs placing.
inline std::string FlagsFor(const FitResolution& resolution, uint32_t expert_layer_end,
                            uint32_t wanted_ctx) {
  std::string flags;
  const uint32_t host_layers = resolution.plan.host_expert_layers;
  if (host_layers > 0 && host_layers >= expert_layer_end) {
    flags = "--cpu-moe";
  } else if (host_layers > 0) {
    flags = "--n-cpu-moe " + std::to_string(host_layers);
  }
  if (resolution.ctx != wanted_ctx) {
    flags += (flags.empty() ? "" : " ") + std::string("--ctx ") + std::to_string(resolution.ctx);
  }
  return flags;
}

}  // namespace vt
