// ScoR application 1DC (scor-spec.md section 3.4): 1-D convolution,
// out[o] = sum over f of filter[f] * in[o - f + F/2] for the taps whose
// input index is in range.  `init` zeroes out[]; `convolve` flattens the
// (output, tap) pairs, L = offset + gtid for offset = 0, TOT, ... while
// L < N*F, with f = L % F and o = L / F, and adds each product into out[o]
// with a float atomic.  Run by the driver conv.c.
//
// Scope choice: the F contributors of out[o] are the threads gtid - f ..
// gtid - f + F - 1 of one grid-stride pass.  When all of them lie in this
// thread's block (btid >= f and blockDim - btid >= F - f), only this
// block's threads write the location, so a block-scope add is enough;
// otherwise the add has device scope.  Every contributor evaluates the
// condition the same way.
//
// One knob per race site (Table VI: 1), RACEY for all of them:
//   CONV_1  every add has block scope: the outputs whose contributors
//           straddle two blocks get block-scope atomics from both
//           (insufficient atomic scope)
#ifdef RACEY
#define CONV_1
#endif

__global__ void init(float *out, int N) {
  int TOT = gridDim.x * blockDim.x;
  for (int y = blockIdx.x * blockDim.x + threadIdx.x; y < N; y += TOT) out[y] = 0.0f;
}

__global__ void convolve(const float *in, const float *filter, float *out, int N, int F) {
  int bs = blockDim.x, btid = threadIdx.x, TOT = gridDim.x * bs;
  int gtid = blockIdx.x * bs + btid;
  for (int offset = 0; offset + gtid < N * F; offset += TOT) {
    int L = offset + gtid, f = L % F, o = L / F, i = o - f + F / 2;
    if (i >= 0 && i < N) {
      float v = in[i] * filter[f];
#ifdef CONV_1
      atomicAdd_block(&out[o], v);
#else
      if (btid >= f && bs - btid >= F - f) atomicAdd_block(&out[o], v);
      else atomicAdd(&out[o], v);
#endif
    }
  }
}
