// Whether a host-to-device copy is staged through the pinned ring, and the
// staging loop itself.
//
// A pageable source handed to the driver in one call runs at a tenth of the
// bus and, for multi-GiB sources, can wedge a runtime that must pin the whole
// range first. Staging copies it chunk by chunk into a few pinned buffers
// (the ring) and uploads from those, so host pinned memory stays
// ring_bytes whatever the size.
//
// Pure: the caller classifies pointers and probes capture, and feeds every
// term to the predicates; the loop is a template over callables (wait, stage,
// enqueue) so tests drive it with fakes. No vendor header, no environment.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace vt {

// What the runtime says a pointer is. Both shapes of "the runtime does not
// know this pointer" (an error return, or success with neither a host nor a
// device address) are kUnregisteredHost: plain pageable memory.
enum class PtrKind : uint8_t {
  kUnregisteredHost,  // malloc'd, mmap'd: pageable
  kPinnedHost,        // registered or allocated pinned
  kDevice,
  kManaged,
};

constexpr std::string_view NameOf(PtrKind kind) {
  switch (kind) {
    case PtrKind::kUnregisteredHost: return "unregistered-host";
    case PtrKind::kPinnedHost: return "pinned-host";
    case PtrKind::kDevice: return "device";
    case PtrKind::kManaged: return "managed";
  }
  return "unknown";
}

// What cudaPointerGetAttributes / hipPointerGetAttributes answered, reduced
// to values: the call's success, the memory type it named, and whether it
// gave a device or host address.
enum class ReportedMemoryType : uint8_t { kUnregistered, kHost, kDevice, kManaged, kOther };
struct PointerQuery {
  bool call_succeeded = false;
  ReportedMemoryType type = ReportedMemoryType::kUnregistered;
  bool has_device_pointer = false;
  bool has_host_pointer = false;
};

// Classifies a pointer from its query. Both shapes of "unknown pointer" (an
// error return, as HIP and older CUDA give for malloc'd memory; or success
// with neither address, as CUDA 11+ gives) mean pageable host memory.
constexpr PtrKind ClassifyPointer(const PointerQuery& q) {
  if (!q.call_succeeded) return PtrKind::kUnregisteredHost;
  if (!q.has_device_pointer && !q.has_host_pointer) return PtrKind::kUnregisteredHost;
  switch (q.type) {
    case ReportedMemoryType::kDevice: return PtrKind::kDevice;
    case ReportedMemoryType::kManaged: return PtrKind::kManaged;
    case ReportedMemoryType::kHost: return PtrKind::kPinnedHost;
    case ReportedMemoryType::kUnregistered:
    case ReportedMemoryType::kOther:
      return PtrKind::kUnregisteredHost;
  }
  return PtrKind::kUnregisteredHost;
}

struct StagedH2DInputs {
  uint64_t chunk_bytes = 0;       // 0: the ring is switched off
  bool stream_capturing = false;  // a failed capture probe counts as capturing
  PtrKind dst = PtrKind::kDevice;
  PtrKind src = PtrKind::kUnregisteredHost;
  uint64_t bytes = 0;
  bool ring_available = false;    // the ring exists (allocated, or allocatable)
};

// Every term but the ring: staging is enabled, the stream is not capturing,
// the destination is device memory, the source is unregistered host memory,
// and the copy is at least one chunk. Evaluated before any ring allocation,
// so a copy that fails one of these never allocates pinned memory.
constexpr bool StagingTermsExceptRing(const StagedH2DInputs& in) {
  return in.chunk_bytes > 0 && !in.stream_capturing && in.dst == PtrKind::kDevice &&
         in.src == PtrKind::kUnregisteredHost && in.bytes >= in.chunk_bytes;
}

// The single authority: stage exactly when every term holds and the ring is
// there.
constexpr bool ShouldStageH2D(const StagedH2DInputs& in) {
  return StagingTermsExceptRing(in) && in.ring_available;
}

// Counters the runtime exposes and tests assert on.
struct StagedCopyStats {
  uint64_t staged_copies = 0;  // Copy calls that went through the ring
  uint64_t direct_copies = 0;  // Copy calls handed to the driver in one call
  uint64_t chunks = 0;         // ring chunks uploaded
  uint64_t max_chunk_bytes = 0;
  uint64_t ring_bytes = 0;     // pinned host bytes the ring holds (0 until allocated)
};

// Ring slots that outlive a single copy: which slot comes next, and which
// slots have an upload in flight (their pinned buffer may not be refilled
// until it completes).
class RingState {
 public:
  explicit RingState(uint32_t slot_count) : in_flight_(std::max<uint32_t>(slot_count, 1), false) {}
  uint32_t slot_count() const { return static_cast<uint32_t>(in_flight_.size()); }
  uint32_t next_slot() const { return next_; }
  bool in_flight(uint32_t slot) const { return in_flight_[slot]; }

  // Takes the next slot: returns it, and whether its previous upload must be
  // waited on first.
  std::pair<uint32_t, bool> Take() {
    const uint32_t slot = next_;
    next_ = (next_ + 1) % slot_count();
    return {slot, static_cast<bool>(in_flight_[slot])};
  }
  void MarkInFlight(uint32_t slot) { in_flight_[slot] = true; }
  void MarkIdle(uint32_t slot) { in_flight_[slot] = false; }

 private:
  std::vector<bool> in_flight_;
  uint32_t next_ = 0;
};

// Copies `bytes` from src to dst in chunks of at most `chunk_bytes`, each
// through the next ring slot: wait(slot) when that slot's previous upload is
// in flight, stage(slot, src + offset, n) to fill the slot's pinned buffer,
// enqueue(slot, dst + offset, n) to upload it and record the slot's event.
// Returns the number of chunks. Requires chunk_bytes > 0.
template <typename Wait, typename Stage, typename Enqueue>
uint64_t RunStagedH2D(RingState& ring, char* dst, const char* src, uint64_t bytes,
                      uint64_t chunk_bytes, Wait&& wait, Stage&& stage, Enqueue&& enqueue) {
  uint64_t chunks = 0;
  for (uint64_t offset = 0; offset < bytes; offset += chunk_bytes) {
    const uint64_t n = std::min(chunk_bytes, bytes - offset);
    const auto [slot, busy] = ring.Take();
    if (busy) {
      wait(slot);
      ring.MarkIdle(slot);
    }
    stage(slot, src + offset, n);
    enqueue(slot, dst + offset, n);
    ring.MarkInFlight(slot);
    ++chunks;
  }
  return chunks;
}

// The production dispatch of one copy: the free terms first; only when they
// all hold is the ring asked for (ensure_ring() allocates it on first use and
// returns whether it exists); then the one predicate decides. Returns the
// result of staged() or direct(). Every input reaches ShouldStageH2D; nothing
// here re-spells a term.
template <typename EnsureRing, typename Staged, typename Direct>
auto DispatchH2D(StagedH2DInputs in, EnsureRing&& ensure_ring, Staged&& staged, Direct&& direct) {
  if (StagingTermsExceptRing(in)) in.ring_available = ensure_ring();
  return ShouldStageH2D(in) ? staged() : direct();
}

// Knobs, parsed from the environment's text by the runtime. A typo takes the
// default (never silently "off"); an explicit 0 turns the ring off; values
// are bounded. The default ring (4 x 16 MiB) is small enough to stay in a
// server CPU's last-level cache while the DMA engine reads it
// (docs/BENCHMARKS.md has the sweep that chose it).
inline constexpr uint64_t kDefaultPinnedChunkMiB = 16;
inline constexpr uint64_t kMaxPinnedChunkMiB = 1024;
inline constexpr uint32_t kDefaultPinnedBuffers = 4;
inline constexpr uint32_t kMinPinnedBuffers = 2;
inline constexpr uint32_t kMaxPinnedBuffers = 16;
inline constexpr uint32_t kMaxFillThreads = 64;

namespace staged_h2d_detail {
constexpr std::optional<uint64_t> ParseDecimal(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 12) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}
}  // namespace staged_h2d_detail

// VT_PINNED_H2D_MIB: chunk (and buffer) size in MiB. Unset or a typo: 16;
// "0": off; above 1024: 1024. Returns bytes.
constexpr uint64_t ParsePinnedH2DChunkBytes(std::optional<std::string_view> text) {
  if (!text) return kDefaultPinnedChunkMiB << 20;
  const std::optional<uint64_t> mib = staged_h2d_detail::ParseDecimal(*text);
  if (!mib) return kDefaultPinnedChunkMiB << 20;
  return std::min(*mib, kMaxPinnedChunkMiB) << 20;
}

// VT_PINNED_H2D_BUFFERS: ring slots. Unset or a typo: 4; clamped to 2..16.
constexpr uint32_t ParsePinnedH2DBuffers(std::optional<std::string_view> text) {
  const std::optional<uint64_t> count =
      text ? staged_h2d_detail::ParseDecimal(*text) : std::nullopt;
  if (!count) return kDefaultPinnedBuffers;
  return static_cast<uint32_t>(
      std::clamp<uint64_t>(*count, kMinPinnedBuffers, kMaxPinnedBuffers));
}

// VT_PINNED_H2D_THREADS: threads filling each chunk. Unset or a typo:
// `default_threads` (the runtime passes min(8, hardware threads)); clamped to 1..64.
constexpr uint32_t ParsePinnedH2DThreads(std::optional<std::string_view> text,
                                         uint32_t default_threads) {
  const std::optional<uint64_t> count =
      text ? staged_h2d_detail::ParseDecimal(*text) : std::nullopt;
  if (!count) return std::clamp<uint32_t>(default_threads, 1, kMaxFillThreads);
  return static_cast<uint32_t>(std::clamp<uint64_t>(*count, 1, kMaxFillThreads));
}

}  // namespace vt
