/* Tiny check helpers of the MPI test firmware: every failed check prints FAIL with its line. */
#ifndef MPI_TEST_CHECK_H
#define MPI_TEST_CHECK_H

#include <stdio.h>

extern _Thread_local int n_checks, n_fails, my_rank; /* per rank: a core is a rank */
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        ++n_checks;                                                       \
        if (!(cond)) {                                                    \
            ++n_fails;                                                    \
            printf("mpi_test FAIL rank %d line %d: ", my_rank, __LINE__); \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
        }                                                                 \
    } while (0)
#define CHECK_RC(rc, want) CHECK((rc) == (want), "%s = %d, want %d", #rc, (int)(rc), (int)(want))

void test_errors(void);
void test_p2p(void);
void test_wildcards_order(void);
void test_collectives(MPI_Comm c, const char *name);
void test_coll_mismatch(void);
void test_cc_capacity(void);

#endif
