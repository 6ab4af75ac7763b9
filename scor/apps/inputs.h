/* inputs: how the ScoR applications draw their inputs, shared by the C
 * drivers (app.h) and the applications written as CUDA programs
 * (scor/programs/), so that both run on the same bytes.  Plain C, no
 * gpurace. */
#ifndef GR_SCOR_INPUTS_H
#define GR_SCOR_INPUTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* glibc's rand() (the TYPE_3 additive feedback generator behind srand and
 * rand), so that inputs drawn as the ScoR hosts draw them are the same on
 * every machine. */
typedef struct { int32_t r[34]; int i; } glibc_rand;
void glibc_srand(glibc_rand *g, uint32_t seed);
int glibc_rand_next(glibc_rand *g);

/* An R-MAT graph (Chakrabarti, Zhan and Faloutsos, SDM'04) with the Graph500
 * quadrant probabilities (a, b, c, d) = (0.57, 0.19, 0.19, 0.05): each edge
 * picks one quadrant per level of a 2^scale x 2^scale adjacency matrix,
 * scale = ceil(log2 V), from glibc rand() seeded with `seed`.  Edges with
 * an endpoint >= V, self-loops and duplicates are drawn again, each edge is
 * stored with u < v, and the list is sorted by (u, v): the shape of the
 * ScoR graph input (scor-spec.md section 4).  Returns 0, or -1 when E is
 * more than V can hold or than R-MAT's skew can give. */
int app_rmat(uint32_t seed, int V, int E, int *u, int *v);
/* GCOL's and GCON's host divide(n): block i gets [i*(n/NB), (i+1)*(n/NB)),
 * the last one up to n (n >= NB). */
void app_divide(int n, int nb, int *head, int *tail);

/* The CPU references the results are checked against. */
/* MM: ref (rA x cB, zeroed) = A (rA x cA) * B (cA x cB). */
void ref_mm(const int *A, const int *B, int rA, int cA, int cB, int *ref);
/* GCON: each vertex's label, the smallest id of its component (union-find); the components. */
int ref_gcon(const int *eu, const int *ev, int V, int E, int *ref);
/* UTS: the nodes and leaves of the forest of nb roots the kernel walks (0, or -1 when out of memory). */
int ref_uts(int nb, int maxHeight, int avg, int seed, long *nodes, long *leaves);
/* R110: `steps` steps of rule 110 over size cells (0 beyond both ends), in place. */
void ref_r110(int *cells, int size, int steps);
/* 1DC: out[o] = sum over t of filter[t] * in[o - t + f/2] (in range); the outputs' total. */
double ref_conv(const float *in, const float *filter, int n, int f, float *out);
/* GCOL: a colouring (colour set and colour 1..32 in it) against the graph:
 * its uncoloured vertices (the first in *first, -1 where none), the edges
 * between equal colours, and the largest colour number. */
void ref_gcol_check(const int *cset, const int *vcol, int V, const int *eu, const int *ev, int E, int *uncoloured, int *first,
                    int *clashes, int *maxc);

#ifdef __cplusplus
}
#endif
#endif
