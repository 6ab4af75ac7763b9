// The simpleAtomicIntrinsics sample's kind: every atomic of CUDA on one
// set of counters from 128 threads (add, sub, exch, max, min, inc, dec,
// cas, and, or, xor), with results that do not depend on the order.
//@ launch atomics grid(2) block(64)
//@ buffer g u32[11] = {0, 0, 0, 0, 4294967295, 0, 0, 0, 4294967295, 0, 0}
//@ expect norace
//@ check g = {8128, 4294959168, 0, 127, 0, 0, 0, 0, 0, 255, 0}
__global__ void atomics(unsigned *g) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&g[0], t);
  atomicSub(&g[1], t);
  atomicExch(&g[2], 0u);
  atomicMax(&g[3], t);
  atomicMin(&g[4], t);
  atomicInc(&g[5], 127u);     /* wraps to 0 after 127: 128 increments end at 0 */
  atomicDec(&g[6], 127u);     /* from 0: to 127, then down to 0 after 128 */
  atomicCAS(&g[7], 1000u, t); /* never equal: unchanged */
  atomicAnd(&g[8], ~(1u << (t % 32)));
  atomicOr(&g[9], 1u << (t % 8));
  atomicXor(&g[10], 1u << (t % 4));
}
