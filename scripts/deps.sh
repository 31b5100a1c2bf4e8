#!/usr/bin/env bash
# Installs the Debian packages of one profile of scripts/deps.txt: `run` (what `make run` and
# `make install` need: compiler, CMake, Ninja, pkg-config, SQLite, python3, clang for the XRay demo)
# or `check` (run + tests, oracles, sanitizers, Cortex-M, QEMU; the default).
# Idempotent: when every package is already installed it does nothing (no apt-get call at all).
# Usage: scripts/deps.sh [run|check] [--list]   (--list prints the profile's packages and exits)
set -euo pipefail

profile="check"
list=0
for a in "$@"; do
    case "$a" in
        run|check) profile="$a" ;;
        --list) list=1 ;;
        *) echo "usage: $0 [run|check] [--list]" >&2; exit 2 ;;
    esac
done

PKGS=()
while read -r p pkg _; do
    case "$p" in
        run) PKGS+=("$pkg") ;;
        check) [ "$profile" = check ] && PKGS+=("$pkg") ;;
        ''|'#'*) ;;
        *) echo "deps: bad profile '$p' in scripts/deps.txt" >&2; exit 2 ;;
    esac
done <"$(dirname "$0")/deps.txt"
[ -n "${EVT_EXTRA_PKGS:-}" ] && read -r -a extra <<<"$EVT_EXTRA_PKGS" && PKGS+=("${extra[@]}")

if [ "$list" -eq 1 ]; then
    printf '%s\n' "${PKGS[@]}"
    exit 0
fi
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps ($profile): all ${#PKGS[@]} packages present"
    exit 0
fi
echo "deps ($profile): installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
