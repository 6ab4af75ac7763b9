/* gpurace as MPI ranks (ranks.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"

/* The launchers' marks: Open MPI's mpirun, PMI and PMIx (srun --mpi=...). */
static const char *launcher(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"};
  for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
    if (getenv(vars[k])) return vars[k];
  return NULL;
}

#ifdef GR_HAVE_MPI
#include <mpi.h>

int ranks_built(void) { return 1; }
void ranks_handoff(char **argv) { (void)argv; }

int ranks_start(ranks *r) {
  r->rank = 0, r->size = 1, r->active = 0;
  if (!launcher()) return 0;
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
    fprintf(stderr, "gpurace: MPI_Init failed\n");
    return -1;
  }
  r->active = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r->size);
  return 0;
}

/* Each share is sent as its length, then its bytes in pieces MPI's int
 * counts can hold. */
#define PIECE ((size_t)1 << 30)

int ranks_gather_table(const ranks *r, table *t, char *err, size_t errlen) {
  if (r->size == 1) return 0;
  int ok = 1;
  if (r->rank != 0) {
    uint8_t *buf;
    size_t len;
    table_pack(t, &buf, &len);
    uint64_t n = len;
    MPI_Send(&n, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
    for (size_t at = 0; at < len; at += PIECE)
      MPI_Send(buf + at, (int)(len - at < PIECE ? len - at : PIECE), MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    free(buf);
    return 0;
  }
  for (int src = 1; src < r->size; src++) {
    uint64_t n;
    MPI_Recv(&n, 1, MPI_UINT64_T, src, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    uint8_t *buf = malloc(n ? (size_t)n : 1);
    if (!buf) { snprintf(err, errlen, "out of memory for rank %d's results", src); return -1; }
    for (size_t at = 0; at < n; at += PIECE)
      MPI_Recv(buf + at, (int)(n - at < PIECE ? n - at : PIECE), MPI_BYTE, src, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char why[256];
    if (ok && table_unpack(t, buf, (size_t)n, why, sizeof why)) {
      snprintf(err, errlen, "rank %d: %s", src, why);
      ok = 0;
    }
    free(buf);
  }
  if (ok) table_complete(t);
  return ok ? 0 : -1;
}

int ranks_alltoall(void *user, const void *const *send, const size_t *sendlen, void **recv, size_t *recvlen, char *err,
                   size_t errlen) {
  const ranks *r = user;
  size_t n = (size_t)r->size;
  uint64_t *sl = calloc(n, 8), *rl = calloc(n, 8);
  int *sc = calloc(n, sizeof(int)), *sd = calloc(n, sizeof(int)), *rc = calloc(n, sizeof(int)), *rd = calloc(n, sizeof(int));
  uint8_t *sbuf = NULL, *rbuf = NULL;
  int ok = sl && rl && sc && sd && rc && rd, any_bad = 0;
  size_t stot = 0, rtot = 0;
  if (ok) {
    for (size_t j = 0; j < n; j++) sl[j] = sendlen[j];
    MPI_Alltoall(sl, 1, MPI_UINT64_T, rl, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    /* MPI counts are ints: every rank must agree before the exchange, or none makes it */
    for (size_t j = 0; j < n; j++) {
      if (stot + sl[j] > INT_MAX || rtot + 8 + rl[j] > INT_MAX) ok = 0;
      stot += sl[j], rtot += 8 + rl[j];
    }
    if (ok && !(sbuf = malloc(stot ? stot : 1))) ok = 0;
    if (ok && !(rbuf = malloc(rtot ? rtot : 1))) ok = 0;
  }
  int bad = !ok;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any_bad) {
    size_t at = 0, rat = 0;
    for (size_t j = 0; j < n; j++) {
      if (sl[j]) memcpy(sbuf + at, send[j], sl[j]);
      sc[j] = (int)sl[j], sd[j] = (int)at;
      at += sl[j];
      memcpy(rbuf + rat, &rl[j], 8);
      rc[j] = (int)rl[j], rd[j] = (int)(rat + 8);
      rat += 8 + rl[j];
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
  } else snprintf(err, errlen, "%s", bad ? "a share past 2 GiB or out of memory" : "another rank could not take part");
  free(sl), free(rl), free(sc), free(sd), free(rc), free(rd), free(sbuf);
  if (any_bad) { free(rbuf); return -1; }
  *recv = rbuf;
  *recvlen = rtot;
  return 0;
}

int ranks_status(const ranks *r, int rc) {
  if (!r->active) return rc;
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}

void ranks_end(ranks *r) {
  if (r->active) MPI_Finalize();
  r->active = 0;
}

#else
#include <unistd.h>

/* gpurace-mpi beside this executable, or "" */
static const char *mpi_binary(void) {
  static char path[4096 + 16];
  char self[4096];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0 || (size_t)k >= sizeof self - 1) return "";
  self[k] = 0;
  char *slash = strrchr(self, '/');
  if (!slash) return "";
  slash[1] = 0;
  snprintf(path, sizeof path, "%sgpurace-mpi", self);
  return access(path, X_OK) == 0 ? path : "";
}

int ranks_built(void) { return *mpi_binary() != 0; }

void ranks_handoff(char **argv) {
  if (!launcher()) return;
  const char *mpi = mpi_binary();
  if (!*mpi) return;
  argv[0] = (char *)mpi;
  execv(mpi, argv);
  fprintf(stderr, "gpurace: cannot run %s under the launcher; going on without MPI\n", mpi);
}

int ranks_start(ranks *r) {
  r->rank = 0, r->size = 1, r->active = 0;
  const char *v = launcher();
  if (!v) return 0;
  fprintf(stderr, "gpurace: started by an MPI launcher (%s is set), but built without MPI: every rank would do all the "
          "work and write the same files (apt-get install libopenmpi-dev openmpi-bin, then ./configure)\n", v);
  return -1;
}
int ranks_gather_table(const ranks *r, table *t, char *err, size_t errlen) {
  (void)r, (void)t, (void)err, (void)errlen;
  return 0;
}
int ranks_alltoall(void *user, const void *const *send, const size_t *sendlen, void **recv, size_t *recvlen, char *err,
                   size_t errlen) {
  (void)user, (void)send, (void)sendlen, (void)recv, (void)recvlen;
  snprintf(err, errlen, "built without MPI");
  return -1;
}
int ranks_status(const ranks *r, int rc) { (void)r; return rc; }
void ranks_end(ranks *r) { (void)r; }

#endif
