/* Wildcard matching and the non-overtaking rule (MPI-3 3.5). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "check.h"

#define N_ORDER 24

void test_wildcards_order(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Status st;
    /* every other rank sends one message with tag = its rank to rank 0, which takes them with
     * MPI_ANY_SOURCE / MPI_ANY_TAG: each exactly once, status names the sender */
    if (my_rank == 0) {
        uint32_t seen = 0;
        for (int i = 1; i < size; ++i) {
            int v = -1;
            CHECK_RC(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st),
                     MPI_SUCCESS);
            CHECK(v == st.MPI_SOURCE * 10 && st.MPI_TAG == st.MPI_SOURCE &&
                      !(seen & (1u << v / 10)),
                  "any/any: v %d src %d tag %d", v, st.MPI_SOURCE, st.MPI_TAG);
            seen |= 1u << (v / 10);
        }
    } else {
        int v = my_rank * 10;
        MPI_Send(&v, 1, MPI_INT, 0, my_rank, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (size < 2 || my_rank > 1)
        return;
    /* non-overtaking: rank 1 sends N_ORDER messages, eager and rendezvous mixed, tags 5 and 6 */
    static int buf[N_ORDER][600];
    if (my_rank == 1) {
        MPI_Request rq[N_ORDER];
        for (int i = 0; i < N_ORDER; ++i) {
            int n = i % 3 == 2 ? 600 : 1 + i; /* every third one above the threshold */
            for (int j = 0; j < n; ++j)
                buf[i][j] = i * 1000 + j;
            MPI_Isend(buf[i], n, MPI_INT, 0, 5 + i % 2, MPI_COMM_WORLD, &rq[i]);
        }
        CHECK_RC(MPI_Waitall(N_ORDER, rq, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        /* then: wildcard receive posted after a specific one (posted-queue order); rank 0 says
         * when both are posted */
        int a = 1, b = 2, go = 0;
        MPI_Recv(&go, 1, MPI_INT, 0, 29, MPI_COMM_WORLD, &st);
        MPI_Send(&a, 1, MPI_INT, 0, 30, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 31, MPI_COMM_WORLD);
        return;
    }
    /* rank 0: first the tag-6 messages by tag, then everything else with ANY_TAG: each stream
     * in send order */
    int got[600];
    for (int i = 1; i < N_ORDER; i += 2) {
        int n = i % 3 == 2 ? 600 : 1 + i;
        CHECK_RC(MPI_Recv(got, 600, MPI_INT, 1, 6, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        int c = 0;
        MPI_Get_count(&st, MPI_INT, &c);
        CHECK(c == n && got[0] == i * 1000 && got[n - 1] == i * 1000 + n - 1,
              "tag 6 #%d: count %d first %d", i, c, got[0]);
    }
    for (int i = 0; i < N_ORDER; i += 2) {
        int n = i % 3 == 2 ? 600 : 1 + i;
        CHECK_RC(MPI_Recv(got, 600, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st),
                 MPI_SUCCESS);
        CHECK(st.MPI_TAG == 5 && got[0] == i * 1000 && got[n - 1] == i * 1000 + n - 1,
              "any-tag #%d: tag %d first %d", i, st.MPI_TAG, got[0]);
    }
    MPI_Request r1, r2;
    int a = 0, b = 0;
    MPI_Irecv(&a, 1, MPI_INT, 1, 31, MPI_COMM_WORLD, &r1); /* posted first */
    MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r2);
    MPI_Send(&a, 1, MPI_INT, 1, 29, MPI_COMM_WORLD);
    MPI_Wait(&r1, &st);
    MPI_Wait(&r2, &st);
    CHECK(a == 2 && b == 1 && st.MPI_TAG == 30, "posted order: a %d b %d", a, b);
}
