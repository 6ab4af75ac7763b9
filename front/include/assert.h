/* gpurace's assert.h: device code's assert, which stops the kernel at the
 * failing assertion (the emulator reports it with its position, as the GPU
 * reports a failed device assertion); NDEBUG turns it off, as in C.  Host
 * code is skipped by the device pass, so one definition serves both.  It is
 * found before the system's because the device pass puts emu/include first. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#elif defined(__CUDACC_RTC__)   /* NVRTC, on the CUDA backend: the device runtime's own */
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
#else
#define assert(e) ((e) ? (void)0 : __gpurace_assert_fail())
#endif
