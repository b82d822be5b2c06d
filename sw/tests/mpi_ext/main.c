/* Tests of the MPI calls added for the OSU micro-benchmarks (docs/mpi.md "Calls"), one call (or
 * one family) per run: --args NAME, or "all". Results are checked against what every rank can
 * compute from the others' deterministic inputs; misuse must give the error class, never a hang
 * (MPI_ERRORS_RETURN). Every failed check prints "FAIL". */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hal/hal.h"

/* picolibc declares it only for systems with POSIX timers; the runtime has it (posix.c) */
int clock_gettime(clockid_t id, struct timespec *tp);

static _Thread_local int me, np, checks, fails;

#define CHECK(cond, ...)                                            \
    do {                                                            \
        ++checks;                                                   \
        if (!(cond)) {                                              \
            ++fails;                                                \
            printf("mpi_ext FAIL rank %d line %d: ", me, __LINE__); \
            printf(__VA_ARGS__);                                    \
            printf("\n");                                           \
        }                                                           \
    } while (0)
#define RC(call, want) CHECK((call) == (want), "%s: want %d", #call, (int)(want))

/* value k of the block rank `from` sends to rank `to` */
static int v(int from, int to, int k) { return (from * 64 + to) * 1000 + k; }

/* ------------------------------------------------------------------ data movement */

static void t_in_place(void)
{
    int buf[8], x[4];
    for (int i = 0; i < 4; ++i)
        x[i] = me + i;
    memcpy(buf, x, sizeof x);
    RC(MPI_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    for (int i = 0; i < 4; ++i)
        CHECK(buf[i] == np * (np - 1) / 2 + np * i, "allreduce in place [%d] = %d", i, buf[i]);
    double d = me + 0.5, dsum = d;
    RC(me == 0 ? MPI_Reduce(MPI_IN_PLACE, &dsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
               : MPI_Reduce(&d, NULL, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD),
       MPI_SUCCESS);
    if (me == 0)
        CHECK(dsum == np * (np - 1) / 2.0 + np * 0.5, "reduce in place %f", dsum);
    /* OSU's pattern: the root reduces in place, the others reduce their own value */
    long l = me, lmax = l;
    RC(me == 0 ? MPI_Reduce(MPI_IN_PLACE, &lmax, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD)
               : MPI_Reduce(&l, &l, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD),
       MPI_SUCCESS);
    if (me == 0)
        CHECK(lmax == np - 1, "MPI_LONG max %ld", lmax);
    int g[64];
    g[me] = v(me, 0, 1);
    RC(me == 0 ? MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD)
               : MPI_Gather(&g[me], 1, MPI_INT, NULL, 1, MPI_INT, 0, MPI_COMM_WORLD),
       MPI_SUCCESS);
    if (me == 0)
        for (int r = 0; r < np; ++r)
            CHECK(g[r] == v(r, 0, 1), "gather in place [%d]", r);
    for (int r = 0; r < np; ++r)
        g[r] = me == 1 % np ? v(1 % np, r, 2) : -1;
    int mine = -1;
    RC(me == 1 % np ? MPI_Scatter(g, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 1 % np, MPI_COMM_WORLD)
                    : MPI_Scatter(NULL, 1, MPI_INT, &mine, 1, MPI_INT, 1 % np, MPI_COMM_WORLD),
       MPI_SUCCESS);
    CHECK((me == 1 % np ? g[me] : mine) == v(1 % np, me, 2), "scatter in place");
    for (int r = 0; r < np; ++r)
        g[r] = r == me ? v(me, 0, 3) : -1;
    RC(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1, MPI_INT, MPI_COMM_WORLD),
       MPI_SUCCESS);
    for (int r = 0; r < np; ++r)
        CHECK(g[r] == v(r, 0, 3), "allgather in place [%d] = %d", r, g[r]);
    for (int r = 0; r < np; ++r)
        g[r] = v(me, r, 4);
    RC(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1, MPI_INT, MPI_COMM_WORLD),
       MPI_SUCCESS);
    for (int r = 0; r < np; ++r)
        CHECK(g[r] == v(r, me, 4), "alltoall in place [%d] = %d", r, g[r]);
    /* misuse: MPI_IN_PLACE is the root's */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (np > 1)
        RC(me == 0 ? MPI_SUCCESS
                   : MPI_Reduce(MPI_IN_PLACE, &l, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD),
           me == 0 ? MPI_SUCCESS : MPI_ERR_BUFFER);
}

/* every rank sends to rank j a block of (j % 3) + 1 ints (alltoallv) or 2 ints (alltoall) */
static void t_alltoall(void)
{
    int *s = malloc((size_t)np * 2 * sizeof *s), *r = malloc((size_t)np * 2 * sizeof *r);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 2; ++k)
            s[2 * j + k] = v(me, j, k);
    RC(MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 2; ++k)
            CHECK(r[2 * j + k] == v(j, me, k), "alltoall from %d [%d] = %d", j, k, r[2 * j + k]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Alltoall(s, -1, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    RC(MPI_Alltoall(s, 2, MPI_DATATYPE_NULL, r, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TYPE);
    RC(MPI_Alltoall(s, 2, MPI_INT, NULL, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    RC(MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    /* a peer sends more than this rank expects: truncation, and the call still ends everywhere */
    RC(MPI_Alltoall(s, 2, MPI_INT, r, me == 0 ? 1 : 2, MPI_INT, MPI_COMM_WORLD),
       me == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    free(s);
    free(r);
}

static void t_alltoallv(void)
{
    int sc[64], sd[64], rcnt[64], rd[64], s[256], r[256], so = 0, ro = 0;
    for (int j = 0; j < np; ++j) {
        sc[j] = (me + j) % 3 + 1; /* what this rank sends to j */
        sd[j] = so;
        for (int k = 0; k < sc[j]; ++k)
            s[so + k] = v(me, j, k);
        so += sc[j] + 1;            /* a gap: displacements are honoured */
        rcnt[j] = (j + me) % 3 + 1; /* what j sends to this rank */
        rd[j] = ro;
        ro += rcnt[j];
    }
    memset(r, 0xFF, sizeof r);
    RC(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rcnt, rd, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < rcnt[j]; ++k)
            CHECK(r[rd[j] + k] == v(j, me, k), "alltoallv from %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Alltoallv(s, NULL, sd, MPI_INT, r, rcnt, rd, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    sc[0] = -1;
    RC(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rcnt, rd, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
}

static void t_allgatherv(void)
{
    int cnt[64], disp[64], mine[4], all[256], off = 0;
    for (int j = 0; j < np; ++j) {
        cnt[j] = j % 4 + 1;
        disp[j] = off;
        off += cnt[j] + 2;
    }
    for (int k = 0; k < cnt[me]; ++k)
        mine[k] = v(me, 0, k);
    RC(MPI_Allgatherv(mine, cnt[me], MPI_INT, all, cnt, disp, MPI_INT, MPI_COMM_WORLD),
       MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < cnt[j]; ++k)
            CHECK(all[disp[j] + k] == v(j, 0, k), "allgatherv %d [%d]", j, k);
    for (int j = 0; j < np; ++j) /* in place: each rank's block already in its place */
        for (int k = 0; k < cnt[j]; ++k)
            all[disp[j] + k] = j == me ? v(me, 1, k) : 0;
    RC(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all, cnt, disp, MPI_INT, MPI_COMM_WORLD),
       MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < cnt[j]; ++k)
            CHECK(all[disp[j] + k] == v(j, 1, k), "allgatherv in place %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Allgatherv(mine, cnt[me], MPI_INT, all, cnt, NULL, MPI_INT, MPI_COMM_WORLD),
       MPI_ERR_ARG);
    /* this rank sends fewer than everyone expects of it: the others see MPI_ERR_COUNT */
    RC(MPI_Allgatherv(mine, me == 0 ? 0 : cnt[me], MPI_INT, all, cnt, disp, MPI_INT,
                      MPI_COMM_WORLD),
       MPI_ERR_COUNT);
}

static void t_gatherv(void)
{
    int root = np - 1, cnt[64], disp[64], mine[8], all[512], off = 0;
    for (int j = 0; j < np; ++j) {
        cnt[j] = (j * 5) % 7; /* some send nothing */
        disp[j] = off;
        off += cnt[j];
    }
    for (int k = 0; k < cnt[me]; ++k)
        mine[k] = v(me, root, k);
    RC(MPI_Gatherv(mine, cnt[me], MPI_INT, all, cnt, disp, MPI_INT, root, MPI_COMM_WORLD),
       MPI_SUCCESS);
    if (me == root)
        for (int j = 0; j < np; ++j)
            for (int k = 0; k < cnt[j]; ++k)
                CHECK(all[disp[j] + k] == v(j, root, k), "gatherv %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Gatherv(mine, cnt[me], MPI_INT, all, cnt, disp, MPI_INT, np, MPI_COMM_WORLD),
       MPI_ERR_ROOT);
    RC(MPI_Gatherv(NULL, 3, MPI_INT, all, cnt, disp, MPI_INT, root, MPI_COMM_WORLD),
       MPI_ERR_BUFFER);
}

static void t_scatterv(void)
{
    int root = 0, cnt[64], disp[64], src[512], got[8], off = 0;
    for (int j = 0; j < np; ++j) {
        cnt[j] = (j * 3) % 5 + 1;
        disp[j] = off + 1;
        off += cnt[j] + 1;
        for (int k = 0; k < cnt[j]; ++k)
            src[disp[j] + k] = v(root, j, k);
    }
    memset(got, 0, sizeof got);
    RC(MPI_Scatterv(me == root ? src : NULL, cnt, disp, MPI_INT, got, cnt[me], MPI_INT, root,
                    MPI_COMM_WORLD),
       MPI_SUCCESS);
    for (int k = 0; k < cnt[me]; ++k)
        CHECK(got[k] == v(root, me, k), "scatterv [%d] = %d", k, got[k]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Scatterv(src, cnt, disp, MPI_INT, got, -2, MPI_INT, root, MPI_COMM_WORLD),
       MPI_ERR_COUNT);
}

static void t_reduce_scatter(void)
{
    int cnt[64], total = 0, in[512], out[16];
    for (int j = 0; j < np; ++j) {
        cnt[j] = j % 3 + 1;
        total += cnt[j];
    }
    for (int i = 0; i < total; ++i)
        in[i] = me * 7 + i;
    RC(MPI_Reduce_scatter(in, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    int first = 0;
    for (int j = 0; j < me; ++j)
        first += cnt[j];
    for (int k = 0; k < cnt[me]; ++k)
        CHECK(out[k] == 7 * np * (np - 1) / 2 + np * (first + k), "reduce_scatter [%d] = %d", k,
              out[k]);
    float f[64], fo[2];
    for (int i = 0; i < 2 * np; ++i)
        f[i] = (float)(me + i);
    RC(MPI_Reduce_scatter_block(f, fo, 2, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK(fo[0] == (float)(np - 1 + 2 * me) && fo[1] == (float)(np + 2 * me), "block max %f %f",
          (double)fo[0], (double)fo[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Reduce_scatter(in, out, cnt, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    RC(MPI_Reduce_scatter(in, out, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_ARG);
}

/* ------------------------------------------------------------------ non-blocking collectives */

/* Waits with MPI_Test in a loop (the progress the OSU overlap tests rely on). */
static void test_until_done(MPI_Request *r)
{
    int flag = 0;
    for (int n = 0; !flag; ++n) {
        RC(MPI_Test(r, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
        CHECK(n < 1000000, "never completes");
        if (n >= 1000000)
            break;
    }
    CHECK(*r == MPI_REQUEST_NULL, "request freed");
}

static void t_ibarrier(void)
{
    MPI_Request r;
    /* rank 0 arrives late: nobody may leave before it arrives */
    uint64_t t0 = timer_now();
    if (me == 0)
        timer_delay_us(200);
    RC(MPI_Ibarrier(MPI_COMM_WORLD, &r), MPI_SUCCESS);
    RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    CHECK(np == 1 || timer_now() - t0 >= timer_us_to_ticks(200), "left the barrier early");
    /* two at once, completed in the other order, one by MPI_Test */
    MPI_Request a, b;
    RC(MPI_Ibarrier(MPI_COMM_WORLD, &a), MPI_SUCCESS);
    RC(MPI_Ibarrier(MPI_COMM_WORLD, &b), MPI_SUCCESS);
    RC(MPI_Wait(&b, MPI_STATUS_IGNORE), MPI_SUCCESS);
    test_until_done(&a);
    /* a point-to-point wait drives the barrier another rank waits for */
    if (np > 1) {
        int x = 0;
        RC(MPI_Ibarrier(MPI_COMM_WORLD, &a), MPI_SUCCESS);
        if (me == 0) {
            RC(MPI_Wait(&a, MPI_STATUS_IGNORE), MPI_SUCCESS);
            RC(MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD), MPI_SUCCESS);
        } else {
            if (me == 1)
                RC(MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
            RC(MPI_Wait(&a, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    RC(MPI_Ibarrier(MPI_COMM_NULL, &a), MPI_ERR_COMM);
}

static void t_ibcast(void)
{
    double d[300];
    for (int root = 0; root<np; root += np> 2 ? np - 1 : 1) {
        for (int i = 0; i < 300; ++i)
            d[i] = me == root ? root * 1000.0 + i : -1.0;
        MPI_Request r;
        RC(MPI_Ibcast(d, 300, MPI_DOUBLE, root, MPI_COMM_WORLD, &r), MPI_SUCCESS);
        test_until_done(&r);
        for (int i = 0; i < 300; ++i)
            CHECK(d[i] == root * 1000.0 + i, "ibcast root %d [%d]", root, i);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request r;
    RC(MPI_Ibcast(d, 1, MPI_DOUBLE, -3, MPI_COMM_WORLD, &r), MPI_ERR_ROOT);
    RC(MPI_Ibcast(NULL, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER);
}

static void t_igather(void)
{
    int root = np / 2, mine[3], all[192], cnt[64], disp[64];
    for (int k = 0; k < 3; ++k)
        mine[k] = v(me, root, k);
    MPI_Request r;
    RC(MPI_Igather(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    if (me == root)
        for (int j = 0; j < np; ++j)
            for (int k = 0; k < 3; ++k)
                CHECK(all[3 * j + k] == v(j, root, k), "igather %d [%d]", j, k);
    for (int j = 0; j < np; ++j) {
        cnt[j] = j % 3 + 1;
        disp[j] = 3 * (np - 1 - j); /* reversed order */
    }
    RC(MPI_Igatherv(mine, cnt[me], MPI_INT, all, cnt, disp, MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_SUCCESS);
    test_until_done(&r);
    if (me == root)
        for (int j = 0; j < np; ++j)
            for (int k = 0; k < cnt[j]; ++k)
                CHECK(all[disp[j] + k] == v(j, root, k), "igatherv %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Igather(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
}

static void t_iscatter(void)
{
    int root = np - 1, src[192], got[3], cnt[64], disp[64];
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 3; ++k)
            src[3 * j + k] = v(root, j, k);
    MPI_Request r;
    RC(MPI_Iscatter(src, 3, MPI_INT, got, 3, MPI_INT, root, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    for (int k = 0; k < 3; ++k)
        CHECK(got[k] == v(root, me, k), "iscatter [%d]", k);
    for (int j = 0; j < np; ++j) {
        cnt[j] = 3 - j % 3;
        disp[j] = 3 * j;
    }
    memset(got, 0, sizeof got);
    RC(MPI_Iscatterv(src, cnt, disp, MPI_INT, got, cnt[me], MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_SUCCESS);
    test_until_done(&r);
    for (int k = 0; k < cnt[me]; ++k)
        CHECK(got[k] == v(root, me, k), "iscatterv [%d]", k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Iscatterv(src, cnt, disp, MPI_INT, got, -2, MPI_INT, root, MPI_COMM_WORLD, &r),
       MPI_ERR_COUNT);
    RC(MPI_Iscatter(src, 3, MPI_INT, got, 3, MPI_INT, root, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
}

static void t_iallgather(void)
{
    int mine[2] = {v(me, 0, 0), v(me, 0, 1)}, all[128], cnt[64], disp[64];
    MPI_Request r;
    RC(MPI_Iallgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    test_until_done(&r);
    for (int j = 0; j < np; ++j)
        CHECK(all[2 * j] == v(j, 0, 0) && all[2 * j + 1] == v(j, 0, 1), "iallgather %d", j);
    for (int j = 0; j < np; ++j) {
        cnt[j] = 1 + (j & 1);
        disp[j] = 2 * j;
    }
    RC(MPI_Iallgatherv(mine, cnt[me], MPI_INT, all, cnt, disp, MPI_INT, MPI_COMM_WORLD, &r),
       MPI_SUCCESS);
    RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < cnt[j]; ++k)
            CHECK(all[disp[j] + k] == v(j, 0, k), "iallgatherv %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Iallgather(mine, 2, MPI_INT, all, 2, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &r),
       MPI_ERR_TYPE);
}

static void t_ialltoall(void)
{
    int s[128], rr[128], sc[64], sd[64], rc_[64], rd[64];
    MPI_Datatype st[64], rt[64];
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 2; ++k)
            s[2 * j + k] = v(me, j, k);
    MPI_Request r;
    RC(MPI_Ialltoall(s, 2, MPI_INT, rr, 2, MPI_INT, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    test_until_done(&r);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 2; ++k)
            CHECK(rr[2 * j + k] == v(j, me, k), "ialltoall %d [%d]", j, k);
    for (int j = 0; j < np; ++j) {
        sc[j] = 1 + (me + j) % 2;
        sd[j] = 2 * j;
        rc_[j] = 1 + (j + me) % 2;
        rd[j] = 2 * (np - 1 - j);
    }
    memset(rr, 0, sizeof rr);
    RC(MPI_Ialltoallv(s, sc, sd, MPI_INT, rr, rc_, rd, MPI_INT, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    RC(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < rc_[j]; ++k)
            CHECK(rr[rd[j] + k] == v(j, me, k), "ialltoallv %d [%d]", j, k);
    /* alltoallw: byte displacements, the same data as ints or as bytes */
    for (int j = 0; j < np; ++j) {
        sc[j] = 2;
        sd[j] = 8 * j;
        st[j] = MPI_INT;
        rc_[j] = 8;
        rd[j] = 8 * j;
        rt[j] = MPI_BYTE;
    }
    memset(rr, 0, sizeof rr);
    RC(MPI_Ialltoallw(s, sc, sd, st, rr, rc_, rd, rt, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    test_until_done(&r);
    for (int j = 0; j < np; ++j)
        for (int k = 0; k < 2; ++k)
            CHECK(rr[2 * j + k] == v(j, me, k), "ialltoallw %d [%d]", j, k);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rt[0] = MPI_DATATYPE_NULL;
    RC(MPI_Ialltoallw(s, sc, sd, st, rr, rc_, rd, rt, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
}

/* ------------------------------------------------------------------ groups */

static void t_groups(void)
{
    MPI_Group w, odd, rest;
    int n, rank, res;
    RC(MPI_Comm_group(MPI_COMM_WORLD, &w), MPI_SUCCESS);
    RC(MPI_Group_size(w, &n), MPI_SUCCESS);
    RC(MPI_Group_rank(w, &rank), MPI_SUCCESS);
    CHECK(n == np && rank == me, "world group %d %d", n, rank);
    int ranks[64], k = 0;
    for (int i = np - 1; i >= 0; --i)
        if (i & 1)
            ranks[k++] = i; /* odd ranks, descending */
    RC(MPI_Group_incl(w, k, ranks, &odd), MPI_SUCCESS);
    RC(MPI_Group_size(odd, &n), MPI_SUCCESS);
    RC(MPI_Group_rank(odd, &rank), MPI_SUCCESS);
    CHECK(n == k, "odd size");
    CHECK((me & 1) ? rank >= 0 && rank < k && ranks[rank] == me : rank == MPI_UNDEFINED,
          "odd rank %d", rank);
    RC(MPI_Group_excl(w, k, ranks, &rest), MPI_SUCCESS);
    RC(MPI_Group_size(rest, &n), MPI_SUCCESS);
    CHECK(n == np - k, "rest size");
    int t[64];
    RC(MPI_Group_translate_ranks(odd, k, (int[]){0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
                                 w, t),
       MPI_SUCCESS);
    for (int i = 0; i < k; ++i)
        CHECK(t[i] == ranks[i], "translate %d -> %d", i, t[i]);
    RC(MPI_Group_compare(w, w, &res), MPI_SUCCESS);
    CHECK(res == MPI_IDENT, "ident");
    RC(MPI_Group_compare(w, odd, &res), MPI_SUCCESS);
    CHECK(res == (k == np ? MPI_SIMILAR : MPI_UNEQUAL), "unequal");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group bad;
    RC(MPI_Group_incl(w, 1, (int[]){np}, &bad), MPI_ERR_RANK);
    RC(MPI_Group_incl(w, 2, (int[]){0, 0}, &bad), MPI_ERR_RANK);
    RC(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    RC(MPI_Group_free(&odd), MPI_SUCCESS);
    CHECK(odd == MPI_GROUP_NULL, "freed");
    RC(MPI_Group_free(&odd), MPI_ERR_GROUP);
    RC(MPI_Group_free(&rest), MPI_SUCCESS);
    RC(MPI_Group_free(&w), MPI_SUCCESS);
}

/* ------------------------------------------------------------------ one-sided */

#define WN 1024 /* ints per window: the DMA and message pieces beyond 4 KiB */

/* Put and Get with fence on every flavour of window; each rank writes its block into its right
 * neighbour and reads its left neighbour's. */
static void t_win_fence(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int *mem = calloc(2 * WN, sizeof *mem), *src = malloc(WN * sizeof *src),
        *dst = malloc(WN * sizeof *dst);
    for (int i = 0; i < WN; ++i)
        src[i] = v(me, right, i);
    for (int flavor = 0; flavor < 3; ++flavor) {
        MPI_Win w;
        int *base = mem;
        MPI_Aint disp0 = 0, rdisp = 0;
        if (flavor == 0) {
            RC(MPI_Win_create(mem, 2 * WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &w),
               MPI_SUCCESS);
        } else if (flavor == 1) {
            RC(MPI_Win_allocate(2 * WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                &base, &w),
               MPI_SUCCESS);
            memset(base, 0, 2 * WN * sizeof(int));
        } else {
            RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_SUCCESS);
            RC(MPI_Win_attach(w, mem, 2 * WN * sizeof(int)), MPI_SUCCESS);
            MPI_Get_address(mem, &disp0);
            /* the right neighbour's address: a ring exchange */
            RC(MPI_Sendrecv(&disp0, 1, MPI_AINT, left, 77, &rdisp, 1, MPI_AINT, right, 77,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_SUCCESS);
        }
        memset(base, 0, 2 * WN * sizeof(int));
        RC(MPI_Win_fence(0, w), MPI_SUCCESS);
        if (flavor < 2)
            RC(MPI_Put(src, WN, MPI_INT, right, WN, WN, MPI_INT, w), MPI_SUCCESS);
        else
            RC(MPI_Put(src, WN * 4, MPI_BYTE, right, rdisp + WN * 4, WN * 4, MPI_BYTE, w),
               MPI_SUCCESS);
        RC(MPI_Win_fence(0, w), MPI_SUCCESS);
        for (int i = 0; i < WN; i += 97)
            CHECK(base[WN + i] == v(left, me, i), "flavor %d put [%d] = %d", flavor, i,
                  base[WN + i]);
        CHECK(base[2 * WN - 1] == v(left, me, WN - 1) && base[WN - 1] == 0, "flavor %d bounds",
              flavor);
        for (int i = 0; i < WN; ++i)
            base[i] = v(me, 99, i);
        RC(MPI_Win_fence(0, w), MPI_SUCCESS);
        memset(dst, 0, WN * sizeof *dst);
        MPI_Aint ldisp = 0;
        if (flavor == 2) {
            RC(MPI_Sendrecv(&disp0, 1, MPI_AINT, right, 78, &ldisp, 1, MPI_AINT, left, 78,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_SUCCESS);
            RC(MPI_Get(dst, WN * 4, MPI_BYTE, left, ldisp, WN * 4, MPI_BYTE, w), MPI_SUCCESS);
        } else {
            RC(MPI_Get(dst, WN, MPI_INT, left, 0, WN, MPI_INT, w), MPI_SUCCESS);
        }
        RC(MPI_Win_fence(0, w), MPI_SUCCESS);
        for (int i = 0; i < WN; i += 89)
            CHECK(dst[i] == v(left, 99, i), "flavor %d get [%d] = %d", flavor, i, dst[i]);
        CHECK(dst[WN - 1] == v(left, 99, WN - 1), "flavor %d get last", flavor);
        if (flavor == 0) { /* misuse */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            RC(MPI_Put(src, WN, MPI_INT, right, 2 * WN, 1, MPI_INT, w), MPI_ERR_ARG);
            RC(MPI_Put(src, 1, MPI_INT, right, 2 * WN, 1, MPI_INT, w), MPI_ERR_RMA_RANGE);
            RC(MPI_Put(src, 1, MPI_INT, np, 0, 1, MPI_INT, w), MPI_ERR_RANK);
            RC(MPI_Put(src, 1, MPI_INT, right, -1, 1, MPI_INT, w), MPI_ERR_DISP);
            RC(MPI_Get(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, w), MPI_ERR_BUFFER);
            RC(MPI_Put(src, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, w), MPI_SUCCESS);
            RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, w), MPI_SUCCESS);
            RC(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC);
            RC(MPI_Win_unlock(right, w), MPI_ERR_RMA_SYNC);
            RC(MPI_Win_complete(w), MPI_ERR_RMA_SYNC);
            RC(MPI_Win_attach(w, mem, 4), MPI_ERR_WIN);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
        if (flavor == 2)
            RC(MPI_Win_detach(w, mem), MPI_SUCCESS);
        RC(MPI_Win_free(&w), MPI_SUCCESS);
        CHECK(w == MPI_WIN_NULL, "freed");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Win w;
    RC(MPI_Win_create(mem, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_SIZE);
    RC(MPI_Win_free(NULL), MPI_ERR_WIN);
    free(mem);
    free(src);
    free(dst);
}

/* Lock/unlock: every rank adds into rank 0's counters under an exclusive lock (read, modify,
 * write with Get and Put: only exclusion makes the sum right), and reads with shared locks. */
static void t_win_lock(void)
{
    int *mem = calloc(16, sizeof *mem);
    MPI_Win w;
    RC(MPI_Win_create(mem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    for (int round = 0; round < 3; ++round) {
        int x[4];
        RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w), MPI_SUCCESS);
        RC(MPI_Get(x, 4, MPI_INT, 0, 0, 4, MPI_INT, w), MPI_SUCCESS);
        RC(MPI_Win_flush(0, w), MPI_SUCCESS);
        for (int i = 0; i < 4; ++i)
            x[i] += me + 1 + i;
        RC(MPI_Put(x, 4, MPI_INT, 0, 0, 4, MPI_INT, w), MPI_SUCCESS);
        RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    }
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    int got[4];
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Get(got, 4, MPI_INT, 0, 0, 4, MPI_INT, w), MPI_SUCCESS);
    RC(MPI_Win_flush_local(0, w), MPI_SUCCESS);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    for (int i = 0; i < 4; ++i)
        CHECK(got[i] == 3 * (np * (np + 1) / 2 + np * i), "exclusive sum [%d] = %d", i, got[i]);
    /* lock_all: each rank writes its slot at every rank, flush_all, then all read theirs */
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    RC(MPI_Win_lock_all(0, w), MPI_SUCCESS);
    int mine = v(me, 0, 7);
    for (int t = 0; t < np && me < 16 - 4; ++t)
        RC(MPI_Put(&mine, 1, MPI_INT, t, 4 + me, 1, MPI_INT, w), MPI_SUCCESS);
    RC(MPI_Win_flush_all(w), MPI_SUCCESS);
    RC(MPI_Win_unlock_all(w), MPI_SUCCESS);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    for (int r = 0; r < np && r < 12; ++r)
        CHECK(mem[4 + r] == v(r, 0, 7), "lock_all put from %d", r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Win_lock(99, 0, 0, w), MPI_ERR_LOCKTYPE);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, np, 0, w), MPI_ERR_RANK);
    RC(MPI_Win_flush(0, w), MPI_ERR_RMA_SYNC);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_ERR_RMA_SYNC);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    RC(MPI_Win_unlock_all(w), MPI_ERR_RMA_SYNC);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(mem);
}

/* Post/start/complete/wait: even ranks expose, odd ranks access (OSU's put_bibw pairs both). */
static void t_win_pscw(void)
{
    int *mem = calloc(8, sizeof *mem);
    MPI_Win w;
    MPI_Group world, peer;
    RC(MPI_Win_create(mem, 8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int partner = me ^ 1;
    if (partner < np) {
        MPI_Group_incl(world, 1, &partner, &peer);
        for (int round = 0; round < 4; ++round) {
            RC(MPI_Win_post(peer, 0, w), MPI_SUCCESS);
            RC(MPI_Win_start(peer, 0, w), MPI_SUCCESS);
            int x = v(me, partner, round);
            RC(MPI_Put(&x, 1, MPI_INT, partner, round, 1, MPI_INT, w), MPI_SUCCESS);
            RC(MPI_Win_complete(w), MPI_SUCCESS);
            RC(MPI_Win_wait(w), MPI_SUCCESS);
            CHECK(mem[round] == v(partner, me, round), "pscw round %d = %d", round, mem[round]);
        }
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        RC(MPI_Win_wait(w), MPI_ERR_RMA_SYNC);
        RC(MPI_Win_post(MPI_GROUP_NULL, 0, w), MPI_ERR_GROUP);
        int x = 0;
        RC(MPI_Put(&x, 1, MPI_INT, partner, 0, 1, MPI_INT, w), MPI_ERR_RMA_SYNC); /* no epoch */
        MPI_Group_free(&peer);
    }
    MPI_Group_free(&world);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(mem);
}

static void t_accumulate(void)
{
    long long *mem = calloc(WN, sizeof *mem), *src = malloc(WN * sizeof *src);
    int *im = calloc(4, sizeof *im);
    MPI_Win w, wi;
    RC(MPI_Win_create(mem, WN * sizeof *mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    RC(MPI_Win_create(im, 4 * sizeof *im, sizeof *im, MPI_INFO_NULL, MPI_COMM_WORLD, &wi),
       MPI_SUCCESS);
    for (int i = 0; i < WN; ++i)
        src[i] = (long long)(me + 1) * (i + 1);
    /* everyone adds into rank 0 at once: accumulates are atomic per element (8 KiB: pieces) */
    RC(MPI_Win_fence(0, w), MPI_SUCCESS);
    RC(MPI_Accumulate(src, WN, MPI_LONG_LONG, 0, 0, WN, MPI_LONG_LONG, MPI_SUM, w), MPI_SUCCESS);
    RC(MPI_Win_fence(0, w), MPI_SUCCESS);
    if (me == 0)
        for (int i = 0; i < WN; i += 61)
            CHECK(mem[i] == (long long)np * (np + 1) / 2 * (i + 1), "acc sum [%d] = %lld", i,
                  mem[i]);
    /* MPI_MAX and MPI_REPLACE under a lock; MPI_LONG */
    RC(MPI_Win_fence(0, wi), MPI_SUCCESS);
    RC(MPI_Win_fence(0, wi), MPI_SUCCESS);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, np - 1, 0, wi), MPI_SUCCESS);
    int val = me * 3;
    RC(MPI_Accumulate(&val, 1, MPI_INT, np - 1, 0, 1, MPI_INT, MPI_MAX, wi), MPI_SUCCESS);
    long lv = me == 0 ? 42 : 0;
    if (me == 0)
        RC(MPI_Accumulate(&lv, 1, MPI_LONG, np - 1, 1, 1, MPI_LONG, MPI_REPLACE, wi), MPI_SUCCESS);
    RC(MPI_Win_unlock(np - 1, wi), MPI_SUCCESS);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    if (me == np - 1)
        CHECK(im[0] == 3 * (np - 1) && im[1] == 42, "max %d replace %d", im[0], im[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, wi), MPI_SUCCESS);
    RC(MPI_Accumulate(&val, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, wi), MPI_ERR_OP);
    RC(MPI_Accumulate(&val, 1, MPI_INT, 0, 0, 4, MPI_BYTE, MPI_SUM, wi), MPI_ERR_TYPE);
    RC(MPI_Accumulate(&val, 1, MPI_FLOAT, 0, 0, 1, MPI_FLOAT, MPI_BAND, wi), MPI_ERR_OP);
    RC(MPI_Win_unlock(0, wi), MPI_SUCCESS);
    RC(MPI_Win_free(&wi), MPI_SUCCESS);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(mem);
    free(src);
    free(im);
}

/* Fetch-and-op as a ticket counter: every rank takes 5 tickets; all tickets differ. */
static void t_fetch_and_op(void)
{
    long long *ctr = calloc(1, sizeof *ctr), one = 1, got[5], all[320];
    MPI_Win w;
    RC(MPI_Win_create(ctr, sizeof *ctr, sizeof *ctr, MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    RC(MPI_Win_lock_all(0, w), MPI_SUCCESS);
    for (int i = 0; i < 5; ++i) {
        RC(MPI_Fetch_and_op(&one, &got[i], MPI_LONG_LONG, 0, 0, MPI_SUM, w), MPI_SUCCESS);
        RC(MPI_Win_flush(0, w), MPI_SUCCESS);
    }
    long long now;
    RC(MPI_Fetch_and_op(NULL, &now, MPI_LONG_LONG, 0, 0, MPI_NO_OP, w), MPI_SUCCESS);
    RC(MPI_Win_unlock_all(w), MPI_SUCCESS);
    CHECK(now >= 5 && now <= 5LL * np, "no-op fetch %lld", now);
    RC(MPI_Allgather(got, 5, MPI_LONG_LONG, all, 5, MPI_LONG_LONG, MPI_COMM_WORLD), MPI_SUCCESS);
    uint8_t seen[320] = {0};
    for (int i = 0; i < 5 * np; ++i) {
        CHECK(all[i] >= 0 && all[i] < 5 * np && !seen[all[i]], "ticket %lld twice or out of range",
              all[i]);
        if (all[i] >= 0 && all[i] < 5 * np)
            seen[all[i]] = 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Fetch_and_op(&one, NULL, MPI_LONG_LONG, 0, 0, MPI_SUM, w), MPI_ERR_RMA_SYNC);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(ctr);
}

/* Compare-and-swap as a lock word: each rank spins until it swaps its id in, then releases. No
 * back-off: the holder must leave its progress loop while the others flood it (docs/mpi.md). */
static void t_compare_and_swap(void)
{
    int *word = calloc(2, sizeof *word);
    MPI_Win w;
    RC(MPI_Win_create(word, 2 * sizeof *word, sizeof *word, MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    RC(MPI_Win_lock_all(0, w), MPI_SUCCESS);
    int free_ = 0, mine = me + 1, old = -1, tries = 0;
    do {
        RC(MPI_Compare_and_swap(&mine, &free_, &old, MPI_INT, 0, 0, w), MPI_SUCCESS);
        RC(MPI_Win_flush(0, w), MPI_SUCCESS);
        ++tries;
    } while (old != 0 && tries < 100000);
    CHECK(old == 0, "never got the lock word");
    /* inside: count, then give the word back */
    int one = 1, cnt;
    RC(MPI_Fetch_and_op(&one, &cnt, MPI_INT, 0, 1, MPI_SUM, w), MPI_SUCCESS);
    RC(MPI_Compare_and_swap(&free_, &mine, &old, MPI_INT, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Win_flush(0, w), MPI_SUCCESS);
    CHECK(old == mine, "the lock word was taken from us (%d)", old);
    RC(MPI_Win_unlock_all(w), MPI_SUCCESS);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    if (me == 0)
        CHECK(word[0] == 0 && word[1] == np, "word %d count %d", word[0], word[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_SUCCESS);
    float f = 1;
    RC(MPI_Compare_and_swap(&f, &f, &f, MPI_FLOAT, 0, 0, w), MPI_ERR_TYPE);
    RC(MPI_Compare_and_swap(&mine, NULL, &old, MPI_INT, 0, 0, w), MPI_ERR_BUFFER);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(word);
}

/* A flood does not hold a waiting call: the other ranks put FLOOD accumulates each into rank 0's
 * window without waiting, while rank 0 lets a backlog build up and then waits for one local
 * operation. Its flush must come back while the flood still runs (its progress takes a bounded
 * number of passes, docs/mpi.md "Progress"), not after the last accumulate was served. */
#define FLOOD 400
static void t_flood_progress(void)
{
    int *word = calloc(2, sizeof *word);
    MPI_Win w;
    RC(MPI_Win_create(word, 2 * sizeof *word, sizeof *word, MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    RC(MPI_Win_lock_all(0, w), MPI_SUCCESS);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS); /* every lock granted: the flood starts now */
    int one = 1, seen = -1;
    if (me == 0) {
        /* no MPI call for 100 us: the first accumulates queue up here */
        for (double until = MPI_Wtime() + 1000e-6; MPI_Wtime() < until;)
            ;
        RC(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
        RC(MPI_Win_flush(0, w), MPI_SUCCESS);
        seen = ((volatile int *)word)[1];
    } else {
        for (int i = 0; i < FLOOD; ++i)
            RC(MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
        RC(MPI_Win_flush(0, w), MPI_SUCCESS);
    }
    RC(MPI_Win_unlock_all(w), MPI_SUCCESS);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    if (me == 0) {
        int total = FLOOD * (np - 1);
        CHECK(word[0] == 1 && word[1] == total, "words %d %d, want 1 %d", word[0], word[1], total);
        CHECK(seen >= 0 && seen < total / 2, "the flush came back after %d of %d accumulates", seen,
              total);
        printf("flood_progress: flush back after %d of %d accumulates\n", seen, total);
    }
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(word);
}

static void t_get_accumulate(void)
{
    int *mem = calloc(WN, sizeof *mem), *src = malloc(WN * sizeof *src),
        *res = malloc(WN * sizeof *res);
    MPI_Win w;
    RC(MPI_Win_create(mem, WN * sizeof *mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &w),
       MPI_SUCCESS);
    for (int i = 0; i < WN; ++i) {
        src[i] = me + 1;
        mem[i] = 0;
    }
    /* in rank order (a token), each rank adds and gets the sum before its addition */
    int token = 0;
    if (me > 0)
        RC(MPI_Recv(&token, 1, MPI_INT, me - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
    RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Get_accumulate(src, WN, MPI_INT, res, WN, MPI_INT, 0, 0, WN, MPI_INT, MPI_SUM, w),
       MPI_SUCCESS);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    if (me + 1 < np)
        RC(MPI_Send(&token, 1, MPI_INT, me + 1, 9, MPI_COMM_WORLD), MPI_SUCCESS);
    for (int i = 0; i < WN; i += 53)
        CHECK(res[i] == me * (me + 1) / 2, "get_accumulate [%d] = %d", i, res[i]);
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Get_accumulate(NULL, 0, MPI_INT, res, WN, MPI_INT, 0, 0, WN, MPI_INT, MPI_NO_OP, w),
       MPI_SUCCESS);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    CHECK(res[WN - 1] == np * (np + 1) / 2, "no-op fetch %d", res[WN - 1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w), MPI_SUCCESS);
    RC(MPI_Get_accumulate(src, 2, MPI_INT, res, 1, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, w),
       MPI_ERR_ARG);
    RC(MPI_Get_accumulate(src, 2, MPI_INT, NULL, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, w),
       MPI_ERR_BUFFER);
    RC(MPI_Win_unlock(0, w), MPI_SUCCESS);
    RC(MPI_Win_free(&w), MPI_SUCCESS);
    free(mem);
    free(src);
    free(res);
}

/* ------------------------------------------------------------------ the rest */

static void t_misc(void)
{
    int provided = -1;
    RC(MPI_Query_thread(&provided), MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE, "query_thread %d", provided);
    int x;
    MPI_Aint a;
    RC(MPI_Get_address(&x, &a), MPI_SUCCESS);
    CHECK(a == (MPI_Aint)(uintptr_t)&x, "get_address");
    int size;
    RC(MPI_Type_size(MPI_LONG, &size), MPI_SUCCESS);
    CHECK(size == 4, "MPI_LONG size %d", size);
    RC(MPI_Type_size(MPI_AINT, &size), MPI_SUCCESS);
    CHECK(size == sizeof(MPI_Aint), "MPI_AINT size %d", size);
    long l = me + 1000000, lsum = 0;
    unsigned long ul = 3, ulmin = 0;
    RC(MPI_Allreduce(&l, &lsum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK(lsum == 1000000L * np + np * (np - 1) / 2, "MPI_LONG sum %ld", lsum);
    RC(MPI_Allreduce(&ul, &ulmin, 1, MPI_UNSIGNED_LONG, MPI_BAND, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK(ulmin == 3, "MPI_UNSIGNED_LONG band");
    /* the POSIX calls of the runtime (sw/runtime/posix.c) */
    CHECK(sysconf(_SC_PAGESIZE) == 4096 && getpagesize() == 4096, "page size");
    CHECK(sysconf(_SC_NPROCESSORS_ONLN) == (long)tile_num_cores(), "processors");
    errno = 0;
    CHECK(sysconf(-5) == -1 && errno == EINVAL, "unknown sysconf");
    void *p = NULL;
    CHECK(posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), 100) == 0 && ((uintptr_t)p & 4095) == 0,
          "aligned");
    free(p);
    struct timespec t0, t1;
    CHECK(clock_gettime(CLOCK_REALTIME, &t0) == 0, "clock_gettime");
    timer_delay_us(1500);
    CHECK(clock_gettime(CLOCK_REALTIME, &t1) == 0, "clock_gettime");
    long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    CHECK(ns >= 1500000 && ns < 1700000, "1.5 ms slept: %lld ns", ns);
    struct timeval tv;
    CHECK(gettimeofday(&tv, NULL) == 0 && tv.tv_sec == t1.tv_sec, "gettimeofday");
    CHECK(clock_gettime((clockid_t)77, &t0) == -1 && errno == EINVAL, "bad clock");
    CHECK(getpid() == (pid_t)(me + 1), "getpid %d", (int)getpid());
    CHECK(kill(getpid() + 1000, 0) == -1, "kill another process");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    RC(MPI_Get_address(&x, NULL), MPI_ERR_ARG);
}

/* ------------------------------------------------------------------ threads */
/* MPI_THREAD_MULTIPLE with the runtime's threads: two threads per rank exchange around the ring
 * at once (each its own tag), and a thread blocked in MPI_Recv for a message that only another
 * thread of its own rank sends must let that thread run (it would wait for ever otherwise). */
struct thr {
    int k, got, self_got;
};
static _Thread_local pthread_mutex_t thr_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int thr_done;

static void *ring_thread(void *arg)
{
    struct thr *t = arg;
    int right = (me + 1) % np, left = (me + np - 1) % np, out = v(me, right, t->k);
    MPI_Request rq;
    MPI_Irecv(&t->got, 1, MPI_INT, left, 80 + t->k, MPI_COMM_WORLD, &rq);
    MPI_Send(&out, 1, MPI_INT, right, 80 + t->k, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (t->k == 0) /* blocks until thread 1 sends it, below */
        MPI_Recv(&t->self_got, 1, MPI_INT, me, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else {
        int x = v(me, me, 9);
        MPI_Send(&x, 1, MPI_INT, me, 90, MPI_COMM_WORLD);
    }
    pthread_mutex_lock(&thr_lock);
    ++thr_done;
    pthread_mutex_unlock(&thr_lock);
    return NULL;
}

static void t_threads(void)
{
    int provided = -1;
    RC(MPI_Query_thread(&provided), MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE, "query_thread %d", provided);
    struct thr t[2] = {{.k = 0, .got = -1, .self_got = -1}, {.k = 1, .got = -1, .self_got = -1}};
    pthread_t id[2];
    for (int k = 0; k < 2; ++k)
        CHECK(pthread_create(&id[k], NULL, ring_thread, &t[k]) == 0, "pthread_create %d", k);
    for (int k = 0; k < 2; ++k)
        CHECK(pthread_join(id[k], NULL) == 0, "pthread_join %d", k);
    int left = (me + np - 1) % np;
    for (int k = 0; k < 2; ++k)
        CHECK(t[k].got == v(left, me, k), "thread %d got %d from the left", k, t[k].got);
    CHECK(t[0].self_got == v(me, me, 9), "thread 0 got %d from thread 1", t[0].self_got);
    CHECK(thr_done == 2, "both threads ended");
    RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
}

struct test {
    const char *name;
    void (*fn)(void);
};
static const struct test tests[] = {
    {"in_place", t_in_place},
    {"alltoall", t_alltoall},
    {"alltoallv", t_alltoallv},
    {"allgatherv", t_allgatherv},
    {"gatherv", t_gatherv},
    {"scatterv", t_scatterv},
    {"reduce_scatter", t_reduce_scatter},
    {"ibarrier", t_ibarrier},
    {"ibcast", t_ibcast},
    {"igather", t_igather},
    {"iscatter", t_iscatter},
    {"iallgather", t_iallgather},
    {"ialltoall", t_ialltoall},
    {"groups", t_groups},
    {"win_fence", t_win_fence},
    {"win_lock", t_win_lock},
    {"win_pscw", t_win_pscw},
    {"accumulate", t_accumulate},
    {"get_accumulate", t_get_accumulate},
    {"fetch_and_op", t_fetch_and_op},
    {"compare_and_swap", t_compare_and_swap},
    {"misc", t_misc},
    {"threads", t_threads},
    {"flood_progress", t_flood_progress},
};

/* "all", one name, or names separated by commas */
static int listed(const char *what, const char *name)
{
    if (!strcmp(what, "all"))
        return 1;
    size_t n = strlen(name);
    for (const char *p = what; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int provided = -1;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
        printf("mpi_ext FAIL: MPI_Init_thread\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    const char *what = argc > 1 ? argv[1] : "";
    int ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; ++i)
        if (listed(what, tests[i].name)) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            sim_mark((uint32_t)(i + 1)); /* --stats: which test a hung run was in */
            tests[i].fn();
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            RC(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
            ++ran;
        }
    if (!ran)
        printf("mpi_ext FAIL: no test '%s'\n", what);
    MPI_Finalize();
    if (me == 0 || fails)
        printf("mpi_ext %s: rank %d, %s, %d checks, %d failed\n", fails || !ran ? "FAIL" : "ok", me,
               what, checks, fails);
    if (me == 0)
        MPIX_Print_stats();
    return fails || !ran;
}
