#!/usr/bin/env bash
# Builds the Debian package a user installs on a Raspberry Pi (or any Debian
# 12 machine): liftbuddyd and liftbuddy with the Swift standard library linked
# statically (the target needs no Swift toolchain, only libbluetooth, libudev,
# libsystemd and libmosquitto from Debian), the systemd unit, the udev rule, the example
# config and the docs. The maintainer scripts (scripts/deb/) create the
# `liftbuddy` group for socket clients and reload udev and systemd.
#
#   scripts/package-deb.sh [OUT_DIR]     # default: .build/deb
#   (release only: a debug build does not link with --static-swift-stdlib)
#
# Prints the .deb's path on its last line. Architecture is the build
# machine's (amd64 here; arm64 when run on a 64-bit Pi OS).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/deb}"
config="${CONFIG:-release}"

for product in liftbuddyd liftbuddy; do
  swift build -c "$config" -j "${JOBS:-1}" --static-swift-stdlib --product "$product" >&2
done
bin="$(swift build -c "$config" --static-swift-stdlib --show-bin-path)"

arch="$(dpkg --print-architecture)"
version="0.1.0"
if rev="$(git rev-parse --short=10 HEAD 2>/dev/null)"; then version="$version+git$rev"; fi
stage="$(mktemp -d "${TMPDIR:-/tmp}/liftbuddy-deb.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
root="$stage/liftbuddy"

install -D -m 755 "$bin/liftbuddyd" "$root/usr/bin/liftbuddyd"
install -D -m 755 "$bin/liftbuddy" "$root/usr/bin/liftbuddy"
strip --strip-unneeded "$root/usr/bin/liftbuddyd" "$root/usr/bin/liftbuddy"
# The unit as shipped names /usr/local/bin (a hand install); the package's
# binaries live in /usr/bin.
mkdir -p "$root/lib/systemd/system"
sed -e 's|/usr/local/bin/|/usr/bin/|g' -e 's|/usr/local/share/doc/|/usr/share/doc/|g' \
  systemd/liftbuddyd.service >"$root/lib/systemd/system/liftbuddyd.service"
# Package-only drop-in: socket clients join the `liftbuddy` group postinst
# creates, so the daemon must be in it to hand the socket to it
# (socket_group = liftbuddy). A hand install without that group leaves it out.
mkdir -p "$root/lib/systemd/system/liftbuddyd.service.d"
printf '%s\n' "# From the liftbuddy package: see /usr/share/doc/liftbuddy/daemon.md." \
  "[Service]" "SupplementaryGroups=liftbuddy" \
  >"$root/lib/systemd/system/liftbuddyd.service.d/liftbuddy-group.conf"
install -D -m 644 systemd/99-liftbuddy.rules "$root/lib/udev/rules.d/99-liftbuddy.rules"
install -D -m 644 systemd/liftbuddyd.conf "$root/etc/liftbuddy/liftbuddyd.conf"
docs="$root/usr/share/doc/liftbuddy"
install -d "$docs"
install -m 644 README.md docs/daemon.md docs/ble.md docs/configuration.md \
  docs/socket-protocol.md "$docs/"
install -m 644 LICENSE "$docs/copyright"
install -D -m 644 systemd/liftbuddyd-ble-scan.conf "$docs/examples/ble-scan.conf"

install -d "$root/DEBIAN"
for script in postinst prerm postrm; do install -m 755 "scripts/deb/$script" "$root/DEBIAN/$script"; done
echo /etc/liftbuddy/liftbuddyd.conf >"$root/DEBIAN/conffiles"
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat >"$root/DEBIAN/control" <<CONTROL
Package: liftbuddy
Version: $version
Architecture: $arch
Maintainer: LiftBuddy developers <liftbuddy@localhost>
Installed-Size: $size
Depends: libc6 (>= 2.36), libstdc++6, libgcc-s1, libbluetooth3, libudev1, libsystemd0, libmosquitto1, adduser, systemd, udev
Recommends: bluez
Section: misc
Priority: optional
Description: barbell clip daemon: reps, velocity and coaching after every set
 liftbuddyd reads the LiftBuddy barbell clip over USB serial or Bluetooth LE,
 finds reps as they happen and writes one JSON report per set; liftbuddy
 analyzes, replays and records streams and scans for clips.
CONTROL

mkdir -p "$out"
deb="$out/liftbuddy_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zzstd -z9 --build "$root" "$deb" >&2
echo "$deb"
