#pragma OPENCL FP_CONTRACT OFF
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n) {
  __local float As[16][16];
  __local float Bs[16][16];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * 16 + ty, col = get_group_id(0) * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++) acc = acc + As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
