/* Error paths with MPI_ERRORS_RETURN: every bad argument gives its error class, truncation gives
 * MPI_ERR_TRUNCATE with the bytes that fit, mismatched collective sizes are reported. */
#include <string.h>

#include "mpi.h"
#include "check.h"

void test_errors(void)
{
    int size, x[8] = {0}, v = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Errhandler h = 0;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    CHECK(h == MPI_ERRORS_ARE_FATAL, "default handler %d", h);
    CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
    CHECK_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 77), MPI_ERR_ARG);

    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    CHECK_RC(MPI_Send(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_RC(MPI_Send(x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_RC(MPI_Send(x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_RC(MPI_Recv(x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_RC(MPI_Send(x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_RC(MPI_Send(x, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_RC(MPI_Isend(x, 1, MPI_INT, 0, MPI_TAG_UB_VALUE + 1, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_RC(MPI_Irecv(x, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_RC(MPI_Send(x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_RC(MPI_Send(x, 1, 99, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_RC(MPI_Send(NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_RC(MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_RC(MPI_Isend(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    CHECK_RC(MPI_Comm_size(MPI_COMM_NULL, &v), MPI_ERR_COMM);
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_free(&w), MPI_ERR_COMM);
    CHECK_RC(MPI_Bcast(x, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_RC(MPI_Reduce(x, &v, 1, MPI_INT, 42, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Allreduce(x, &v, 1, MPI_FLOAT, MPI_BXOR, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_RC(MPI_Allreduce(x, &v, 1, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_RC(MPI_Get_count(&st, 0, &v), MPI_ERR_TYPE);
    MPI_Comm bad = MPI_COMM_NULL; /* every rank passes the bad color: no communication */
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &bad), MPI_ERR_ARG);
    CHECK_RC(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &bad), MPI_ERR_COMM);
    CHECK_RC(MPI_Waitall(-1, &r, &st), MPI_ERR_ARG);
    CHECK_RC(MPI_Test(&r, NULL, &st), MPI_ERR_ARG);
    /* a request already completed: MPI_Wait on MPI_REQUEST_NULL returns an empty status */
    r = MPI_REQUEST_NULL;
    CHECK_RC(MPI_Wait(&r, &st), MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "empty status");
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(MPI_ERR_TRUNCATE, s, &len);
    CHECK(len > 0 && strcmp(s, "MPI_ERR_TRUNCATE") == 0, "error string %s", s);
    /* MPI_PROC_NULL: immediate, empty */
    CHECK_RC(MPI_Send(x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_RC(MPI_Recv(x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "proc null source");

    /* truncation, eager and rendezvous: rank 0 -> rank 1 */
    if (size >= 2 && my_rank < 2) {
        static int big[2000], got[1000];
        for (int i = 0; i < 2000; ++i)
            big[i] = i * 3 + 1;
        if (my_rank == 0) {
            CHECK_RC(MPI_Send(big, 8, MPI_INT, 1, 11, MPI_COMM_WORLD), MPI_SUCCESS);
            CHECK_RC(MPI_Send(big, 2000, MPI_INT, 1, 12, MPI_COMM_WORLD), MPI_SUCCESS);
            CHECK_RC(MPI_Send(big, 8, MPI_INT, 1, 13, MPI_COMM_WORLD), MPI_SUCCESS);
            CHECK_RC(MPI_Send(big, 2, MPI_INT, 1, 14, MPI_COMM_WORLD), MPI_SUCCESS);
        } else {
            memset(got, 0, sizeof got);
            CHECK_RC(MPI_Recv(got, 4, MPI_INT, 0, 11, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
            MPI_Get_count(&st, MPI_INT, &v);
            CHECK(v == 4 && got[3] == 10 && got[4] == 0, "eager truncation: count %d", v);
            CHECK_RC(MPI_Recv(got, 1000, MPI_INT, 0, 12, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
            MPI_Get_count(&st, MPI_INT, &v);
            CHECK(v == 1000 && got[999] == 999 * 3 + 1 && st.MPI_ERROR == MPI_ERR_TRUNCATE,
                  "rendezvous truncation: count %d, last %d", v, got[999]);
            /* Waitall: one truncated receive -> MPI_ERR_IN_STATUS, the error in its status */
            MPI_Request rq[2];
            MPI_Status sts[2];
            MPI_Irecv(got, 4, MPI_INT, 0, 13, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(got + 4, 4, MPI_INT, 0, 14, MPI_COMM_WORLD, &rq[1]);
            CHECK_RC(MPI_Waitall(2, rq, sts), MPI_ERR_IN_STATUS);
            CHECK(sts[0].MPI_ERROR == MPI_ERR_TRUNCATE && sts[1].MPI_ERROR == MPI_SUCCESS &&
                      rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL,
                  "waitall statuses %d %d", sts[0].MPI_ERROR, sts[1].MPI_ERROR);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Collective calls whose sizes do not match between ranks 0 and 1 (a 2-rank communicator). */
void test_coll_mismatch(void)
{
    MPI_Comm two = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, my_rank < 2 ? 0 : MPI_UNDEFINED, my_rank, &two);
    if (two == MPI_COMM_NULL)
        return;
    MPI_Comm_set_errhandler(two, MPI_ERRORS_RETURN);
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[16] = {0};
    int rc = MPI_Bcast(a, my_rank == 0 ? 8 : 4, MPI_INT, 0, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_SUCCESS : MPI_ERR_TRUNCATE);
    rc = MPI_Bcast(a, my_rank == 0 ? 2 : 4, MPI_INT, 0, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_SUCCESS : MPI_ERR_COUNT);
    rc = MPI_Allreduce(a, b, my_rank == 0 ? 4 : 8, MPI_INT, MPI_SUM, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT);
    rc = MPI_Gather(a, my_rank == 0 ? 2 : 3, MPI_INT, b, 2, MPI_INT, 0, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    rc = MPI_Scatter(a, 2, MPI_INT, b, my_rank == 0 ? 2 : 3, MPI_INT, 0, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_SUCCESS : MPI_ERR_COUNT);
    rc = MPI_Reduce(a, b, my_rank == 0 ? 3 : 2, MPI_INT, MPI_MAX, 0, two);
    CHECK_RC(rc, my_rank == 0 ? MPI_ERR_COUNT : MPI_SUCCESS);
    /* the communicator still works afterwards */
    int one = my_rank + 1, sum = 0;
    CHECK_RC(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, two), MPI_SUCCESS);
    CHECK(sum == 3, "sum after mismatches %d", sum);
    MPI_Comm_free(&two);
}
