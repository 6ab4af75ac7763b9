/* fatbin: reading what nvcc embeds (see fatbin.h).  The layout, as nvcc
 * 13 writes it and CUDA's own tools read it: a container is a 16-byte
 * header (magic 0xBA55ED50, version, header size, bytes of entries), then
 * entries, each a header (kind, version, header size, payload size, the
 * compressed size at 16, the architecture at 28, flags at 40, the
 * decompressed size at 56) and its payload.  Flag 0x2000 marks an LZ4
 * block, 0x8000 a Zstandard frame. */
#define _XOPEN_SOURCE 700
#include "fatbin.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

size_t fatbin_container_size(const uint8_t *data) {
  if (!data || rd32(data) != FATBIN_MAGIC || rd16(data + 6) < 16) return 0;
  return (size_t)rd16(data + 6) + (size_t)rd64(data + 8);
}

char *fatbin_ptx(const uint8_t *data, size_t len, unsigned arch, size_t *ptx_len, int *no_ptx, char *err, size_t errlen) {
  if (no_ptx) *no_ptx = 0;
  int n = fatbin_entries(data, len, NULL, 0, err, errlen);
  if (n < 0) return NULL;
  fatbin_entry *e = xcalloc((size_t)n + 1, sizeof *e);
  char *text = NULL;
  if (fatbin_entries(data, len, e, n, err, errlen) == n) {
    int pick = fatbin_pick_ptx(e, n, arch);
    if (pick >= 0) text = fatbin_payload(&e[pick], ptx_len, err, errlen);
    else {
      snprintf(err, errlen, "%s", FATBIN_HINT_NO_PTX);
      if (no_ptx) *no_ptx = 1;
    }
  }
  free(e);
  return text;
}

int fatbin_entries(const uint8_t *data, size_t len, fatbin_entry *out, int max, char *err, size_t errlen) {
  size_t off = 0;
  int n = 0;
  while (off + 16 <= len) {
    if (rd32(data + off) != FATBIN_MAGIC) {
      /* containers are 8-byte aligned, zeroes between them */
      if (rd64(data + off) == 0) { off += 8; continue; }
      snprintf(err, errlen, "bad fatbinary container at byte %zu (magic 0x%08x)", off, rd32(data + off));
      return -1;
    }
    size_t hsize = rd16(data + off + 6);
    uint64_t fsize = rd64(data + off + 8);
    if (hsize < 16 || fsize > len - off || hsize > len - off - fsize) {
      snprintf(err, errlen, "fatbinary container at byte %zu runs past the end", off);
      return -1;
    }
    size_t e = off + hsize, end = off + hsize + (size_t)fsize;
    while (e < end) {
      if (end - e < 64) { snprintf(err, errlen, "fatbinary entry at byte %zu is cut short", e); return -1; }
      size_t ehsize = rd32(data + e + 4);
      uint64_t psize = rd64(data + e + 8);
      if (ehsize < 64 || ehsize > end - e || psize > end - e - ehsize) {
        snprintf(err, errlen, "fatbinary entry at byte %zu runs past its container", e);
        return -1;
      }
      if (n < max) {
        fatbin_entry *x = &out[n];
        x->kind = rd16(data + e);
        x->arch = rd32(data + e + 28);
        x->flags = rd64(data + e + 40);
        x->payload = data + e + ehsize;
        uint32_t csize = rd32(data + e + 16);
        x->compression = x->flags & FLAG_ZSTD ? FATBIN_ZSTD : x->flags & FLAG_LZ4 ? FATBIN_LZ4 : FATBIN_PLAIN;
        x->size = x->compression != FATBIN_PLAIN && csize && csize <= psize ? csize : (size_t)psize;
        x->raw_size = x->compression != FATBIN_PLAIN && ehsize >= 64 ? (size_t)rd64(data + e + 56) : x->size;
      }
      n++;
      e += ehsize + (size_t)psize;
    }
    off = end;
  }
  return n;
}

int fatbin_pick_ptx(const fatbin_entry *e, int n, unsigned arch) {
  int best = -1;
  for (int k = 0; k < n; k++)
    if (e[k].kind == FATBIN_PTX && e[k].arch <= arch && (best < 0 || e[k].arch > e[best].arch)) best = k;
  return best;
}

/* The decompressors, from the system's libraries (no headers needed to build). */
static struct {
  size_t (*zstd_decompress)(void *dst, size_t cap, const void *src, size_t n);
  unsigned (*zstd_is_error)(size_t code);
  const char *(*zstd_error_name)(size_t code);
  int (*lz4_decompress)(const char *src, char *dst, int n, int cap);
} dz;
static pthread_once_t dz_once = PTHREAD_ONCE_INIT;

static void dz_load(void) {
  void *z = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
  if (z) {
    *(void **)&dz.zstd_decompress = dlsym(z, "ZSTD_decompress");
    *(void **)&dz.zstd_is_error = dlsym(z, "ZSTD_isError");
    *(void **)&dz.zstd_error_name = dlsym(z, "ZSTD_getErrorName");
  }
  void *l = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL);
  if (l) *(void **)&dz.lz4_decompress = dlsym(l, "LZ4_decompress_safe");
}

char *fatbin_payload(const fatbin_entry *e, size_t *len, char *err, size_t errlen) {
  if (e->compression == FATBIN_PLAIN) {
    char *t = xmalloc(e->size + 1);
    memcpy(t, e->payload, e->size);
    t[e->size] = 0;
    *len = strnlen(t, e->size);   /* PTX is padded with NULs to the entry's alignment */
    return t;
  }
  if (e->raw_size > ((size_t)1 << 30)) { snprintf(err, errlen, "a fatbinary entry that decompresses to %zu bytes", e->raw_size); return NULL; }
  pthread_once(&dz_once, dz_load);
  char *t = xmalloc(e->raw_size + 1);
  size_t got = 0;
  if (e->compression == FATBIN_ZSTD) {
    if (!dz.zstd_decompress || !dz.zstd_is_error) {
      snprintf(err, errlen, "the program's device code is compressed with Zstandard, and libzstd.so.1 does not load (apt install libzstd1)");
      free(t);
      return NULL;
    }
    size_t r = dz.zstd_decompress(t, e->raw_size, e->payload, e->size);
    if (dz.zstd_is_error(r)) {
      snprintf(err, errlen, "Zstandard: %s", dz.zstd_error_name ? dz.zstd_error_name(r) : "cannot decompress");
      free(t);
      return NULL;
    }
    got = r;
  } else if (e->compression == FATBIN_LZ4) {
    if (!dz.lz4_decompress) {
      snprintf(err, errlen, "the program's device code is compressed with LZ4, and liblz4.so.1 does not load (apt install liblz4-1)");
      free(t);
      return NULL;
    }
    int r = e->size > INT32_MAX || e->raw_size > INT32_MAX ? -1 : dz.lz4_decompress((const char *)e->payload, t, (int)e->size, (int)e->raw_size);
    if (r < 0) { snprintf(err, errlen, "LZ4: the entry does not decompress"); free(t); return NULL; }
    got = (size_t)r;
  } else {
    snprintf(err, errlen, "a fatbinary entry compressed by a method gpurace does not know (flags 0x%llx)", (unsigned long long)e->flags);
    free(t);
    return NULL;
  }
  if (got != e->raw_size) {
    snprintf(err, errlen, "a fatbinary entry decompressed to %zu bytes, its header says %zu", got, e->raw_size);
    free(t);
    return NULL;
  }
  t[got] = 0;
  *len = strnlen(t, got);
  return t;
}

/* A whole file, at most 2 GiB. */
static uint8_t *read_all(const char *path, size_t *n, char *err, size_t errlen) {
  FILE *fp = fopen(path, "rb");
  if (!fp) { snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
  size_t cap = 1 << 16, len = 0;
  uint8_t *b = xmalloc(cap);
  for (;;) {
    if (len == cap) {
      if (cap >= ((size_t)1 << 31)) { snprintf(err, errlen, "%s: larger than 2 GiB", path); free(b); fclose(fp); return NULL; }
      cap *= 2;
      b = xrealloc(b, cap);
    }
    size_t r = fread(b + len, 1, cap - len, fp);
    if (!r) break;
    len += r;
  }
  int bad = ferror(fp);
  fclose(fp);
  if (bad) { snprintf(err, errlen, "%s: cannot read", path); free(b); return NULL; }
  *n = len;
  return b;
}

int fatbin_read_program(const char *path, uint8_t **data, size_t *len, int *shared_cudart, int *relocatable, char *err,
                        size_t errlen) {
  *data = NULL;
  *len = 0;
  *shared_cudart = 0;
  if (relocatable) *relocatable = 0;
  size_t n;
  uint8_t *f = read_all(path, &n, err, errlen);
  if (!f) return -1;
  int rc = -1;
  const Elf64_Ehdr *h = (const Elf64_Ehdr *)f;
  if (n < sizeof *h || memcmp(h->e_ident, ELFMAG, SELFMAG) || h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB) {
    snprintf(err, errlen, "%s: not a 64-bit little-endian ELF program", path);
    goto done;
  }
  if (h->e_shoff > n || h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shnum > (n - h->e_shoff) / sizeof(Elf64_Shdr) || h->e_shstrndx >= h->e_shnum) {
    snprintf(err, errlen, "%s: its section headers run past the end of the file", path);
    goto done;
  }
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + h->e_shoff);
  const Elf64_Shdr *names = &sh[h->e_shstrndx];
  for (int k = 0; k < h->e_shnum; k++) {
    const Elf64_Shdr *s = &sh[k];
    if (s->sh_type != SHT_NOBITS && (s->sh_offset > n || s->sh_size > n - s->sh_offset)) continue;
    if (relocatable && names->sh_offset < n && s->sh_name < names->sh_size && names->sh_offset + s->sh_name < n &&
        !strncmp((const char *)f + names->sh_offset + s->sh_name, "__nv_relfatbin", n - names->sh_offset - s->sh_name))
      *relocatable = 1;
    if (names->sh_offset < n && s->sh_name < names->sh_size && names->sh_offset + s->sh_name < n &&
        !strncmp((const char *)f + names->sh_offset + s->sh_name, ".nv_fatbin", n - names->sh_offset - s->sh_name) && s->sh_type != SHT_NOBITS) {
      *data = xmalloc(s->sh_size + 1);
      memcpy(*data, f + s->sh_offset, s->sh_size);
      *len = s->sh_size;
    }
    if (s->sh_type == SHT_DYNAMIC && s->sh_link < h->e_shnum) {
      const Elf64_Shdr *str = &sh[s->sh_link];
      if (str->sh_offset > n || str->sh_size > n - str->sh_offset) continue;
      for (size_t d = 0; d + sizeof(Elf64_Dyn) <= s->sh_size; d += sizeof(Elf64_Dyn)) {
        Elf64_Dyn dyn;
        memcpy(&dyn, f + s->sh_offset + d, sizeof dyn);
        if (dyn.d_tag == DT_NULL) break;
        if (dyn.d_tag != DT_NEEDED || dyn.d_un.d_val >= str->sh_size) continue;
        const char *lib = (const char *)f + str->sh_offset + dyn.d_un.d_val;
        if (!strncmp(lib, "libcudart.so", 12)) *shared_cudart = 1;
      }
    }
  }
  rc = 0;
done:
  free(f);
  return rc;
}
