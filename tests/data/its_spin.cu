// A real spin under ITS: lanes 0 and 1 wait for a flag no one sets.  The
// emulator must report the deadlock under every scheduler.
//@ launch k grid(1) block(32)
//@ buffer flag u32[1] = 0
__global__ void k(volatile unsigned *flag) {
  if (threadIdx.x < 2) while (flag[0] == 0) {}
}
