/* ranks.h: gpurace past one machine, as MPI ranks (`mpirun -np N gpurace
 * table ...`): each rank runs its share of the work and rank 0 writes
 * exactly the bytes one process would.  Built with Open MPI where
 * configure found it; without it, a gpurace that mpirun started says so
 * and stops, rather than have every rank write the same files. */
#ifndef GR_CLI_RANKS_H
#define GR_CLI_RANKS_H

#include <stddef.h>

#include "detectors.h"

typedef struct {
  int rank, size;
  int active;   /* MPI_Init was called */
} ranks;

/* Under mpirun or srun (their environment says so): MPI started, this
 * process's rank and the number of ranks.  Otherwise rank 0 of 1.  -1 with
 * a message on stderr where a launcher started a gpurace built without MPI. */
int ranks_start(ranks *r);
/* 1 when this gpurace was built with MPI. */
int ranks_built(void);
/* Rank 0 receives every other rank's share of the table and completes it;
 * the others send theirs.  0, or -1 with err. */
int ranks_gather_table(const ranks *r, table *t, char *err, size_t errlen);
/* gr_litmus_opts.alltoall over MPI (user: the ranks): every rank sends
 * send[j] to rank j and receives what each rank sent it, in rank order,
 * each after its length as 8 bytes. */
int ranks_alltoall(void *user, const void *const *send, const size_t *sendlen, void **recv, size_t *recvlen, char *err,
                   size_t errlen);
/* Rank 0's exit status, on every rank. */
int ranks_status(const ranks *r, int rc);
void ranks_end(ranks *r);

#endif
