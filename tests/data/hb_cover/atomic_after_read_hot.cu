// atomic_after_read.cu on a hot word: every thread reads A[0] (a long
// list of reads, summarised), thread 200 reads it again at its own line
// and adds to it atomically, and thread 100, after a delay, adds to it
// atomically too: thread 200's second read races with thread 100's atomic.
// In a hot word's summary an atomic once stood for its thread's plain
// read, as in the list before (scord_covers now decides both).  Under
// --warps its, --sched rr (thread 100's atomic comes last).
//@ launch k grid(1) block(256)
//@ buffer A u32[4]
//@ buffer out u32[256]
//@ expect race
__global__ void k(unsigned *A, unsigned *out) {
  out[threadIdx.x] = A[0];
  if (threadIdx.x == 200) {
    out[0] = A[0];
    atomicAdd(&A[0], 1u);
  }
  if (threadIdx.x == 100) {
    unsigned s = 0;
    for (int i = 0; i < 200; i++) s += i * out[1];
    atomicAdd(&A[0], s);
  }
}
