// Two-pass inspector-executor (Section III), included by loop.cuh.  The
// kernel file launches the loop three times (loop.cuh says how): the WAW
// inspector, the RAW/WAR inspector, the executor.  A block learns its pass
// from the blocks started before it (launches are ordered, so the first
// grid's blocks count 0 .. G-1).  The inspector passes check every access
// to the shared array and make none: the paper's inspector is the loop's
// slice (`gpurace ir --slice` shows it on KIR), which keeps the index
// computations and drops the payload, so a read's value is not loaded
// there (LOOP_READ gives 0).  A loop whose control flow or indices depend
// on values it reads from the shared array keeps those loads in its slice:
// it defines TWOPASS_READ_VALUES (KNAP's condition), and its inspector
// reads the array as the loop's inputs left it.  Either way both passes
// make the same operations and stamp them with the same timestamps.
//
// Listing 1's intra-warp timestamp: a volatile per-warp counter in shared
// memory that every active lane increments at each operation on the shared
// array; under lockstep the lanes load the same value and store the same
// successor, so it grows by one per operation of the warp.
//
// The shadow entry of Figure 4a, as two 32-bit words: tp_shadow[2k] the
// last writer (8-bit timestamp << 24 | 24-bit thread id, atomic exchange),
// tp_shadow[2k + 1] the first (6-bit intra-warp id << 26 | 26-bit minTs),
// written once.  0 means never written: the 8-bit field holds timestamps
// 1..255 ((ts - 1) % 255 + 1), so that a written entry is never 0.
// -DTWOPASS_FP leaves out the intra-warp cases.
//
// The 8-bit field wraps once a warp has made 255 operations on the array:
// its comparisons are then wrong both ways.  A pass where a warp's
// timestamp passes 255 sets tp_wrapped, no verdict, and loop_flag, so that
// the loop goes back to the CPU as for a dependency; the golden model says
// it did not watch the launch.  -DTWOPASS_FP compares no timestamps.
__device__ unsigned int tp_shadow[2 * LOOP_ELEMS];
__device__ unsigned int tp_blocks;
__device__ int loop_flag;
__device__ int tp_wrapped;

__device__ unsigned int tp_ts8(unsigned int ts) { return (ts - 1) % 255 + 1; }

// The WAW pass: a write of iteration t at timestamp ts.
__device__ void tp_waw(int k, unsigned int ts) {
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int prev = atomicExch(&tp_shadow[2 * k], tp_ts8(ts) << 24 | (t & 0xffffff));
  if (prev == 0) {                                   // the first write: (iwid, minTs), set once
    tp_shadow[2 * k + 1] = (t % LOOP_WARP) << 26 | (ts & 0x3ffffff);
    return;
  }
  unsigned int p = prev & 0xffffff;
  if (p == t) return;
  if (p / LOOP_WARP != t / LOOP_WARP) loop_flag = 1;            // inter-warp WAW
#ifdef TWOPASS_FP
  else loop_flag = 1;
#else
  else if (p % LOOP_WARP > t % LOOP_WARP) loop_flag = 1;        // intra-warp WAW: a later lane wrote first
#endif
}

// The RAW/WAR pass: a read of iteration t at timestamp ts.
__device__ void tp_rawwar(int k, unsigned int ts) {
  unsigned int up = tp_shadow[2 * k], lo = tp_shadow[2 * k + 1];
  if (up == 0) return;                               // nobody writes it
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x, lane = t % LOOP_WARP;
  unsigned int w = up & 0xffffff, wl = w % LOOP_WARP, wts = up >> 24;
  unsigned int fl = lo >> 26, fts = lo & 0x3ffffff, ts26 = ts & 0x3ffffff, t8 = tp_ts8(ts);
  if (w / LOOP_WARP != t / LOOP_WARP) { loop_flag = 1; return; }  // another warp writes it
#ifdef TWOPASS_FP
  if (w != t || fl != lane) loop_flag = 1;
#else
  if (lane < fl && ts26 > fts) loop_flag = 1;                     // (1) intra-warp WAR
  else if (lane > wl && t8 < wts) loop_flag = 1;                  // (2) intra-warp RAW
  else if (((fl < lane && lane < wl) || (wl < lane && lane < fl)) && fts < ts26 && t8 < wts)
    loop_flag = 1;                                                // (3) between the first and the last write
#endif
}

// The pass (0 WAW, 1 RAW/WAR, 2 executor) and the warps' timestamps, per block.
#define LOOP_BEGIN()                                                                   \
  __shared__ unsigned int tp_pass;                                                     \
  __shared__ volatile unsigned int tp_ts[32];                                          \
  if (threadIdx.x == 0) tp_pass = atomicAdd(&tp_blocks, 1) / (gridDim.x * gridDim.y * gridDim.z); \
  if (threadIdx.x < 32) tp_ts[threadIdx.x] = 0;                                        \
  __syncthreads();                                                                     \
  if (loop_flag) return
__device__ unsigned int tp_stamp(volatile unsigned int *ts) {
  unsigned int now = ++*ts;
#ifndef TWOPASS_FP
  if (now > 255) tp_wrapped = loop_flag = 1;                     // wrapped: no verdict (-fp compares no timestamps)
#endif
  return now;
}
#define TP_STAMP() tp_stamp(&tp_ts[threadIdx.x / LOOP_WARP])
#ifdef TWOPASS_READ_VALUES
#define TP_INSPECTED(a, k) ((a)[k])
#else
#define TP_INSPECTED(a, k) 0
#endif
#define LOOP_READ(dst, a, k)                                             \
  do {                                                                   \
    if (tp_pass < 2) {                                                   \
      unsigned int tp_now = TP_STAMP();                                  \
      if (tp_pass == 1) tp_rawwar(k, tp_now);                            \
      (dst) = TP_INSPECTED(a, k);                                        \
    } else (dst) = (a)[k];                                               \
  } while (0)
#define LOOP_WRITE(a, k, v)                                              \
  do {                                                                   \
    if (tp_pass < 2) {                                                   \
      unsigned int tp_now = TP_STAMP();                                  \
      if (tp_pass == 0) tp_waw(k, tp_now);                               \
    } else (a)[k] = (v);                                                 \
  } while (0)
