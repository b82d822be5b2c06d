/* Distributed NAS CG (conj_grad and the outer loop of NPB CG) on a 2D process grid of
 * nprows x npcols ranks (npcols = nprows or 2 nprows, as NPB's MPI CG): rank (pr, pc) holds the
 * matrix block rows pr, columns pc, and the vectors' column segment pc (replicated down a column).
 * q = A p: local block product, row reduction with MPI_Allreduce on the row communicator (every
 * row of ranks covers all column blocks once), then a transpose exchange with MPI_Sendrecv that
 * turns the row-block result into the column segment. Dot products: local partial sums over the
 * column segment, MPI_Allreduce over the row communicator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "cg.h"

_Thread_local cg_timing_t cg_timing;

void cg_grid_init(cg_grid_t *g, int n, MPI_Comm world)
{
    int p, me;
    MPI_Comm_size(world, &p);
    MPI_Comm_rank(world, &me);
    int lg = 0;
    while ((1 << (lg + 1)) <= p)
        ++lg;
    g->nprows = 1 << (lg / 2);
    g->npcols = p / g->nprows;
    g->pr = me / g->npcols;
    g->pc = me % g->npcols;
    g->n = n;
    g->comm = world;
    int k = g->npcols / g->nprows;
    /* partner (pc / k, k pr + pc % k): it holds the row block that contains my column segment,
     * and I hold the one that contains its; the map is its own inverse */
    g->partner = (g->pc / k) * g->npcols + k * g->pr + g->pc % k;
    MPI_Comm_split(world, g->pr, g->pc, &g->row);
}

static double dot(const cg_grid_t *g, const double *a, const double *b, int nc)
{
    double s = 0, t;
    for (int i = 0; i < nc; ++i)
        s += a[i] * b[i];
    uint64_t c0 = sim_cycles();
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, g->row);
    cg_timing.allreduce_scalar_cycles += sim_cycles() - c0;
    cg_timing.allreduce_scalar_calls++;
    return t;
}

/* out (column segment) = A in (column segment); w: row-block scratch (2 x nrows). */
static void matvec(const cg_grid_t *g, const cg_matrix_t *m, const double *in, double *out,
                   double *w)
{
    uint64_t c0 = sim_cycles();
    for (int i = 0; i < m->nrows; ++i) {
        double s = 0;
        for (int k = m->rowstr[i]; k < m->rowstr[i + 1]; ++k)
            s += m->a[k] * in[m->colidx[k]];
        w[i] = s;
    }
    cg_timing.matvec_cycles += sim_cycles() - c0;
    cg_timing.matvec_calls++;
    double *sum = w + m->nrows;
    c0 = sim_cycles();
    if (g->npcols > 1)
        MPI_Allreduce(w, sum, m->nrows, MPI_DOUBLE, MPI_SUM, g->row);
    else
        memcpy(sum, w, sizeof(double) * (size_t)m->nrows);
    cg_timing.allreduce_vec_cycles += sim_cycles() - c0;
    cg_timing.allreduce_vec_calls++;
    int k = g->npcols / g->nprows, nc = m->ncols;
    c0 = sim_cycles();
    MPI_Sendrecv(sum + (g->pc % k) * nc, nc, MPI_DOUBLE, g->partner, 1, out, nc, MPI_DOUBLE,
                 g->partner, 1, g->comm, MPI_STATUS_IGNORE);
    cg_timing.sendrecv_cycles += sim_cycles() - c0;
    cg_timing.sendrecv_calls++;
}

static double conj_grad(const cg_grid_t *g, const cg_matrix_t *m, const double *x, double *z,
                        double *p, double *q, double *r, double *w)
{
    int nc = m->ncols;
    for (int j = 0; j < nc; ++j) {
        q[j] = 0;
        z[j] = 0;
        r[j] = x[j];
        p[j] = r[j];
    }
    double rho = dot(g, r, r, nc);
    for (int it = 0; it < CG_CGITMAX; ++it) {
        matvec(g, m, p, q, w);
        double d = dot(g, p, q, nc);
        double alpha = rho / d, rho0 = rho;
        for (int j = 0; j < nc; ++j) {
            z[j] += alpha * p[j];
            r[j] -= alpha * q[j];
        }
        rho = dot(g, r, r, nc);
        double beta = rho / rho0;
        for (int j = 0; j < nc; ++j)
            p[j] = r[j] + beta * p[j];
    }
    matvec(g, m, z, r, w); /* residual ||x - A z|| */
    double s = 0;
    for (int j = 0; j < nc; ++j) {
        double d = x[j] - r[j];
        s += d * d;
    }
    double t;
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, g->row);
    return sqrt(t);
}

double cg_run(const cg_grid_t *g, const cg_matrix_t *m, int niter, double shift, double *rnorm,
              int verbose)
{
    int nc = m->ncols;
    double *x = malloc(sizeof(double) * (size_t)nc * 5u);
    double *w = malloc(sizeof(double) * (size_t)m->nrows * 2u);
    double *z = x + nc, *p = z + nc, *q = p + nc, *r = q + nc;
    double zeta = 0;
    for (int j = 0; j < nc; ++j)
        x[j] = 1.0;
    uint64_t c0 = sim_cycles();
    for (int it = 1; it <= niter; ++it) {
        *rnorm = conj_grad(g, m, x, z, p, q, r, w);
        double part[2] = {0, 0}, tot[2];
        for (int j = 0; j < nc; ++j) {
            part[0] += x[j] * z[j];
            part[1] += z[j] * z[j];
        }
        MPI_Allreduce(part, tot, 2, MPI_DOUBLE, MPI_SUM, g->row);
        double nt2 = 1.0 / sqrt(tot[1]);
        zeta = shift + 1.0 / tot[0];
        if (verbose) {
            char a[32], b[32];
            cg_fmt_sci(a, *rnorm);
            cg_fmt_fixed(b, zeta, 13);
            printf("cg it %2d rnorm %s zeta %s\n", it, a, b);
        }
        for (int j = 0; j < nc; ++j)
            x[j] = nt2 * z[j];
    }
    cg_timing.iter_cycles = sim_cycles() - c0;
    free(x);
    free(w);
    return zeta;
}

/* newlib's small printf has no floating point: fixed and scientific formats by hand. */
void cg_fmt_fixed(char *buf, double v, int digits)
{
    int neg = v < 0;
    if (neg)
        v = -v;
    double scale = 1;
    for (int i = 0; i < digits; ++i)
        scale *= 10;
    long long ip = (long long)v;
    long long fp = (long long)((v - (double)ip) * scale + 0.5);
    if ((double)fp >= scale) {
        ++ip;
        fp -= (long long)scale;
    }
    char frac[24];
    for (int i = digits - 1; i >= 0; --i) {
        frac[i] = (char)('0' + fp % 10);
        fp /= 10;
    }
    frac[digits] = 0;
    sprintf(buf, "%s%lld.%s", neg ? "-" : "", ip, frac);
}

void cg_fmt_sci(char *buf, double v)
{
    int e = 0, neg = v < 0;
    if (neg)
        v = -v;
    if (v != 0) {
        while (v >= 10) {
            v /= 10;
            ++e;
        }
        while (v < 1) {
            v *= 10;
            --e;
        }
    }
    char m[32];
    cg_fmt_fixed(m, v, 10);
    sprintf(buf, "%s%se%c%02d", neg ? "-" : "", m, e < 0 ? '-' : '+', e < 0 ? -e : e);
}
