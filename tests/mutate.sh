#!/usr/bin/env bash
# Mutation check for the policy headers: each row deletes a term, flips a
# comparison or swaps a device in one header; the policy and oracle tests
# must then fail. A mutant that does not compile is reported as such and
# counts as a failure of this script (it proves nothing).
#
# Works on a scratch copy of the tree, never on the checkout. Prints a table;
# exits 1 if any mutant survived or did not build.
# Usage: tests/mutate.sh [BUILD_JOBS]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${1:-2}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# Copy the tree (without builds); ../shared stays reachable through VT_CORPUS_DIR.
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$scratch" -xf -
export VT_CORPUS_DIR="${VT_CORPUS_DIR:-$root/../shared/corpus}"
export VT_ORACLE_GOLDEN="${VT_ORACLE_GOLDEN:-$root/../shared/oracle/quant-golden-s1.gguf}"
cmake -S "$scratch" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVT_BUILD_BENCH=OFF \
  >/dev/null || exit 1
targets=(vt_policy_tests vt_oracle_tests)
cmake --build "$scratch/build" -j "$jobs" --target "${targets[@]}" >/dev/null || exit 1

# The oracle tests skip (exit 77) without ../shared; the policy tests alone
# must then kill every mutant.
run_tests() {
  "$scratch/build/tests/pure/vt_policy_tests" >/dev/null 2>&1 || return 1
  "$scratch/build/tests/pure/vt_oracle_tests" >/dev/null 2>&1
  local rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]
}
if ! run_tests; then echo "mutate: the unmutated tests fail; fix them first"; exit 1; fi

# file | text to find (exactly once) | replacement | what the mutation does
mutations=$(cat <<'TABLE'
include/vt/policy/route.h|in.caps.keep_quant.Contains(in.type) &&|| keep-quant ignores the device's type set
include/vt/policy/route.h|in.ne[0] % TraitsOf(in.type).block_elements == 0 &&|| keep-quant ignores whole blocks
include/vt/policy/route.h|in.switches.keep_quant &&\n         !in.switches.cpu_ref;|in.switches.keep_quant;| keep-quant ignores cpu-ref
include/vt/policy/route.h|    case TensorRole::kStackedExperts:\n      return true;\n    case TensorRole::kEmbeddingTable:\n    case TensorRole::kTransformedWeight:|    case TensorRole::kStackedExperts:\n    case TensorRole::kTransformedWeight:\n      return true;\n    case TensorRole::kEmbeddingTable:| a transformed weight counts as verbatim
include/vt/policy/route.h|return static_cast<uint64_t>(elements) * 2;|return static_cast<uint64_t>(elements) * 1;| BF16 expansion sized at one byte per element
include/vt/policy/route.h|if (in.caps.quant_gather.Contains(in.type)) {|if (in.caps.keep_quant.Contains(in.type)) {| gather asks the keep-quant set
include/vt/policy/placement.h|  if (!plan.installed) return plan.engine_device;\n|| a never-installed plan is consulted anyway
include/vt/policy/placement.h|if (site.routed_expert && layer < plan.expert_device.size()|if (false && layer < plan.expert_device.size()| placement ignores the expert device
include/vt/policy/placement.h|  if (site.override_rule >= 0 &&|  if (false \&\& site.override_rule >= 0 \&\&| override rules are ignored
include/vt/policy/footprint.h|tensor.ne, CapsOf(decision.device.kind), switches});|tensor.ne, CapsOf(plan.engine_device.kind), switches});| routing asks the engine device, not the executing one
include/vt/policy/footprint.h|    const DeviceId device = LayerDeviceFor(plan, static_cast<int32_t>(layer));|    const DeviceId device = kHostDevice;| the KV cache is counted on the host
include/vt/policy/fit.h|fit.fits = fit.need_bytes <= fit.budget_bytes;|fit.fits = fit.need_bytes >= fit.budget_bytes;| the fit comparison flipped
include/vt/policy/fit_resolver.h|        low = mid + 1;|        low = mid + 2;| the resolver skips candidates
include/vt/policy/kv_cache.h|? uint64_t{shape.kv_lora_rank} + shape.rope_dim|? uint64_t{shape.kv_lora_rank}| MLA cache forgets the rope part
include/vt/policy/device_caps.h|return {kind, kRocmKeepQuant, false, kRocmKeepQuant};|return {kind, kRocmKeepQuant, true, kRocmKeepQuant};| ROCm claims keep-F16
include/vt/rocm/memory_policy.h|return p.integrated && p.managed_memory;|return p.managed_memory;| managed alloc without the integrated term
include/vt/rocm/memory_policy.h|return p.pageable_memory_access && p.concurrent_managed_access;|return p.pageable_memory_access;| host addressable without concurrent access
include/vt/rocm/memory_policy.h|if (*p.measured_managed_ceiling_bytes < reported) {|if (*p.measured_managed_ceiling_bytes > reported) {| the managed ceiling comparison flipped
include/vt/policy/staged_h2d.h|!in.stream_capturing && in.dst == PtrKind::kDevice &&|!in.stream_capturing \&\&| staging ignores the destination
include/vt/policy/staged_h2d.h|in.src == PtrKind::kUnregisteredHost && in.bytes >= in.chunk_bytes;|in.src == PtrKind::kUnregisteredHost;| staging ignores the chunk size
include/vt/policy/staged_h2d.h|return StagingTermsExceptRing(in) && in.ring_available;|return StagingTermsExceptRing(in);| staging ignores the ring
include/vt/policy/staged_h2d.h|  if (StagingTermsExceptRing(in)) in.ring_available = ensure_ring();|  in.ring_available = ensure_ring();| the ring is allocated before the free terms
include/vt/policy/staged_h2d.h|    if (busy) {\n      wait(slot);|    if (false) {\n      wait(slot);| a refilled slot is not waited on
TABLE
)

printf '| # | mutation | builds | tests |\n|---|---|---|---|\n'
failures=0
index=0
while IFS='|' read -r file find replace what; do
  [ -n "$file" ] || continue
  index=$((index + 1))
  target="$scratch/$file"
  cp "$target" "$target.orig"
  if ! python3 - "$target" "$find" "$replace" <<'PY'
import sys
path, find, replace = sys.argv[1], sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
replace = replace.replace("\\&", "&")
text = open(path).read()
if text.count(find) != 1:
    sys.exit(f"mutation text found {text.count(find)} times in {path}")
open(path, "w").write(text.replace(find, replace))
PY
  then
    printf '| %d | %s | not applied | - |\n' "$index" "$what"
    failures=$((failures + 1))
    mv "$target.orig" "$target"
    continue
  fi
  if cmake --build "$scratch/build" -j "$jobs" --target "${targets[@]}" >"$scratch/build.log" 2>&1; then
    if run_tests; then
      printf '| %d | %s | yes | **survived** |\n' "$index" "$what"
      failures=$((failures + 1))
    else
      printf '| %d | %s | yes | killed |\n' "$index" "$what"
    fi
  elif grep -q "static assertion failed" "$scratch/build.log"; then
    # The library compiled; a STATIC_REQUIRE in the tests refused the mutant.
    printf '| %d | %s | a STATIC_REQUIRE refused it | killed |\n' "$index" "$what"
  else
    printf '| %d | %s | no | - |\n' "$index" "$what"
    failures=$((failures + 1))
  fi
  mv "$target.orig" "$target"
  touch "$target"
done <<< "$mutations"
echo "mutate: $index mutations, $failures survived or did not build"
[ "$failures" -eq 0 ]
