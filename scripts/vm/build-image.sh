#!/usr/bin/env bash
# Builds the Debian 12 guest that scripts/vm-test.sh boots: a debootstrap
# root filesystem (kernel, systemd, udev, BlueZ with its test tools, Python
# with Bumble for the emulated clip) turned into an ext4 image, plus the
# kernel and initrd to boot it with. Only Debian (the mirror this machine's apt
# uses) and PyPI are reached.
#
#   scripts/vm/build-image.sh OUT_DIR
#
# Writes OUT_DIR/{rootfs.ext4,vmlinuz,initrd.img,recipe.sha256}. The caller
# (vm-test.sh) names OUT_DIR after recipe-hash.sh, so changing this file or
# anything under scripts/vm/image/ builds a new image and an unchanged recipe
# reuses the cached one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build-image.sh OUT_DIR}"

suite=bookworm
# Pinned so the same recipe gives the same guest.
bumble_version=0.0.236
packages=(
  linux-image-amd64 systemd systemd-sysv udev dbus kmod procps
  bluez bluez-test-tools libbluetooth3 libudev1 libsystemd0 libmosquitto1 python3
)

# The Debian mirror this machine's apt already uses (deb822 or one-line form).
mirror="${LIFTBUDDY_VM_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -1 || true)"
fi
if [ -z "$mirror" ]; then
  mirror="$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -v security | head -1 || true)"
fi
[ -n "$mirror" ] || { echo "build-image: no Debian mirror in /etc/apt; set LIFTBUDDY_VM_MIRROR" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/liftbuddy-vm-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"

echo "build-image: debootstrap $suite from $mirror"
include="$(IFS=,; echo "${packages[*]}")"
debootstrap --variant=minbase --include="$include" "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -30 "$work/debootstrap.log" >&2; exit 1; }

echo "build-image: Bumble $bumble_version from PyPI"
pip3 install --quiet --disable-pip-version-check --no-warn-script-location \
  --target "$root/opt/bumble" --python-version 3.11 --implementation cp \
  --platform manylinux2014_x86_64 --only-binary=:all: "bumble==$bumble_version"

# The guest's own files: the test hook unit and its launcher, quiet boot.
cp -a "$here/image/." "$root/"
chroot "$root" systemctl enable liftbuddy-vmtest.service >/dev/null 2>&1
# Nothing but the test runs: no login prompts, no periodic jobs.
for unit in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer \
  apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer systemd-tmpfiles-clean.timer; do
  chroot "$root" systemctl mask "$unit" >/dev/null 2>&1 || true
done
echo liftbuddy-vm >"$root/etc/hostname"
echo "/dev/vda / ext4 rw,relatime 0 1" >"$root/etc/fstab"
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*

mkdir -p "$out"
cp "$root"/boot/vmlinuz-* "$out/vmlinuz.tmp" && mv "$out/vmlinuz.tmp" "$out/vmlinuz"
cp "$root"/boot/initrd.img-* "$out/initrd.tmp" && mv "$out/initrd.tmp" "$out/initrd.img"
mkfs.ext4 -q -F -L liftbuddy-root -d "$root" "$out/rootfs.tmp" 1536M
mv "$out/rootfs.tmp" "$out/rootfs.ext4"
"$here/recipe-hash.sh" >"$out/recipe.sha256"
echo "build-image: $(du -sh "$out/rootfs.ext4" | cut -f1) image in $out"
