#!/usr/bin/env bash
# A new player's first run, timed: `bash scripts/setup.sh demo` in a clean clone on a fresh Debian 12
# root, from the command to the demo's video written, with the time of each phase.
#   bash bench/first_run/first_run.sh [COMMIT ...]    (default: HEAD; several commits run in turn)
# Needs root, debootstrap and Debian's package registry. The root is made once (FIRST_RUN_WORK,
# default /var/tmp/vedette-first-run) and copied for every run: Debian 12 minbase, the compiler and
# CMake a fresh machine of this project comes with, and the packages of the demo's install that such a
# machine already has (image_packages.txt, read off one: 153 of the 410 the install needs on a bare
# root), so that setup.sh downloads and installs what it would there.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=${FIRST_RUN_WORK:-/var/tmp/vedette-first-run}
BASE=$WORK/base
ROOTFS=$WORK/root
[ "$(id -u)" -eq 0 ] || { echo "first_run.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "first_run.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

unmount() { for m in dev/pts dev proc; do umount "$ROOTFS/$m" 2>/dev/null || true; done; }
trap unmount EXIT

make_base() {
  local tmp=$BASE.tmp
  rm -rf "$tmp"
  debootstrap --variant=minbase bookworm "$tmp" http://deb.debian.org/debian >/dev/null
  rm -f "$tmp/etc/apt/sources.list"
  cat >"$tmp/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  cp /etc/resolv.conf "$tmp/etc/"
  cp "$HERE/image_packages.txt" "$tmp/tmp/"
  mount -t proc proc "$tmp/proc"
  chroot "$tmp" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends g++ cmake make git ca-certificates $(cat /tmp/image_packages.txt) >/dev/null \
    && apt-get clean && rm -rf /var/lib/apt/lists/*'
  umount "$tmp/proc"
  mv "$tmp" "$BASE"
}

# run COMMIT: prints the seconds from the command to each phase's end
run() {
  unmount
  rm -rf "$ROOTFS"
  cp -a "$BASE" "$ROOTFS"
  mount -t proc proc "$ROOTFS/proc"
  mount --bind /dev "$ROOTFS/dev"
  mount --bind /dev/pts "$ROOTFS/dev/pts"
  git clone -q "$REPO" "$ROOTFS/root/vedette"
  git -C "$ROOTFS/root/vedette" checkout -q "$1"
  local log=$WORK/$(git -C "$REPO" rev-parse --short "$1").log
  chroot "$ROOTFS" bash -c 'cd /root/vedette && start=$(date +%s) && bash scripts/setup.sh demo 2>&1 |
    while IFS= read -r line; do echo "$(($(date +%s) - start)) $line"; done' >"$log"
  grep -q "demo written to" "$log" || { echo "first_run.sh: $1: the demo was not written (see $log)" >&2; return 1; }
  local packages build
  packages=$(awk '/Re-checking globbed|Building CXX|Linking CXX/ {print $1; exit}' "$log")
  build=$(awk '/Linking CXX executable/ {t=$1} END {print t}' "$log")
  printf "%s: packages (with the early compile) done %s s, program built %s s, demo written %s s (log %s)\n" \
    "$1" "$packages" "$build" "$(tail -1 "$log" | cut -d' ' -f1)" "$log"
}

mkdir -p "$WORK"
[ -d "$BASE" ] || make_base
for commit in "${@:-HEAD}"; do run "$commit"; done
