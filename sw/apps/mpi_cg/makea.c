/* NPB CG matrix generator (makea, sprnvc, vecset) after the published algorithm, for the block of
 * one process. Every process draws the whole random sequence (it is sequential) and keeps the
 * outer-product elements that fall into its rows and columns. Two passes: count, then fill; then
 * the duplicates of each row are summed (sort by column). */
#include <math.h>
#include <stdlib.h>

#include "cg.h"

#define AMULT  1220703125ull /* 5^13 */
#define MASK46 ((1ull << 46) - 1u)

double cg_randlc(uint64_t *x, uint64_t a)
{
    /* (a * x) mod 2^46 with 23-bit halves: a = a1 2^23 + a2, x = x1 2^23 + x2 */
    uint64_t a1 = a >> 23, a2 = a & 0x7FFFFFu, x1 = *x >> 23, x2 = *x & 0x7FFFFFu;
    uint64_t t = ((a1 * x2 + a2 * x1) & 0x7FFFFFu) << 23;
    *x = (t + a2 * x2) & MASK46;
    return (double)*x * (1.0 / (double)(1ull << 46));
}

/* nz distinct random positions 1..n with random values (NPB sprnvc). */
static void sprnvc(uint64_t *tran, int n, int nz, int nn1, double *v, int *iv)
{
    int nzv = 0;
    while (nzv < nz) {
        double vecelt = cg_randlc(tran, AMULT);
        double vecloc = cg_randlc(tran, AMULT);
        int i = (int)(nn1 * vecloc) + 1;
        if (i > n)
            continue;
        int seen = 0;
        for (int k = 0; k < nzv && !seen; ++k)
            seen = iv[k] == i;
        if (seen)
            continue;
        v[nzv] = vecelt;
        iv[nzv] = i;
        ++nzv;
    }
}

/* Sets element i to val, appending it when absent (NPB vecset). */
static void vecset(double *v, int *iv, int *nzv, int i, double val)
{
    int set = 0;
    for (int k = 0; k < *nzv; ++k)
        if (iv[k] == i) {
            v[k] = val;
            set = 1;
        }
    if (!set) {
        v[*nzv] = val;
        iv[*nzv] = i;
        ++*nzv;
    }
}

/* One pass over the whole generation; fill == 0 counts per local row, else stores. */
static void generate(cg_matrix_t *m, int n, int nonzer, double rcond, double shift, int *fill)
{
    uint64_t tran = 314159265ull;
    double v[CG_NONZER + 2];
    int iv[CG_NONZER + 2];
    int nn1 = 1;
    while (nn1 < n)
        nn1 *= 2;
    cg_randlc(&tran, AMULT); /* NPB draws zeta's seed once before makea */
    double size = 1.0, ratio = pow(rcond, 1.0 / (double)n);
    int r_lo = m->row0, r_hi = m->row0 + m->nrows, c_lo = m->col0, c_hi = m->col0 + m->ncols;
    for (int iouter = 0; iouter < n; ++iouter) {
        int nzv = nonzer;
        sprnvc(&tran, n, nzv, nn1, v, iv);
        vecset(v, iv, &nzv, iouter + 1, 0.5);
        for (int e = 0; e < nzv; ++e) {
            int jcol = iv[e] - 1;
            if (jcol < c_lo || jcol >= c_hi)
                continue;
            double scale = size * v[e];
            for (int f = 0; f < nzv; ++f) {
                int irow = iv[f] - 1;
                if (irow < r_lo || irow >= r_hi)
                    continue;
                int lr = irow - r_lo;
                if (!fill) {
                    m->rowstr[lr + 1]++;
                    continue;
                }
                int k = fill[lr]++;
                m->colidx[k] = jcol - c_lo;
                m->a[k] = v[f] * scale;
            }
        }
        size *= ratio;
    }
    /* the diagonal shift, once per diagonal element */
    for (int i = r_lo; i < r_hi; ++i) {
        if (i < c_lo || i >= c_hi)
            continue;
        int lr = i - r_lo;
        if (!fill) {
            m->rowstr[lr + 1]++;
            continue;
        }
        int k = fill[lr]++;
        m->colidx[k] = i - c_lo;
        m->a[k] = rcond - shift;
    }
}

int cg_makea(cg_matrix_t *m, int n, int nonzer, double rcond, double shift)
{
    m->rowstr = calloc((size_t)m->nrows + 1u, sizeof(int));
    if (!m->rowstr)
        return -1;
    generate(m, n, nonzer, rcond, shift, NULL);
    for (int i = 0; i < m->nrows; ++i)
        m->rowstr[i + 1] += m->rowstr[i];
    int total = m->rowstr[m->nrows];
    m->colidx = malloc(sizeof(int) * (size_t)(total ? total : 1));
    m->a = malloc(sizeof(double) * (size_t)(total ? total : 1));
    int *fill = malloc(sizeof(int) * (size_t)(m->nrows ? m->nrows : 1));
    if (!m->colidx || !m->a || !fill)
        return -1;
    for (int i = 0; i < m->nrows; ++i)
        fill[i] = m->rowstr[i];
    generate(m, n, nonzer, rcond, shift, fill);
    free(fill);
    /* per row: insertion sort by column, sum duplicates, compact in place */
    int out = 0;
    for (int i = 0; i < m->nrows; ++i) {
        int b = m->rowstr[i], e = m->rowstr[i + 1];
        for (int k = b + 1; k < e; ++k) {
            int c = m->colidx[k];
            double a = m->a[k];
            int j = k;
            while (j > b && m->colidx[j - 1] > c) {
                m->colidx[j] = m->colidx[j - 1];
                m->a[j] = m->a[j - 1];
                --j;
            }
            m->colidx[j] = c;
            m->a[j] = a;
        }
        m->rowstr[i] = out;
        for (int k = b; k < e; ++k) {
            if (k > b && m->colidx[k] == m->colidx[k - 1]) {
                m->a[out - 1] += m->a[k];
                continue;
            }
            m->colidx[out] = m->colidx[k];
            m->a[out] = m->a[k];
            ++out;
        }
    }
    m->rowstr[m->nrows] = out;
    m->nnz = out;
    return 0;
}
