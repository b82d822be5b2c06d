/* MPI microbenchmarks (bench-only; docs/mpi.md), printed by rank 0:
 *   pingpong proto=<eager|rdv> bytes=<n> half_rtt=<cycles>      ranks 0 <-> 1, 16 round trips
 *   crossover bytes=<smallest size where rendezvous beats eager, or none>
 *   msgrate queue=<posted receives ahead> msgs=<n> cycles=<n> rate=<messages per Mcycle>
 *   coll allreduce count=351 type=<t> ranks=4 cycles=<mean>      first 4 ranks, 16 calls
 *   coll sendrecv count=351 type=<t> cycles=<mean>               ranks 0 <-> 1, 16 calls
 * Message rate (seed 002 Fig. 7): rank 1 streams 8-byte messages to rank 0, which has `queue`
 * receives for a tag that never comes posted before the real ones, so every arrival walks them.
 * tile.arg 0 runs all; 1 only MPI_Allreduce of int, 2 only MPI_Sendrecv of int (a claim measures
 * one call per simulation). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mpi.h"

#define REPS      16
#define RATE_MSGS 128

static _Thread_local int me, p; /* per rank: a core is a rank */

static uint32_t pingpong(int bytes, uint8_t *buf)
{
    MPI_Barrier(MPI_COMM_WORLD);
    uint64_t t0 = sim_cycles();
    for (int i = 0; i < REPS; ++i) {
        if (me == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (uint32_t)((sim_cycles() - t0) / (2u * REPS));
}

static void bench_pingpong(void)
{
    static const int sizes[] = {4, 64, 256, 512, 1024, 1536, 2048, 3072, 4076, 8192, 16384};
    uint8_t *buf = malloc(16384);
    memset(buf, 1, 16384);
    int cross = -1;
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int n = sizes[k];
        uint32_t e = 0, r;
        if (n <= 4076) { /* eager only up to one slot */
            MPIX_Set_eager_threshold(4076);
            e = pingpong(n, buf);
        }
        MPIX_Set_eager_threshold(0);
        r = pingpong(n, buf);
        if (me == 0) {
            if (e)
                printf("pingpong proto=eager bytes=%d half_rtt=%u\n", n, (unsigned)e);
            printf("pingpong proto=rdv bytes=%d half_rtt=%u\n", n, (unsigned)r);
        }
        if (cross < 0 && e && r < e)
            cross = n;
    }
    MPIX_Set_eager_threshold(1024);
    if (me == 0) {
        if (cross > 0)
            printf("crossover bytes=%d\n", cross);
        else
            printf("crossover bytes=none (eager faster up to 4076 B)\n");
    }
    free(buf);
}

/* Returns 0, or 1 when the rate with the longest queue is not below the rate without one (seed
 * 002's claim: matching cost grows with the posted-queue length and lowers the message rate). */
static int bench_msgrate(void)
{
    static const int queues[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256};
    uint64_t first = 0, last = 0;
    for (unsigned k = 0; k < sizeof queues / sizeof queues[0]; ++k) {
        int q = queues[k];
        MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(q + RATE_MSGS));
        int64_t *data = malloc(sizeof(int64_t) * (size_t)(q + RATE_MSGS));
        uint64_t cycles = 0;
        if (me == 0) {
            for (int i = 0; i < q; ++i) /* never matched until the end */
                MPI_Irecv(&data[i], 1, MPI_LONG_LONG, 1, 77, MPI_COMM_WORLD, &rq[i]);
            for (int i = 0; i < RATE_MSGS; ++i)
                MPI_Irecv(&data[q + i], 1, MPI_LONG_LONG, 1, 5, MPI_COMM_WORLD, &rq[q + i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = sim_cycles();
        if (me == 1) {
            for (int i = 0; i < RATE_MSGS; ++i) {
                int64_t v = i;
                MPI_Send(&v, 1, MPI_LONG_LONG, 0, 5, MPI_COMM_WORLD);
            }
        } else if (me == 0) {
            MPI_Waitall(RATE_MSGS, rq + q, MPI_STATUSES_IGNORE);
            cycles = sim_cycles() - t0;
        }
        if (me == 1) { /* release the dummies */
            int64_t v = -1;
            for (int i = 0; i < q; ++i)
                MPI_Send(&v, 1, MPI_LONG_LONG, 0, 77, MPI_COMM_WORLD);
        } else if (me == 0) {
            MPI_Waitall(q, rq, MPI_STATUSES_IGNORE);
            printf("msgrate queue=%d msgs=%d cycles=%u rate=%u\n", q, RATE_MSGS, (unsigned)cycles,
                   (unsigned)((uint64_t)RATE_MSGS * 1000000u / (cycles ? cycles : 1)));
            if (k == 0)
                first = cycles;
            last = cycles;
        }
        free(rq);
        free(data);
    }
    if (me != 0)
        return 0;
    if (last <= first) {
        printf("msgrate FAIL: %d posted receives ahead did not lower the rate\n", queues[9]);
        return 1;
    }
    printf("msgrate claim ok: the longest posted queue lowers the message rate\n");
    return 0;
}

static void bench_coll(void)
{
    MPI_Comm four;
    MPI_Comm_split(MPI_COMM_WORLD, me < 4 ? 0 : MPI_UNDEFINED, me, &four);
    static double a[351], b[351];
    static int ia[351], ib[351];
    for (int i = 0; i < 351; ++i) {
        a[i] = i;
        ia[i] = i;
    }
    const uint32_t only = tile_arg();
    for (int t = only ? 1 : 0; t < 2 && four != MPI_COMM_NULL; ++t) {
        MPI_Barrier(four);
        uint64_t t0 = sim_cycles();
        for (int i = 0; i < REPS && only != 2; ++i) {
            if (t == 0)
                MPI_Allreduce(a, b, 351, MPI_DOUBLE, MPI_SUM, four);
            else
                MPI_Allreduce(ia, ib, 351, MPI_INT, MPI_SUM, four);
        }
        uint32_t ar = (uint32_t)((sim_cycles() - t0) / REPS);
        MPI_Barrier(four);
        t0 = sim_cycles();
        for (int i = 0; i < REPS && me < 2 && only != 1; ++i) {
            if (t == 0)
                MPI_Sendrecv(a, 351, MPI_DOUBLE, 1 - me, 2, b, 351, MPI_DOUBLE, 1 - me, 2,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else
                MPI_Sendrecv(ia, 351, MPI_INT, 1 - me, 2, ib, 351, MPI_INT, 1 - me, 2,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        uint32_t sr = (uint32_t)((sim_cycles() - t0) / REPS);
        if (me == 0 && only != 2)
            printf("coll allreduce count=351 type=%s ranks=4 cycles=%u\n", t ? "int" : "double",
                   (unsigned)ar);
        if (me == 0 && only != 1)
            printf("coll sendrecv count=351 type=%s cycles=%u\n", t ? "int" : "double",
                   (unsigned)sr);
    }
    if (four != MPI_COMM_NULL)
        MPI_Comm_free(&four);
}

int main(void)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (p < 4) {
        if (me == 0)
            printf("mpi_micro FAIL: needs 4 ranks\n");
        MPI_Finalize();
        return 1;
    }
    int rc = 0;
    if (tile_arg() == 0) {
        bench_pingpong();
        rc = bench_msgrate();
    }
    bench_coll();
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi_micro done\n");
    MPI_Finalize();
    return rc;
}
