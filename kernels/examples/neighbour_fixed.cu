// The fixed twin of neighbour_racy.cu: one __syncthreads between the write
// and the read makes every read see its neighbour's write.
//@ launch neighbour grid(1) block(64)
//@ buffer out i32[64]
//@ expect norace
//@ check out = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310, 320, 330, 340, 350, 360, 370, 380, 390, 400, 410, 420, 430, 440, 450, 460, 470, 480, 490, 500, 510, 520, 530, 540, 550, 560, 570, 580, 590, 600, 610, 620, 630, 0}

__global__ void neighbour(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t * 10;
  __syncthreads();
  out[t] = s[(t + 1) % 64];
}
