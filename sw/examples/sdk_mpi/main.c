/* A worked MPI example for the installed SDK: every core of every tile is a rank. Each rank
 * passes a token around the ring (rank r sends to r+1), then all ranks sum their rank numbers
 * with MPI_Allreduce; rank 0 prints both results and checks them. */
#include <stdio.h>

#include "mpi.h"

int main(void)
{
    int rank, size;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the ring: rank 0 starts with 0, every rank adds its own number and passes it on */
    int token = 0;
    if (rank != 0)
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token += rank;
    MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Recv(&token, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int expect = size * (size - 1) / 2;
    int ok = sum == expect && (rank != 0 || token == expect);
    if (rank == 0)
        printf("sdk_mpi: %d ranks, ring token %d, allreduce sum %d (expected %d): %s\n", size,
               token, sum, expect, ok ? "ok" : "FAIL");
    MPI_Finalize();
    return ok ? 0 : 1;
}
