// What a GPU's float arithmetic returns where C leaves the bits open: the
// NaN of an op with NaN operands (which payload, quieted or canonical),
// of an invalid op (0 * inf, inf - inf, sqrt(-1)), and the order of
// zeros in fminf/fmaxf.  Inputs come from a buffer so that the compiler
// folds nothing.  tests/hw/float_special.ptx is nvcc's PTX of it with the
// H100's results as its checks (scripts/hw-float.sh measures them): which
// of two NaN operands an f64 op returns depends on their order in the
// PTX, which nvcc may swap, so the checks are the PTX's.
//@ launch float_special grid(1) block(1)
//@ buffer in u32[8] = {0x7fa00001, 0xffc00123, 0x3f800000, 0x80000000, 0x00000000, 0x7f800000, 0xbf800000, 0x7fc00042}
//@ buffer din u64[4] = {0x7ff4000000000001, 0xfff8000000000123, 0x3ff0000000000000, 0x8000000000000000}
//@ buffer out u32[24]
//@ buffer dout u64[8]
// (the buffers hold bits; the kernel reads and writes them as floats,
// which the CUDA-subset front end reads too)
__global__ void float_special(const float *in, const double *din, float *out, double *dout) {
  float snan = in[0], qnan = in[1], one = in[2], nzero = in[3], pzero = in[4], inf = in[5], mone = in[6], qnan2 = in[7];
  out[0] = snan + one;
  out[1] = one + qnan;
  out[2] = qnan + qnan2;
  out[3] = qnan2 * qnan;
  out[4] = pzero * inf;
  out[5] = inf - inf;
  out[6] = sqrtf(mone);
  out[7] = fminf(nzero, pzero);
  out[8] = fminf(pzero, nzero);
  out[9] = fmaxf(nzero, pzero);
  out[10] = fmaxf(pzero, nzero);
  out[11] = fminf(qnan, one);
  out[12] = fminf(qnan, qnan2);
  out[13] = fmaf(qnan, one, qnan2);
  out[14] = qnan / one;
  out[15] = -qnan;
  out[16] = fabsf(qnan);
  out[17] = (float)din[1];
  out[18] = snan - one;
  out[19] = floorf(qnan);
  out[20] = one < qnan ? one : qnan;
  double dsnan = din[0], dqnan = din[1], done = din[2], dnzero = din[3];
  dout[0] = dsnan + done;
  dout[1] = done * dqnan;
  dout[2] = dqnan + dsnan;
  dout[3] = fmin(dnzero, 0.0 * done);
  dout[4] = fmax(dnzero, 0.0 * done);
  dout[5] = sqrt(-done);
  dout[6] = (double)qnan;
  dout[7] = fma(dqnan, done, dsnan);
}
