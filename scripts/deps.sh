#!/usr/bin/env bash
# Installs, from Debian packages, everything evtrace's build, tests, fuzzers and oracles need.
# Idempotent: when every package is already installed it does nothing (no apt-get call at all).
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config   # the build
  clang libclang-rt-14-dev                       # libFuzzer, ASan/UBSan/TSan runtimes, XRay runtime
  llvm                                           # llvm-xray: the XRay oracle
  libcmocka-dev                                  # unit-test framework
  gcc-arm-none-eabi libnewlib-arm-none-eabi      # freestanding Cortex-M build of the recorder
  qemu-system-arm                                # runs the Cortex-M test harness
  python3                                        # small test drivers (JSON comparisons)
)
[ -n "${EVT_EXTRA_PKGS:-}" ] && read -r -a extra <<<"$EVT_EXTRA_PKGS" && PKGS+=("${extra[@]}")
# shellcheck disable=SC1091
[ -f "$(dirname "$0")/deps-extra.txt" ] && while read -r p _; do [ -n "$p" ] && [ "${p#\#}" = "$p" ] && PKGS+=("$p"); done <"$(dirname "$0")/deps-extra.txt"

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PKGS[@]} packages present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
