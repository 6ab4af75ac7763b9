/* gpurace as MPI ranks (ranks.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

int ranks_built(void) { return 0; }

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
int ranks_status(const ranks *r, int rc) { (void)r; return rc; }
void ranks_end(ranks *r) { (void)r; }

#endif
