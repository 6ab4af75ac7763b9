/* ranks.h: gpurace past one machine, as MPI ranks (`mpirun -np N gpurace
 * table ...`): each rank runs its share of the work and rank 0 writes
 * exactly the bytes one process would.  With Open MPI where configure
 * found it, as a second program, gpurace-mpi, to which gpurace hands a
 * command a launcher started; without it, a gpurace that mpirun started
 * says so and stops, rather than have every rank write the same files. */
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
/* 1 when MPI is at hand: this is gpurace-mpi, or gpurace-mpi lies beside
 * this gpurace. */
int ranks_built(void);
/* Under a launcher, a gpurace built without MPI hands the whole command
 * to gpurace-mpi beside it (exec, the same arguments), so that the gpurace
 * everyone runs loads no MPI library (Open MPI's initialisers take about
 * 3 ms of every start); returns where there is no launcher or no gpurace-mpi. */
void ranks_handoff(char **argv);
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
