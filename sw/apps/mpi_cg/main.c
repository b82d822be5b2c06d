/* NAS CG on the MPI subset. Every rank (tile) of MPI_COMM_WORLD takes part; the matrix is
 * generated in place (each rank its block). Prints per iteration rnorm and zeta (rank 0), the
 * verification against NPB's class-S value (when CG_NA is 1400), and the timing marks:
 *   cg result ranks=<p> n=<n> zeta=<z> verification=<SUCCESSFUL|FAILED>
 *   cg time ranks=<p> iter_cycles=<per outer iteration> allreduce_vec=<cycles/call> ...
 * With CG_SELFCHECK, rank 0 also runs the same problem serially and compares zeta (CI variant). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "cg.h"

#ifdef CG_SELFCHECK
static int run_serial_reference(double zeta_par)
{
    MPI_Comm self;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_split(MPI_COMM_WORLD, me, 0, &self);
    if (me != 0) {
        MPI_Comm_free(&self);
        return 0;
    }
    cg_grid_t g;
    cg_grid_init(&g, CG_NA, self);
    cg_matrix_t m = {0, CG_NA, 0, CG_NA, NULL, NULL, NULL, 0};
    if (cg_makea(&m, CG_NA, CG_NONZER, CG_RCOND, CG_SHIFT) != 0) {
        printf("cg FAIL: serial reference: out of memory\n");
        return 1;
    }
    double rn, z = cg_run(&g, &m, CG_NITER, CG_SHIFT, &rn, 0);
    char a[32], b[32];
    cg_fmt_fixed(a, z, 13);
    cg_fmt_fixed(b, zeta_par, 13);
    int ok = fabs(z - zeta_par) <= CG_EPSILON * fabs(z);
    printf("cg selfcheck serial zeta=%s parallel zeta=%s %s\n", a, b, ok ? "agree" : "FAIL");
    return ok ? 0 : 1;
}
#endif

int main(void)
{
    MPI_Init(NULL, NULL);
    int p, me;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    cg_grid_t g;
    cg_grid_init(&g, CG_NA, MPI_COMM_WORLD);
    if (CG_NA % g.npcols != 0) {
        if (me == 0)
            printf("cg FAIL: n=%d not divisible by %d process columns\n", CG_NA, g.npcols);
        MPI_Finalize();
        return 1;
    }
    int nr = CG_NA / g.nprows, nc = CG_NA / g.npcols;
    cg_matrix_t m = {g.pr * nr, nr, g.pc * nc, nc, NULL, NULL, NULL, 0};
    uint64_t t0 = sim_cycles();
    if (cg_makea(&m, CG_NA, CG_NONZER, CG_RCOND, CG_SHIFT) != 0) {
        printf("cg FAIL: rank %d: out of memory for the matrix\n", me);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    uint64_t t_makea = sim_cycles() - t0;
    int nnz = 0;
    MPI_Allreduce(&m.nnz, &nnz, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("cg start ranks=%d grid=%dx%d n=%d nonzer=%d niter=%d nnz=%d makea_cycles=%u\n", p,
               g.nprows, g.npcols, CG_NA, CG_NONZER, CG_NITER, nnz, (unsigned)t_makea);
    sim_mark(1);
    double rnorm, zeta = cg_run(&g, &m, CG_NITER, CG_SHIFT, &rnorm, me == 0);
    sim_mark(2);
    int rc = 0;
    if (me == 0) {
        char a[32];
        cg_fmt_fixed(a, zeta, 13);
        if (CG_NA == 1400 && CG_NONZER == 7 && CG_NITER == 15) {
            double err = fabs(zeta - CG_ZETA_S) / CG_ZETA_S;
            rc = err <= CG_EPSILON ? 0 : 1;
            printf("cg result class=S ranks=%d n=%d zeta=%s verification=%s\n", p, CG_NA, a,
                   rc ? "FAILED" : "SUCCESSFUL");
        } else {
            printf("cg result class=custom ranks=%d n=%d zeta=%s\n", p, CG_NA, a);
        }
        const cg_timing_t *t = &cg_timing;
        printf("cg time ranks=%d iter_cycles=%u allreduce_vec=%u sendrecv=%u allreduce_scalar=%u "
               "matvec=%u (cycles per call, rank 0; vector length %d)\n",
               p, (unsigned)(t->iter_cycles / CG_NITER),
               (unsigned)(t->allreduce_vec_cycles /
                          (t->allreduce_vec_calls ? t->allreduce_vec_calls : 1)),
               (unsigned)(t->sendrecv_cycles / (t->sendrecv_calls ? t->sendrecv_calls : 1)),
               (unsigned)(t->allreduce_scalar_cycles /
                          (t->allreduce_scalar_calls ? t->allreduce_scalar_calls : 1)),
               (unsigned)(t->matvec_cycles / (t->matvec_calls ? t->matvec_calls : 1)), nr);
    }
    /* every rank's own times: the collectives' cycles include the wait for the slowest rank */
    printf(
        "cg rank %d nnz=%d matvec=%u allreduce_vec=%u allreduce_scalar=%u iter_cycles=%u\n", me,
        m.nnz,
        (unsigned)(cg_timing.matvec_cycles / (cg_timing.matvec_calls ? cg_timing.matvec_calls : 1)),
        (unsigned)(cg_timing.allreduce_vec_cycles /
                   (cg_timing.allreduce_vec_calls ? cg_timing.allreduce_vec_calls : 1)),
        (unsigned)(cg_timing.allreduce_scalar_cycles /
                   (cg_timing.allreduce_scalar_calls ? cg_timing.allreduce_scalar_calls : 1)),
        (unsigned)(cg_timing.iter_cycles / CG_NITER));
#ifdef CG_SELFCHECK
    rc |= run_serial_reference(zeta);
#endif
    MPIX_Print_stats();
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
