#!/bin/sh
# nvcc, wherever scripts/setup.sh left it: $GPURACE_NVCC, $PATH,
# $CUDA_HOME/bin (or /usr/local/cuda/bin), or NVIDIA's wheels in the
# project's .venv.  With -cudart shared it links gpurace's own
# libcudart.so.13 (rt/, built by make), so that no NVIDIA runtime library
# is needed to build a program gpurace exec runs.  Arguments go to nvcc.
here=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${GPURACE_NVCC:-$(command -v nvcc || true)}
for c in "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" "$here"/.venv/lib/python3*/site-packages/nvidia/cu*/bin/nvcc; do
  [ -z "$NVCC" ] && [ -x "$c" ] && NVCC=$c
done
if [ -z "$NVCC" ]; then
  echo "nvcc.sh: no nvcc (\$GPURACE_NVCC, \$PATH, \$CUDA_HOME/bin, .venv from scripts/setup.sh)" >&2
  exit 127
fi
[ "${1:-}" = --which ] && { echo "$NVCC"; exit 0; }
exec "$NVCC" -L"${GR_BUILDDIR:-$here}/rt" "$@"
