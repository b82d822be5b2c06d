/* Where the bandwidth of a large MPI message goes (docs/mpi.md "Large messages"), ranks 0 and 1:
 *   copy       the core copying 4 MiB (MCAPI's word copy): what a receiver that copies can reach
 *   rdma       one 4 MiB RDMA put by the adapter's data engine (the link and the engine)
 *   mpi_*      MPI bandwidth the way osu_bw measures it (a window of MPI_Isend, then a short
 *              reply), 4 MiB and 256 KiB messages: the payload in slot-sized MCAPI messages
 *              (pieces, the receiver copies each from its slot), or by RDMA into the receive buffer
 *              with one DMA slot or with every slot MPI has
 * For the pieces it also prints how busy the receiving core was (its cycles outside the MCAPI
 * library's sleep). Lines: "bw <name> bytes=<n> cycles=<c> [busy=<percent>]". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"
#include "mp/cbuffer.h"
#include "mp/copy.h"
#include "na/na.h"

#define BIG    (4u << 20)
#define WINDOW 4

static int me;

static void report(const char *name, uint32_t bytes, uint64_t cycles, int busy)
{
    if (busy >= 0)
        printf("bw %s bytes=%lu cycles=%lu busy=%d\n", name, (unsigned long)bytes,
               (unsigned long)cycles, busy);
    else
        printf("bw %s bytes=%lu cycles=%lu\n", name, (unsigned long)bytes, (unsigned long)cycles);
}

/* osu_bw's loop: WINDOW messages, then a 4-byte reply; cycles per message at rank 0, and rank 1's
 * share of cycles outside the library's sleep. */
static void mpi_bw(const char *name, uint8_t *buf, uint32_t bytes, int rdma, int split)
{
    MPIX_Set_rdma_rendezvous(rdma);
    MPIX_Set_dma_split(split);
    MPI_Request r[WINDOW];
    int ack = 0;
    for (int round = 0; round < 2; ++round) { /* the first one warms up (lookups, CTS path) */
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = cpu_cycles(), idle0 = mcapix_stats()->idle_cycles;
        if (me == 0) {
            for (int i = 0; i < WINDOW; ++i)
                MPI_Isend(buf, (int)bytes, MPI_BYTE, 1, 100, MPI_COMM_WORLD, &r[i]);
            MPI_Waitall(WINDOW, r, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            for (int i = 0; i < WINDOW; ++i)
                MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, 100, MPI_COMM_WORLD, &r[i]);
            MPI_Waitall(WINDOW, r, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD);
        }
        uint64_t cyc = cpu_cycles() - t0, idle = mcapix_stats()->idle_cycles - idle0;
        int busy = cyc ? (int)((cyc - idle) * 100u / cyc) : 0;
        int rbusy = busy;
        MPI_Bcast(&rbusy, 1, MPI_INT, 1, MPI_COMM_WORLD);
        if (round == 1 && me == 0)
            report(name, bytes, cyc / WINDOW, rbusy);
    }
    MPIX_Set_rdma_rendezvous(1);
    MPIX_Set_dma_split(64);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    uint8_t *buf = malloc(BIG), *dst = malloc(BIG);
    if (!buf || !dst) {
        printf("mpi_bw FAIL: no memory (link for 16 MiB of SRAM)\n");
        return 1;
    }
    memset(buf, 0x5A, BIG);
    if (me == 0) {
        uint64_t t0 = cpu_cycles();
        mp_copy(dst, buf, BIG);
        report("copy", BIG, cpu_cycles() - t0, -1);
        /* one RDMA put to rank 1's buffer (its address is ours: the same ELF, the same heap) */
        t0 = cpu_cycles();
        const int err = na_dma_copy(0, buf, 1, (uint32_t)(uintptr_t)dst, BIG);
        report(err ? "rdma_FAIL" : "rdma", BIG, cpu_cycles() - t0, -1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const uint32_t sizes[2] = {BIG, 256u << 10};
    for (int k = 0; k < 2; ++k) {
        mpi_bw("mpi_pieces", buf, sizes[k], 0, 64);
        mpi_bw("mpi_rdma_1slot", buf, sizes[k], 1, 1);
        mpi_bw("mpi_rdma", buf, sizes[k], 1, 64);
    }
    if (me == 0)
        printf("mpi_bw done\n");
    MPI_Finalize();
    return 0;
}
