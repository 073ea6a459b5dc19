#!/usr/bin/env bash
# Installs what LiftBuddy needs to build, run and test on Debian or
# Raspberry Pi OS: the C libraries behind its system-library targets, the
# tools its tests drive for real (systemd-analyze, GNU time), the firmware
# toolchain (avr-gcc, Arduino core, simavr), Mosquitto (the MQTT tests'
# real broker and its command-line clients), Python's jsonschema for the
# report schema check, NumPy and SciPy for the independent simulator and
# the plain-script baseline, headless Chromium for the web view's tests, and qemu
# and debootstrap for the Debian guest of scripts/vm-test.sh. Swift itself
# (6.0 or newer) must already be on PATH:
# see README.md.
set -euo pipefail

packages=(
  pkg-config libbluetooth-dev libudev-dev libsystemd-dev   # CBluetooth, CUdev, CSystemd
  libmosquitto-dev mosquitto mosquitto-clients              # CMosquitto; the MQTT tests' broker
  openssl                                                   # the MQTT TLS tests' certificates
  systemd time python3 python3-jsonschema                   # tests and benchmarks
  python3-numpy python3-scipy                               # scripts/independent-sim, baseline.py
  gcc-avr avr-libc arduino-core-avr simavr libsimavr-dev libelf-dev make g++  # Firmware/
  chromium fonts-dejavu-core                                 # the web view's browser tests
  qemu-system-x86 debootstrap e2fsprogs dpkg-dev             # scripts/vm-test.sh, package-deb.sh
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all system packages present"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: swift is not on PATH; install Swift 6 (https://www.swift.org/install/linux/) and run again" >&2
  exit 1
fi
echo "setup: $(swift --version 2>&1 | head -1)"
