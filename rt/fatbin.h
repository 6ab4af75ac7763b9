/* fatbin: the device code nvcc embeds in a program (its .nv_fatbin
 * section, handed to __cudaRegisterFatBinary): containers of entries, each
 * PTX or an ELF cubin for one architecture, maybe compressed (LZ4 where
 * nvcc was asked for speed, Zstandard by default since CUDA 12.8).  The
 * runtime replacement reads the PTX of it; `gpurace exec` reads a program
 * file to say, before running it, how to rebuild one it cannot run. */
#ifndef GR_FATBIN_H
#define GR_FATBIN_H

#include <stddef.h>
#include <stdint.h>

enum { FATBIN_PTX = 1, FATBIN_ELF = 2 };
enum { FATBIN_PLAIN, FATBIN_LZ4, FATBIN_ZSTD, FATBIN_UNKNOWN };

typedef struct {
  int kind;                /* FATBIN_PTX or FATBIN_ELF (or another number nvcc wrote) */
  unsigned arch;           /* 75 for sm_75 / compute_75 */
  int compression;         /* FATBIN_PLAIN, _LZ4, _ZSTD, or _UNKNOWN (flags says which bits) */
  uint64_t flags;
  const uint8_t *payload;  /* in the caller's buffer */
  size_t size;             /* the payload's bytes as stored */
  size_t raw_size;         /* its bytes once decompressed (size where plain) */
} fatbin_entry;

/* The entries of every container in [data, data+len), at most max into
 * out; their count, or -1 with the reason in err (a bad magic number, an
 * entry past the end). */
int fatbin_entries(const uint8_t *data, size_t len, fatbin_entry *out, int max, char *err, size_t errlen);

/* Of n entries, the PTX the emulated device of architecture arch runs:
 * the newest PTX not newer than arch; -1 where there is none. */
int fatbin_pick_ptx(const fatbin_entry *e, int n, unsigned arch);

/* An entry's payload, decompressed (malloc'd, NUL-terminated; *len its
 * bytes without the NUL), or NULL with the reason in err.  LZ4 and
 * Zstandard come from the system's liblz4 and libzstd, loaded when first
 * needed. */
char *fatbin_payload(const fatbin_entry *e, size_t *len, char *err, size_t errlen);

/* The bytes of the fatbinary container at data (nvcc's registration hands
 * over its start only): its header and entries, or 0 where data holds no
 * container (a wrong magic number, a header too short). */
size_t fatbin_container_size(const uint8_t *data);

/* The PTX the emulator runs of a fatbinary (the newest not newer than
 * arch), decompressed (malloc'd, as fatbin_payload), or NULL with the
 * reason in err; *no_ptx (if not NULL) says the reason is that it holds
 * code for particular GPUs only (FATBIN_HINT_NO_PTX tells how to rebuild). */
char *fatbin_ptx(const uint8_t *data, size_t len, unsigned arch, size_t *ptx_len, int *no_ptx, char *err, size_t errlen);

/* How to rebuild a program gpurace cannot run, for every tool that says it. */
#define FATBIN_HINT_NO_PTX "no PTX, only code for particular GPUs: rebuild with a virtual architecture kept, e.g. nvcc " \
  "-gencode arch=compute_80,code=compute_80 (or -arch=sm_80, which keeps compute_80's PTX too; CMake: CUDA_ARCHITECTURES 80)"
#define FATBIN_HINT_STATIC "the program links NVIDIA's CUDA runtime statically (nvcc's default): rebuild with nvcc " \
  "-cudart shared (CMake: set_target_properties(app PROPERTIES CUDA_RUNTIME_LIBRARY Shared); a Makefile: -cudart shared " \
  "in NVCCFLAGS and on the link line)"
#define FATBIN_HINT_RDC "the program was built with relocatable device code (nvcc -rdc=true, CMake's " \
  "CUDA_SEPARABLE_COMPILATION), which nvlink links into cubins only, and gpurace does not link PTX across translation " \
  "units yet: rebuild without -rdc where the program allows it"

/* A program file (ELF): its .nv_fatbin section (malloc'd, into *data and
 * *len; NULL and 0 where it has none), whether it loads the shared CUDA
 * runtime (a DT_NEEDED libcudart.so.N), and (relocatable, if not NULL)
 * whether it was built with relocatable device code (nvcc -rdc=true: a
 * __nv_relfatbin section, whose code nvlink linked into .nv_fatbin as
 * cubins).  -1 with the reason in err where the file cannot be read or is
 * not a 64-bit little-endian ELF. */
int fatbin_read_program(const char *path, uint8_t **data, size_t *len, int *shared_cudart, int *relocatable, char *err,
                        size_t errlen);

#endif
