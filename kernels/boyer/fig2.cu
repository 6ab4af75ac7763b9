// In the manner of Figure 2 of Boyer, Skadron and Weimer (2008): each thread
// initialises its own row of a shared array in a loop, then the block sums
// the columns.  With CAUSE_BANK_CONFLICTS 1 a thread's row is 16 contiguous
// words, so in every iteration of the initialising loop the 16 threads of a
// half-warp hit 16 words of one bank (16-way conflicts on the paper's 16
// banks); with 0 the array is transposed and the threads of a half-warp hit
// 16 consecutive words, one bank each.
//   gpurace run kernels/boyer/fig2.cu --detect boyer-banks -D CAUSE_BANK_CONFLICTS=1
//@ launch kernel grid(1) block(64)
//@ buffer out i32[64]
//@ expect norace
//@ meta category shared
//@ check out = {120, 136, 152, 168, 184, 200, 216, 232, 248, 264, 280, 296, 312, 328, 344, 360, 376, 392, 408, 424, 440, 456, 472, 488, 504, 520, 536, 552, 568, 584, 600, 616, 632, 648, 664, 680, 696, 712, 728, 744, 760, 776, 792, 808, 824, 840, 856, 872, 888, 904, 920, 936, 952, 968, 984, 1000, 1016, 1032, 1048, 1064, 1080, 1096, 1112, 1128}
#ifndef CAUSE_BANK_CONFLICTS
#define CAUSE_BANK_CONFLICTS 0
#endif
#define ROW 16

__global__ void kernel(int *out) {
  __shared__ int mem[64 * ROW];
  int id = threadIdx.x;
  for (int i = 0; i < ROW; i++) {
    if (CAUSE_BANK_CONFLICTS) mem[id * ROW + i] = id + i;
    else mem[i * 64 + id] = id + i;
  }
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < ROW; i++) sum += CAUSE_BANK_CONFLICTS ? mem[id * ROW + i] : mem[i * 64 + id];
  out[id] = sum;
}
