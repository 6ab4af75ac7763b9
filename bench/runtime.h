/* bench runtime: gpurace exec against the library's launches (runtime.c). */
#ifndef GR_BENCH_RUNTIME_H
#define GR_BENCH_RUNTIME_H
int runtime_bench(const char *src, const char *build);
#endif
