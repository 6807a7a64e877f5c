#!/usr/bin/env bash
# Installs everything vt builds, tests and benchmarks with, from Debian and PyPI
# only. Idempotent: a second run on a set-up machine installs nothing and takes
# about a second. Run as root (or with sudo available).
#   --hip   also Debian's HIP compiler and runtime (ROCm 5.2), for the hip preset
# CUDA (the cuda preset) comes from the machine's CUDA toolkit (nvcc on PATH).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

debian_packages=(
  cmake ninja-build g++ git
  catch2 libxxhash-dev libbenchmark-dev nlohmann-json3-dev
  python3 python3-pip hyperfine librsvg2-bin
)
if [ "${1:-}" = "--hip" ]; then
  debian_packages+=(hipcc libamdhip64-dev)
fi

missing=()
for package in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
    || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python oracles for the tests: ggml's own GGUF writer and dequantizers.
if ! python3 "$here/scripts/check_python_deps.py" "$here/requirements-test.txt" 2>/dev/null; then
  echo "setup: installing Python packages from requirements-test.txt"
  if ! python3 -m pip install -q --disable-pip-version-check -r "$here/requirements-test.txt" 2>/dev/null; then
    # Debian's own python3 refuses system-wide pip installs (PEP 668).
    python3 -m pip install -q --disable-pip-version-check --break-system-packages \
      -r "$here/requirements-test.txt"
  fi
fi
echo "setup: ready"
