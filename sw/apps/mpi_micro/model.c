/* Measurements for the MPI queueing model (scripts/mpi-model, docs/mpi-model.md) on a 2x1 mesh
 * with any number of cores per tile: R = rank 0 (tile 0, core 0) receives, S = the rank on tile 1,
 * core 0 sends. argv[1] picks experiments (comma list, default all); rank 0 prints:
 *   pp proto=<eager|rdv> bytes=<n> half_rtt=<cycles>            S <-> R, ping-pong
 *   <stream|late|rate> proto=<eager|rdv> bytes=<n> window=<w> queue=<q> msgs=<m> cycles=<c>
 *          s_busy=<c> r_busy=<c>
 *       S sends rounds of w MPI_Isend, R answers each round with 4 bytes (osu_bw's loop); R
 *       posts the receives of a round before its answer to the last one (stream, rate) or after
 *       it (late: osu_bw's order); in `rate` R has q receives for a tag that never comes posted
 *       ahead of them (every arrival walks them); busy = a rank's cycles outside the MCAPI
 *       library's sleep
 *   funnel cores=<k> bytes=<n> window=<w> msgs=<m> cycles=<c>
 *       every rank of tile 1 streams to its partner on tile 0 at once, all through the tiles'
 *       shared MCAPI node (docs/mpi.md "Ranks") */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/hal.h"
#include "mcapi.h"

#define ROUNDS 4
#define MAXB   4076         /* one MCAPI slot: the largest eager message */
#define PPBIG  (256u << 10) /* largest rendezvous ping-pong */

static _Thread_local int me, p, cores, S;
static _Thread_local uint8_t *buf;

static int wanted(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        if (!strncmp(s, name, n) && (s[n] == 0 || s[n] == ','))
            return 1;
        s = strchr(s, ',');
        if (!s)
            break;
        ++s;
    }
    return 0;
}

static void pingpong(const char *proto, int bytes)
{
    MPIX_Set_eager_threshold(proto[0] == 'e' ? MAXB : 0);
    uint64_t t = 0;
    for (int round = 0; round < 2; ++round) { /* the first warms up (lookups, CTS path) */
        MPI_Barrier(MPI_COMM_WORLD);
        uint64_t t0 = sim_cycles();
        for (int i = 0; i < 8; ++i) {
            if (me == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, S, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, S, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == S) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        t = (sim_cycles() - t0) / 16u;
    }
    if (me == 0)
        printf("pp proto=%s bytes=%d half_rtt=%lu\n", proto, bytes, (unsigned long)t);
    MPIX_Set_eager_threshold(1024);
}

/* osu_bw's loop between `from` and `to`: w messages, then a 4-byte answer; returns the cycles of
 * the measured rounds and (at the two ranks) their busy cycles. With `late` the receiver posts a
 * round's receives after its answer to the last one, like osu_bw (most of a window arrives before
 * its receive: the unexpected path), otherwise before it (seed 002's pre-posted receives). */
static uint64_t window_loop(int from, int to, int bytes, int w, int q, int late, uint64_t *busy)
{
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(w + q + 1));
    int64_t *dummy = malloc(sizeof(int64_t) * (size_t)(q + 1));
    for (int i = 0; i < q && me == to; ++i)
        MPI_Irecv(&dummy[i], 1, MPI_LONG_LONG, from, 77, MPI_COMM_WORLD, &rq[w + i]);
    uint64_t t = 0;
    int ack = 0;
    for (int i = 0; i < w && me == to && !late; ++i)
        MPI_Irecv(buf, bytes, MPI_BYTE, from, 5, MPI_COMM_WORLD, &rq[i]);
    for (int round = 0; round < 1 + ROUNDS; ++round) {
        if (round == 1) { /* round 0 warms up */
            MPI_Barrier(MPI_COMM_WORLD);
            t = sim_cycles();
            *busy = cpu_cycles() - mcapix_stats()->idle_cycles;
        }
        if (me == from) {
            for (int i = 0; i < w; ++i)
                MPI_Isend(buf, bytes, MPI_BYTE, to, 5, MPI_COMM_WORLD, &rq[i]);
            MPI_Waitall(w, rq, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, to, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == to) {
            for (int i = 0; i < w && late; ++i)
                MPI_Irecv(buf, bytes, MPI_BYTE, from, 5, MPI_COMM_WORLD, &rq[i]);
            MPI_Waitall(w, rq, MPI_STATUSES_IGNORE);
            for (int i = 0; i < w && !late && round < ROUNDS; ++i)
                MPI_Irecv(buf, bytes, MPI_BYTE, from, 5, MPI_COMM_WORLD, &rq[i]);
            MPI_Send(&ack, 1, MPI_INT, from, 6, MPI_COMM_WORLD);
        }
    }
    t = sim_cycles() - t;
    *busy = cpu_cycles() - mcapix_stats()->idle_cycles - *busy;
    if (me == from) { /* release the dummies */
        int64_t v = -1;
        for (int i = 0; i < q; ++i)
            MPI_Send(&v, 1, MPI_LONG_LONG, to, 77, MPI_COMM_WORLD);
    } else if (me == to && q) {
        MPI_Waitall(q, rq + w, MPI_STATUSES_IGNORE);
    }
    free(dummy);
    free(rq);
    return t;
}

static void stream(const char *label, int bytes, int w, int q, int rdv)
{
    MPIX_Set_eager_threshold(rdv ? 0 : MAXB);
    uint64_t busy = 0;
    uint64_t t = window_loop(S, 0, bytes, w, q, label[0] == 'l', &busy);
    long long sb = (long long)busy;
    if (me == S)
        MPI_Send(&sb, 1, MPI_LONG_LONG, 0, 9, MPI_COMM_WORLD);
    if (me == 0) {
        MPI_Recv(&sb, 1, MPI_LONG_LONG, S, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%s proto=%s bytes=%d window=%d queue=%d msgs=%d cycles=%lu s_busy=%lu "
               "r_busy=%lu\n",
               label, rdv ? "rdv" : "eager", bytes, w, q, ROUNDS * w, (unsigned long)t,
               (unsigned long)sb, (unsigned long)busy);
    }
    MPIX_Set_eager_threshold(1024);
}

static void funnel(int bytes, int w)
{
    MPIX_Set_eager_threshold(MAXB);
    int core = me % cores, tile = me / cores;
    uint64_t busy = 0;
    /* tile 1's core k sends to tile 0's core k; ranks of further tiles only join the barriers */
    int from = cores + core, to = core;
    uint64_t t = tile < 2 ? window_loop(from, to, bytes, w, 0, 0, &busy) : 0;
    if (tile >= 2)
        for (int round = 0; round < 1; ++round)
            MPI_Barrier(MPI_COMM_WORLD);
    long long mine = (long long)t, worst = 0;
    MPI_Reduce(&mine, &worst, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("funnel cores=%d bytes=%d window=%d msgs=%d cycles=%lu\n", cores, bytes, w,
               cores * ROUNDS * w, (unsigned long)worst);
    MPIX_Set_eager_threshold(1024);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    cores = (int)tile_num_cores();
    S = cores;
    if (p < 2 * cores) {
        if (me == 0)
            printf("mpi_model FAIL: needs two tiles\n");
        MPI_Finalize();
        return 1;
    }
    const char *only = argc > 1 ? argv[1] : NULL;
    buf = malloc(PPBIG);
    if (!buf) {
        printf("mpi_model FAIL: no memory\n");
        return 1;
    }
    memset(buf, 0x3C, PPBIG);
    if (wanted(only, "pp")) {
        static const int eager[] = {8, 512, 1024, 2048, 4076};
        static const int rdv[] = {8, 4096, 16384, 65536, PPBIG};
        for (unsigned k = 0; k < sizeof eager / sizeof eager[0]; ++k)
            pingpong("eager", eager[k]);
        for (unsigned k = 0; k < sizeof rdv / sizeof rdv[0]; ++k)
            pingpong("rdv", rdv[k]);
    }
    if (wanted(only, "stream")) {
        static const int sizes[] = {8, 1024, 4076};
        static const int windows[] = {1, 4, 16};
        for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
            for (unsigned j = 0; j < sizeof windows / sizeof windows[0]; ++j)
                stream("stream", sizes[k], windows[j], 0, 0);
        static const int rsizes[] = {4096, 65536, PPBIG};
        for (unsigned k = 0; k < sizeof rsizes / sizeof rsizes[0]; ++k)
            stream("stream", rsizes[k], 4, 0, 1);
        for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
            stream("late", sizes[k], 16, 0, 0);
    }
    if (wanted(only, "rate")) {
        static const int queues[] = {0, 16, 64, 256};
        for (unsigned k = 0; k < sizeof queues / sizeof queues[0]; ++k)
            stream("rate", 8, 16, queues[k], 0);
    }
    if (wanted(only, "funnel")) {
        /* seed 002 Figs. 8-9: the same bytes cut into more, smaller messages as cores double */
        static const int total[] = {256, 4000};
        for (unsigned k = 0; k < sizeof total / sizeof total[0]; ++k)
            funnel(total[k] / cores, 8);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi_model done\n");
    free(buf);
    MPI_Finalize();
    return 0;
}
