/* Seed 001's basic MPI set (its Table I: MPI_Init, MPI_Comm_size, MPI_Comm_rank, MPI_Send,
 * MPI_Recv, MPI_Finalize, MPI_Barrier) and nothing else of the library: the linker keeps what
 * these calls reach, and scripts/namp_scripts/footprint.py reads that footprint from the map
 * (docs/mpi.md "Library footprint"). It also runs: each rank passes a token around the ring
 * twice and checks what comes back. */
#include <stdio.h>

#include "mpi.h"

int main(void)
{
    int me, p, token = 0, bad = 0;
    MPI_Init(NULL, NULL);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int next = (me + 1) % p, prev = (me + p - 1) % p;
    for (int lap = 0; lap < 2; ++lap) {
        if (me == 0) {
            token = 1000 * lap;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            bad |= token != 1000 * lap + p * (p - 1) / 2; /* every other rank added its number */
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += me;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (bad)
        printf("mpi_footprint_basic FAIL: rank %d token %d\n", me, token);
    else if (me == 0)
        printf("mpi_footprint_basic ok: %d ranks\n", p);
    MPI_Finalize();
    return bad;
}
