// An ALU loop of a warp-uniform count, one store at its end, run a warp at a
// time (emu/whole.h): tests/engines.sh compares it with turn by turn, and
// with --max-steps under the launch's steps the step limit is reported as
// the turns report it; its 96 blocks are split among threads, the same run
// on one thread or three.
//@ launch hash grid(96) block(64)
//@ buffer out u32[6144]
//@ arg iters = 40
__global__ void hash(unsigned *out, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = t, y = t * 2654435761u;
  for (int i = 0; i < iters + (int)(t >> 5); i++) {
    x = x * 1664525u + 1013904223u;
    y ^= x >> 7;
    y = y * 31u + (x & 0xffu);
  }
  out[t] = x ^ y;
}
