#!/usr/bin/env bash
# The guest image's cache key: a hash of everything that decides what goes
# into it (build-image.sh and the files under image/), not of the scenarios,
# which reach the guest over 9p at every run.
set -euo pipefail
cd "$(dirname "$0")"
{ sha256sum build-image.sh; find image -type f | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16
