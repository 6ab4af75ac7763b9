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
    build-essential cpp g++ autoconf automake libtool pkg-config check lcov clang python3 python3-venv libz3-dev pocl-opencl-icd ocl-icd-opencl-dev libopenmpi-dev openmpi-bin >/dev/null
fi
# The CUDA compiler, for `--cc nvcc|nvrtc` (any CUDA C++ through PTX) and
# the tests of that path: the machine's own toolkit where there is one,
# else NVIDIA's wheels from PyPI in the project's .venv (never system-wide),
# where gpurace looks for them.  Without either, those tests say they skip.
if command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "setup: CUDA compiler: $(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
elif ls .venv/lib/python3*/site-packages/nvidia/cu*/bin/nvcc >/dev/null 2>&1; then
  echo "setup: CUDA compiler: $(ls .venv/lib/python3*/site-packages/nvidia/cu*/bin/nvcc | head -1)"
elif python3 -m venv .venv && .venv/bin/pip install -q nvidia-cuda-nvcc nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cuda-cccl; then
  echo "setup: CUDA compiler from PyPI in .venv: $(ls .venv/lib/python3*/site-packages/nvidia/cu*/bin/nvcc | head -1)"
else
  echo "setup: no CUDA compiler (PyPI unreachable?): --cc nvcc|nvrtc and their tests are skipped" >&2
fi
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc 2>/dev/null || echo 2)"
./gpurace run kernels/examples/reduce.cu --dump out
