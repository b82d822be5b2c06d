/* MPI test firmware (every rank = one core of a tile): argument errors, point-to-point (eager, rendezvous,
 * self, truncation), wildcard matching and non-overtaking order, every collective x op x type
 * against results computed here from the inputs, on MPI_COMM_WORLD and on split communicators.
 * Prints "mpi_test ok: rank <r>, <n> checks" per rank and "mpi_test ok: <p> ranks" on rank 0. */
#include <stdio.h>

#include "hal/hal.h"
#include "mcapix_cc.h"
#include "mpi.h"
#include "check.h"

_Thread_local int n_checks, n_fails, my_rank;

int main(void)
{
    CHECK_RC(MPI_Init(NULL, NULL), MPI_SUCCESS);
    int size = 0, flag = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Initialized(&flag);
    /* one rank per core: rank = tile x cores + core, size = tiles x cores */
    int cores = (int)tile_num_cores();
    CHECK(flag == 1 && my_rank == (int)tile_id() * cores + (int)tile_core_id() &&
              size == (int)(tile_mesh_width() * tile_mesh_height()) * cores,
          "rank %d size %d", my_rank, size);
    CHECK(MPIX_Cc_features() == (cores == 1 ? mcapix_cc_features() : 0u), "cc features %u",
          MPIX_Cc_features());
    double t0 = MPI_Wtime();
    CHECK(t0 >= 0.0 && MPI_Wtick() > 0.0, "Wtime");

    test_errors();
    test_p2p();
    test_wildcards_order();
    test_collectives(MPI_COMM_WORLD, "world");
    /* split: halves by parity (sizes ceil/floor p/2), keys reversed; then the same tests */
    MPI_Comm half = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, my_rank % 2, -my_rank, &half), MPI_SUCCESS);
    int hr = -1, hs = -1;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    int exp_size = my_rank % 2 ? size / 2 : (size + 1) / 2;
    int exp_rank = (exp_size - 1) - my_rank / 2; /* reversed keys */
    CHECK(hs == exp_size && hr == exp_rank, "split: rank %d size %d, want %d %d", hr, hs, exp_rank,
          exp_size);
    test_collectives(half, "half");
    /* MPI_UNDEFINED color: no communicator */
    MPI_Comm none = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, my_rank == 0 ? MPI_UNDEFINED : 1, 0, &none),
             MPI_SUCCESS);
    CHECK(my_rank == 0 ? none == MPI_COMM_NULL : none != MPI_COMM_NULL, "undefined color");
    if (none != MPI_COMM_NULL) {
        int ns = 0;
        MPI_Comm_size(none, &ns);
        CHECK(ns == size - 1, "split size %d", ns);
        CHECK_RC(MPI_Comm_free(&none), MPI_SUCCESS);
        CHECK(none == MPI_COMM_NULL, "free sets COMM_NULL");
    }
    CHECK_RC(MPI_Comm_free(&half), MPI_SUCCESS);
    if (size >= 2)
        test_coll_mismatch();
    test_cc_capacity();
    MPIX_Print_stats();
    /* multicasts the adapter ran and ones the library's software loop ran instead (the ctests
     * on CC presets require the loop count to be 0: the MPI broadcasts really used the adapter) */
    const mcapix_cc_stats_t *ccs = mcapix_cc_stats();
    printf("mpi_test cc rank %d: hw_sends=%u sw_sends=%u\n", my_rank, (unsigned)ccs->hw_sends,
           (unsigned)ccs->sw_sends);
    int fails = n_fails, total = 0;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (n_fails == 0)
        printf("mpi_test ok: rank %d, %d checks\n", my_rank, n_checks);
    if (my_rank == 0 && total == 0)
        printf("mpi_test ok: %d ranks\n", size);
    CHECK_RC(MPI_Finalize(), MPI_SUCCESS);
    return n_fails ? 1 : 0;
}
