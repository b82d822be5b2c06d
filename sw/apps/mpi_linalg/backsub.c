/* Back substitution (seed 001, Listing 1) for an upper triangular system A x = b, single
 * precision. Rows are distributed cyclically (row j on rank j mod p, generated there); for
 * i = n-1 .. 0 the owner of row i computes x[i] = b[i] / A[i][i] and MPI_Bcast gives it to all
 * (the pivot broadcast the paper names), every rank updates its b[j], j < i; MPI_Gather brings
 * the solution to rank 0, which checks it against the known solution. Sizes 100..600 step 100.
 *   backsub n=<n> ranks=<p> cycles=<rank 0, solve + gather> ok */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"
#include "mpi.h"

static float a_of(int i, int j, int n)
{
    return i == j ? (float)n : (float)((i * 5 + j * 11) % 13) * 0.125f - 0.75f;
}
static float x_true(int i) { return (float)(i % 7) - 3.0f; }

int main(void)
{
    MPI_Init(NULL, NULL);
    int p, me, fails = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int n = 100; n <= 600; n += 100) {
        int per = (n + p - 1) / p;
        /* my rows: j = me + k p; only the upper triangle (columns j..n-1) is stored */
        float **rows = malloc(sizeof(float *) * (size_t)per);
        float *b = calloc((size_t)per, sizeof(float));
        for (int k = 0; k < per; ++k) {
            int j = me + k * p;
            rows[k] = NULL;
            if (j >= n)
                continue;
            rows[k] = malloc(sizeof(float) * (size_t)(n - j));
            float s = 0;
            for (int c = j; c < n; ++c) {
                rows[k][c - j] = a_of(j, c, n);
                s += rows[k][c - j] * x_true(c);
            }
            b[k] = s;
        }
        float *xall = me == 0 ? malloc(sizeof(float) * (size_t)per * (size_t)p) : NULL;
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = sim_cycles();
        for (int i = n - 1; i >= 0; --i) {
            int owner = i % p;
            float xi = 0;
            if (owner == me) {
                int k = i / p;
                b[k] = b[k] / rows[k][0];
                xi = b[k];
            }
            if (p > 1)
                MPI_Bcast(&xi, 1, MPI_FLOAT, owner, MPI_COMM_WORLD);
            for (int k = 0; k < per; ++k) { /* rows j < i */
                int j = me + k * p;
                if (j >= i)
                    break;
                b[k] -= xi * rows[k][i - j];
            }
        }
        MPI_Gather(b, per, MPI_FLOAT, xall, per, MPI_FLOAT, 0, MPI_COMM_WORLD);
        uint64_t cycles = sim_cycles() - t0;
        if (me == 0) {
            int bad = 0;
            for (int i = 0; i < n; ++i)
                bad += fabsf(xall[(i % p) * per + i / p] - x_true(i)) > 1e-3f;
            fails += bad != 0;
            printf("backsub n=%d ranks=%d cycles=%u %s\n", n, p, (unsigned)cycles,
                   bad ? "FAIL" : "ok");
        }
        for (int k = 0; k < per; ++k)
            free(rows[k]);
        free(rows);
        free(b);
        free(xall);
    }
    MPIX_Print_stats();
    MPI_Bcast(&fails, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return fails ? 1 : 0;
}
