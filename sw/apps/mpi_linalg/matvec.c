/* Matrix-vector multiplication y = A x as in seed 001 (single precision): rank 0 holds A and x,
 * broadcasts x, streams the rows of A to the ranks (row i to rank i mod p, one row held at a time:
 * the paper's processors store a single row), every rank computes its y elements, MPI_Gather
 * brings y to rank 0, which checks it against its own serial product (same summation order: bit
 * identical). Sizes 50..300 step 50. Prints per size:
 *   matvec n=<n> ranks=<p> cycles=<rank 0, from the broadcast to the gathered result> ok */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mpi.h"

#define TAG_ROW 3

static float a_of(int i, int j) { return (float)((i * 7 + j * 3) % 17) * 0.25f - 1.5f; }

int main(void)
{
    MPI_Init(NULL, NULL);
    int p, me, fails = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int n = 50; n <= 300; n += 50) {
        int per = (n + p - 1) / p; /* rows per rank (cyclic), padded for the gather */
        float *x = malloc(sizeof(float) * (size_t)n), *row = malloc(sizeof(float) * (size_t)n);
        float *ymine = calloc((size_t)per, sizeof(float));
        float *A = NULL, *yall = NULL;
        if (me == 0) {
            A = malloc(sizeof(float) * (size_t)n * (size_t)n);
            yall = malloc(sizeof(float) * (size_t)per * (size_t)p);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    A[i * n + j] = a_of(i, j);
            for (int j = 0; j < n; ++j)
                x[j] = (float)(j % 5) * 0.5f + 1.0f;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = sim_cycles();
        MPI_Bcast(x, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
        for (int i = 0; i < n; ++i) {
            int owner = i % p;
            const float *r = NULL;
            if (me == 0 && owner != 0)
                MPI_Send(&A[i * n], n, MPI_FLOAT, owner, TAG_ROW, MPI_COMM_WORLD);
            if (owner != me)
                continue;
            if (me == 0) {
                r = &A[i * n];
            } else {
                MPI_Recv(row, n, MPI_FLOAT, 0, TAG_ROW, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                r = row;
            }
            float s = 0;
            for (int j = 0; j < n; ++j)
                s += r[j] * x[j];
            ymine[i / p] = s;
        }
        MPI_Gather(ymine, per, MPI_FLOAT, yall, per, MPI_FLOAT, 0, MPI_COMM_WORLD);
        uint64_t cycles = sim_cycles() - t0;
        if (me == 0) {
            int bad = 0;
            for (int i = 0; i < n; ++i) {
                float s = 0;
                for (int j = 0; j < n; ++j)
                    s += A[i * n + j] * x[j];
                bad += yall[(i % p) * per + i / p] != s;
            }
            fails += bad != 0;
            printf("matvec n=%d ranks=%d cycles=%u %s\n", n, p, (unsigned)cycles,
                   bad ? "FAIL" : "ok");
        }
        free(A);
        free(yall);
        free(x);
        free(row);
        free(ymine);
    }
    MPIX_Print_stats();
    MPI_Bcast(&fails, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return fails ? 1 : 0;
}
