#!/bin/sh
# Sets up a fresh Debian/Ubuntu machine: installs the build and test
# dependencies, builds gpurace, and runs a first kernel.
set -eu
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cpp g++ autoconf automake libtool pkg-config check lcov clang >/dev/null
fi
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc 2>/dev/null || echo 2)"
./gpurace run kernels/examples/reduce.cu --dump out
