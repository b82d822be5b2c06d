/* Seed 001's collective MPI set (its Table I: the basic set and MPI_Bcast, MPI_Reduce,
 * MPI_Gather, MPI_Scatter; reductions by sum and product of 4- and 8-byte integers and floating
 * point) and nothing else of the library: the linker keeps what these calls reach, and
 * scripts/namp_scripts/footprint.py reads that footprint from the map (docs/mpi.md "Library
 * footprint"). It also runs and checks every result. */
#include <stdio.h>

#include "mpi.h"

#define ROOT 0

static int check(int ok, const char *what, int me)
{
    if (!ok)
        printf("mpi_footprint_coll FAIL: %s on rank %d\n", what, me);
    return !ok;
}

int main(void)
{
    int me, p, bad = 0;
    MPI_Init(NULL, NULL);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);

    /* the basic set's point-to-point calls: ranks 0 and 1 exchange a value */
    int x = me;
    if (me == 0) {
        MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad |= check(x == 2, "send/recv", me);
    } else if (me == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x += 2;
        MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }

    int v = me == ROOT ? 42 : -1;
    MPI_Bcast(&v, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
    bad |= check(v == 42, "bcast", me);

    /* the four kinds of seed 001: sum and product, 4 and 8 bytes, integer and floating point */
    int i = me + 1, isum = 0;
    long long l = me + 1, lprod = 0;
    float f = (float)(me + 1), fsum = 0;
    double d = me + 1, dprod = 0;
    MPI_Reduce(&i, &isum, 1, MPI_INT, MPI_SUM, ROOT, MPI_COMM_WORLD);
    MPI_Reduce(&l, &lprod, 1, MPI_LONG_LONG, MPI_PROD, ROOT, MPI_COMM_WORLD);
    MPI_Reduce(&f, &fsum, 1, MPI_FLOAT, MPI_SUM, ROOT, MPI_COMM_WORLD);
    MPI_Reduce(&d, &dprod, 1, MPI_DOUBLE, MPI_PROD, ROOT, MPI_COMM_WORLD);
    if (me == ROOT) {
        long long fact = 1;
        for (int k = 2; k <= p; ++k)
            fact *= k;
        bad |= check(isum == p * (p + 1) / 2, "reduce int sum", me);
        bad |= check(lprod == fact, "reduce long long prod", me);
        bad |= check(fsum == (float)(p * (p + 1) / 2), "reduce float sum", me);
        bad |= check(dprod == (double)fact, "reduce double prod", me);
    }

    int all[64], mine = -1;
    if (p > 64)
        bad |= check(0, "at most 64 ranks", me);
    else {
        for (int k = 0; k < p; ++k)
            all[k] = me == ROOT ? 10 * k : -1;
        MPI_Scatter(all, 1, MPI_INT, &mine, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
        bad |= check(mine == 10 * me, "scatter", me);
        mine += 1;
        MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
        if (me == ROOT)
            for (int k = 0; k < p; ++k)
                bad |= check(all[k] == 10 * k + 1, "gather", me);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (!bad && me == ROOT)
        printf("mpi_footprint_coll ok: %d ranks\n", p);
    MPI_Finalize();
    return bad;
}
