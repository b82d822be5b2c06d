/* Point-to-point: a ring exchange at sizes around the eager threshold (eager and rendezvous),
 * Isend/Irecv/Waitall, Test, Sendrecv, Probe/Iprobe/Get_count, self messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "check.h"

static uint8_t pat(int from, int i, int salt) { return (uint8_t)(from * 31 + i * 7 + salt); }

static int check_pat(const uint8_t *b, int n, int from, int salt)
{
    for (int i = 0; i < n; ++i)
        if (b[i] != pat(from, i, salt))
            return i;
    return -1;
}

void test_p2p(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int thr = MPIX_Get_eager_threshold();
    const int sizes[] = {0, 1, 4, 100, thr, thr + 1, 4096, 9000};
    uint8_t *sb = malloc(9000), *rb = malloc(9001);
    int right = (my_rank + 1) % size, left = (my_rank - 1 + size) % size;
    MPI_Status st;
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int n = sizes[k];
        for (int i = 0; i < n; ++i)
            sb[i] = pat(my_rank, i, (int)k);
        memset(rb, 0xEE, 9001);
        /* blocking ring (odd/even order avoids the rendezvous send/send deadlock) */
        if (my_rank % 2 == 0) {
            CHECK_RC(MPI_Send(sb, n, MPI_BYTE, right, 100 + (int)k, MPI_COMM_WORLD), MPI_SUCCESS);
            CHECK_RC(MPI_Recv(rb, 9000, MPI_BYTE, left, 100 + (int)k, MPI_COMM_WORLD, &st),
                     MPI_SUCCESS);
        } else {
            CHECK_RC(MPI_Recv(rb, 9000, MPI_BYTE, left, 100 + (int)k, MPI_COMM_WORLD, &st),
                     MPI_SUCCESS);
            CHECK_RC(MPI_Send(sb, n, MPI_BYTE, right, 100 + (int)k, MPI_COMM_WORLD), MPI_SUCCESS);
        }
        int cnt = -1;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == n && st.MPI_SOURCE == left && st.MPI_TAG == 100 + (int)k,
              "ring %d B: count %d src %d", n, cnt, st.MPI_SOURCE);
        CHECK(check_pat(rb, n, left, (int)k) < 0 && rb[n] == 0xEE, "ring %d B data", n);
        /* non-blocking, both directions at once */
        MPI_Request rq[4];
        memset(rb, 0, 9000);
        uint8_t *rb2 = malloc(9000);
        CHECK_RC(MPI_Irecv(rb, n, MPI_BYTE, left, 7, MPI_COMM_WORLD, &rq[0]), MPI_SUCCESS);
        CHECK_RC(MPI_Irecv(rb2, n, MPI_BYTE, right, 8, MPI_COMM_WORLD, &rq[1]), MPI_SUCCESS);
        CHECK_RC(MPI_Isend(sb, n, MPI_BYTE, right, 7, MPI_COMM_WORLD, &rq[2]), MPI_SUCCESS);
        CHECK_RC(MPI_Isend(sb, n, MPI_BYTE, left, 8, MPI_COMM_WORLD, &rq[3]), MPI_SUCCESS);
        MPI_Status sts[4];
        CHECK_RC(MPI_Waitall(4, rq, sts), MPI_SUCCESS);
        CHECK(rq[0] == MPI_REQUEST_NULL && rq[3] == MPI_REQUEST_NULL, "Waitall frees");
        CHECK(check_pat(rb, n, left, (int)k) < 0 && check_pat(rb2, n, right, (int)k) < 0,
              "isend/irecv %d B data", n);
        CHECK(sts[1].MPI_SOURCE == right && sts[1].MPI_TAG == 8, "waitall status");
        /* Sendrecv (the CG transpose pattern) */
        memset(rb2, 0, 9000);
        CHECK_RC(
            MPI_Sendrecv(sb, n, MPI_BYTE, right, 9, rb2, n, MPI_BYTE, left, 9, MPI_COMM_WORLD, &st),
            MPI_SUCCESS);
        CHECK(check_pat(rb2, n, left, (int)k) < 0 && st.MPI_SOURCE == left, "sendrecv %d B", n);
        /* self: eager completes at once; rendezvous is held until the receive takes it */
        MPI_Request sr;
        memset(rb2, 0, 9000);
        CHECK_RC(MPI_Isend(sb, n, MPI_BYTE, my_rank, 10, MPI_COMM_WORLD, &sr), MPI_SUCCESS);
        CHECK_RC(MPI_Recv(rb2, n, MPI_BYTE, my_rank, 10, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        CHECK_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE), MPI_SUCCESS);
        CHECK(check_pat(rb2, n, my_rank, (int)k) < 0, "self %d B", n);
        free(rb2);
    }
    /* Test: polls until the message from the left has come */
    MPI_Request rq;
    int v = -1, flag = 0, polls = 0, one = my_rank;
    MPI_Irecv(&v, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &rq);
    MPI_Send(&one, 1, MPI_INT, right, 20, MPI_COMM_WORLD);
    while (!flag && polls < 1000000) {
        CHECK_RC(MPI_Test(&rq, &flag, &st), MPI_SUCCESS);
        ++polls;
    }
    CHECK(flag && v == left && rq == MPI_REQUEST_NULL, "Test: flag %d v %d", flag, v);
    /* Probe / Iprobe: the size is known before the receive */
    int n = 300 + my_rank;
    for (int i = 0; i < n; ++i)
        sb[i] = pat(my_rank, i, 77);
    MPI_Isend(sb, n, MPI_BYTE, right, 21, MPI_COMM_WORLD, &rq);
    CHECK_RC(MPI_Probe(left, 21, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    int cnt = 0;
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == 300 + left && st.MPI_SOURCE == left && st.MPI_TAG == 21, "probe count %d", cnt);
    MPI_Get_count(&st, MPI_INT, &v);
    CHECK(v == ((300 + left) % 4 ? MPI_UNDEFINED : (300 + left) / 4), "get_count int %d", v);
    flag = 0;
    CHECK_RC(MPI_Iprobe(left, 21, MPI_COMM_WORLD, &flag, &st), MPI_SUCCESS);
    CHECK(flag == 1, "iprobe finds it");
    CHECK_RC(MPI_Iprobe(left, 22, MPI_COMM_WORLD, &flag, &st), MPI_SUCCESS);
    CHECK(flag == 0, "iprobe: nothing with tag 22");
    CHECK_RC(MPI_Recv(rb, cnt, MPI_BYTE, left, 21, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    CHECK(check_pat(rb, cnt, left, 77) < 0, "probed message data");
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    free(sb);
    free(rb);
    MPI_Barrier(MPI_COMM_WORLD);
}
