/* NAS CG kernel (NPB 3 specification, class S by default) on the MPI subset. */
#ifndef MPI_CG_H
#define MPI_CG_H

#include <stdint.h>

#include "mpi.h"

#ifndef CG_NA
#define CG_NA 1400 /* class S */
#endif
#ifndef CG_NONZER
#define CG_NONZER 7
#endif
#ifndef CG_NITER
#define CG_NITER 15
#endif
#ifndef CG_SHIFT
#define CG_SHIFT 10.0
#endif
#define CG_RCOND   0.1
#define CG_CGITMAX 25
#define CG_ZETA_S  8.5971775078648 /* NPB's verification value for class S */
#define CG_EPSILON 1.0e-10

/* NPB's linear congruential generator x <- a * x mod 2^46, returns x * 2^-46. Exact in 64-bit
 * integers (the published algorithm does the same in doubles with 23-bit halves). */
double cg_randlc(uint64_t *x, uint64_t a);

/* Local block of the matrix in CSR: rows [row0, row0 + nrows), columns [col0, col0 + ncols),
 * column indices local to the block. */
typedef struct cg_matrix {
    int row0, nrows, col0, ncols;
    int *rowstr; /* nrows + 1 */
    int *colidx;
    double *a;
    int nnz;
} cg_matrix_t;

/* NPB makea: A = sum_i size_i * v_i v_i^T + (rcond - shift) I with v_i from sprnvc/vecset, every
 * rank generating the whole sequence and keeping its block. 0 or -1 (out of memory). */
int cg_makea(cg_matrix_t *m, int n, int nonzer, double rcond, double shift);

/* The distributed kernel: process grid, communicators, vectors. */
typedef struct cg_grid {
    int nprows, npcols, pr, pc;
    MPI_Comm row;  /* ranks of my process row (the reductions) */
    MPI_Comm comm; /* the grid's communicator */
    int partner;   /* transpose exchange partner (rank in comm) */
    int n;
} cg_grid_t;

void cg_grid_init(cg_grid_t *g, int n, MPI_Comm world);
/* Runs niter outer iterations from x = 1, returns the final zeta; rnorm of the last. */
double cg_run(const cg_grid_t *g, const cg_matrix_t *m, int niter, double shift, double *rnorm,
              int verbose);

/* Timing of the communication calls inside cg_run (cycles, this rank). */
typedef struct cg_timing {
    uint64_t allreduce_vec_cycles, sendrecv_cycles, allreduce_scalar_cycles, matvec_cycles;
    uint32_t allreduce_vec_calls, sendrecv_calls, allreduce_scalar_calls, matvec_calls;
    uint64_t iter_cycles; /* all niter outer iterations */
} cg_timing_t;
#ifdef __cplusplus /* the host tests include this header */
extern thread_local cg_timing_t cg_timing;
#else
extern _Thread_local cg_timing_t cg_timing; /* per rank: a core is a rank */
#endif
void cg_fmt_fixed(char *buf, double v, int digits);
void cg_fmt_sci(char *buf, double v);

#endif
