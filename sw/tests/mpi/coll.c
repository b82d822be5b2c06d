/* Every collective x op x type against results computed here from every rank's inputs (the
 * inputs are a function of rank and index, so each rank can compute all of them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcapix_cc.h"
#include "hal/hal.h"
#include "mpi.h"
#include "na_registers.h"
#include "check.h"

#define CNT 5
static const MPI_Datatype types[] = {MPI_CHAR,      MPI_SHORT, MPI_INT,   MPI_UNSIGNED,
                                     MPI_LONG_LONG, MPI_FLOAT, MPI_DOUBLE};
static const char *const tnames[] = {"char",      "short", "int",   "unsigned",
                                     "long long", "float", "double"};
static const char *const onames[] = {"",     "sum", "prod", "min",  "max",
                                     "band", "bor", "bxor", "land", "lor"};

static int is_fp(MPI_Datatype t) { return t == MPI_FLOAT || t == MPI_DOUBLE; }

/* Input of rank r, element i, for op (small values keep products exact). */
static int64_t input(int r, int i, MPI_Op op)
{
    if (op == MPI_PROD)
        return 1 + (r + i) % 2;
    if (op == MPI_LAND || op == MPI_LOR)
        return (r * 3 + i) % 4 == 0 ? 0 : (r + i) % 3;
    return (r * 7 + i * 13) % 23 - 5;
}

static void store(MPI_Datatype t, void *b, int i, int64_t v, double d)
{
    switch (t) {
    case MPI_CHAR: ((int8_t *)b)[i] = (int8_t)v; break;
    case MPI_SHORT: ((int16_t *)b)[i] = (int16_t)v; break;
    case MPI_INT: ((int32_t *)b)[i] = (int32_t)v; break;
    case MPI_UNSIGNED: ((uint32_t *)b)[i] = (uint32_t)v; break;
    case MPI_LONG_LONG: ((int64_t *)b)[i] = v; break;
    case MPI_FLOAT: ((float *)b)[i] = (float)d; break;
    default: ((double *)b)[i] = d; break;
    }
}

/* Expected result of op over the inputs of ranks 0..p-1 (world ranks of the members), element i:
 * integers in 64-bit (then narrowed like the type wraps), floating point in double. */
static void expect(MPI_Datatype t, MPI_Op op, const int *members, int p, int i, void *out)
{
    int64_t acc = 0;
    double d = 0;
    for (int k = 0; k < p; ++k) {
        int64_t v = input(members[k], i, op);
        if (t == MPI_UNSIGNED)
            v = (int64_t)(uint32_t)v;
        if (t == MPI_CHAR)
            v = (int8_t)v;
        if (t == MPI_SHORT)
            v = (int16_t)v;
        double dv = (double)v;
        if (k == 0) {
            acc = v; /* one member: its value, not normalised */
            d = dv;
            continue;
        }
        switch (op) {
        case MPI_SUM:
            acc += v;
            d += dv;
            break;
        case MPI_PROD:
            acc *= v;
            d *= dv;
            break;
        case MPI_MIN:
            acc = v < acc ? v : acc;
            d = dv < d ? dv : d;
            break;
        case MPI_MAX:
            acc = v > acc ? v : acc;
            d = dv > d ? dv : d;
            break;
        case MPI_BAND: acc &= v; break;
        case MPI_BOR: acc |= v; break;
        case MPI_BXOR: acc ^= v; break;
        case MPI_LAND:
            acc = acc && v;
            d = d != 0 && dv != 0;
            break;
        case MPI_LOR:
            acc = acc || v;
            d = d != 0 || dv != 0;
            break;
        default: break;
        }
    }
    if (t == MPI_UNSIGNED)
        acc = (int64_t)(uint32_t)acc;
    store(t, out, 0, acc, d);
}

/* Whether a call took NAMP-CC: its MPIX_A_CC counter moved. Expected (independently of the
 * library's own rule, from docs/mpi.md): broadcast when the adapter multicasts and the group has
 * at most 16 members; reductions when it reduces, for char/short/int/unsigned and every op but
 * PROD. The ctests on barecc also require the CC counters in the statistics line, so a platform
 * without CC cannot pass them by expecting software here. */
static uint32_t cc_calls(int coll) { return MPIX_Stats()->coll[coll][MPIX_A_CC]; }
/* With several ranks per tile (cores) the collectives run in software (docs/mpi.md "Ranks"). */
static unsigned cc_features(void) { return tile_num_cores() == 1 ? mcapix_cc_features() : 0u; }
static int cc_bcast_expected(int p)
{
    return (cc_features() & NA_FEATURE_NAMP_CC_MCAST) && p > 1 && p <= 17;
}
static int cc_reduce_expected(int p, MPI_Datatype t, MPI_Op op)
{
    return (cc_features() & NA_FEATURE_NAMP_CC_RED) && p > 1 && op != MPI_PROD &&
           (t == MPI_CHAR || t == MPI_SHORT || t == MPI_INT || t == MPI_UNSIGNED);
}
#define CHECK_ALG(coll, before, want, ...) \
    CHECK((cc_calls(coll) != (before)) == (want), __VA_ARGS__)

void test_collectives(MPI_Comm c, const char *name)
{
    int p, r;
    MPI_Comm_size(c, &p);
    MPI_Comm_rank(c, &r);
    /* world ranks of the members, by Allgather (also tests it) */
    int *members = malloc(sizeof(int) * (size_t)p);
    CHECK_RC(MPI_Allgather(&my_rank, 1, MPI_INT, members, 1, MPI_INT, c), MPI_SUCCESS);
    CHECK(members[r] == my_rank, "%s: allgather of ranks", name);
    uint8_t in[CNT * 8], out[CNT * 8], want[8];
    uint8_t *all = malloc((size_t)p * CNT * 8), *all2 = malloc((size_t)p * CNT * 8);
    int bad = 0;
    for (unsigned ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
        MPI_Datatype t = types[ti];
        int ts = 0;
        MPI_Type_size(t, &ts);
        for (MPI_Op op = MPI_SUM; op < MPIX_NUM_OPS; ++op) {
            if (is_fp(t) && (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR))
                continue;
            for (int i = 0; i < CNT; ++i)
                store(t, in, i, input(my_rank, i, op), (double)input(my_rank, i, op));
            for (int root = 0; root<p; root += p> 2 ? p - 1 : 1) { /* first and last */
                memset(out, 0x5A, sizeof out);
                uint32_t cc0 = cc_calls(MPIX_C_REDUCE);
                CHECK_RC(MPI_Reduce(in, out, CNT, t, op, root, c), MPI_SUCCESS);
                CHECK_ALG(MPIX_C_REDUCE, cc0, cc_reduce_expected(p, t, op),
                          "%s: reduce %s %s: cc %d", name, onames[op], tnames[ti],
                          cc_reduce_expected(p, t, op));
                if (r == root)
                    for (int i = 0; i < CNT; ++i) {
                        expect(t, op, members, p, i, want);
                        if (memcmp(out + i * ts, want, (size_t)ts) != 0 && bad++ < 5)
                            CHECK(0, "%s: reduce %s %s root %d element %d", name, onames[op],
                                  tnames[ti], root, i);
                    }
            }
            memset(out, 0x5A, sizeof out);
            uint32_t cc1 = cc_calls(MPIX_C_ALLREDUCE);
            CHECK_RC(MPI_Allreduce(in, out, CNT, t, op, c), MPI_SUCCESS);
            CHECK_ALG(MPIX_C_ALLREDUCE, cc1, cc_reduce_expected(p, t, op),
                      "%s: allreduce %s %s: cc %d", name, onames[op], tnames[ti],
                      cc_reduce_expected(p, t, op));
            for (int i = 0; i < CNT; ++i) {
                expect(t, op, members, p, i, want);
                if (memcmp(out + i * ts, want, (size_t)ts) != 0 && bad++ < 5)
                    CHECK(0, "%s: allreduce %s %s element %d", name, onames[op], tnames[ti], i);
            }
            n_checks += 2;
        }
        /* data movement collectives with this type: value = f(member, element) */
        int root = p - 1;
        for (int i = 0; i < CNT; ++i)
            store(t, in, i, my_rank * 10 + i, my_rank * 10 + i);
        memcpy(out, in, sizeof out);
        int bcast_from = members[root];
        if (r != root)
            memset(out, 0, sizeof out);
        uint32_t cc2 = cc_calls(MPIX_C_BCAST);
        CHECK_RC(MPI_Bcast(out, CNT, t, root, c), MPI_SUCCESS);
        CHECK_ALG(MPIX_C_BCAST, cc2, cc_bcast_expected(p), "%s: bcast %s: cc %d", name, tnames[ti],
                  cc_bcast_expected(p));
        for (int i = 0; i < CNT; ++i) {
            store(t, want, 0, bcast_from * 10 + i, bcast_from * 10 + i);
            CHECK(memcmp(out + i * ts, want, (size_t)ts) == 0, "%s: bcast %s", name, tnames[ti]);
        }
        /* gather to 0 and allgather: block k from member k */
        memset(all, 0, (size_t)p * CNT * 8);
        CHECK_RC(MPI_Gather(in, CNT, t, all, CNT, t, 0, c), MPI_SUCCESS);
        memset(all2, 0, (size_t)p * CNT * 8);
        CHECK_RC(MPI_Allgather(in, CNT, t, all2, CNT, t, c), MPI_SUCCESS);
        for (int k = 0; k < p; ++k)
            for (int i = 0; i < CNT; ++i) {
                store(t, want, 0, members[k] * 10 + i, members[k] * 10 + i);
                if (r == 0)
                    CHECK(memcmp(all + (k * CNT + i) * ts, want, (size_t)ts) == 0,
                          "%s: gather %s block %d", name, tnames[ti], k);
                CHECK(memcmp(all2 + (k * CNT + i) * ts, want, (size_t)ts) == 0,
                      "%s: allgather %s block %d", name, tnames[ti], k);
            }
        /* scatter from the last rank: block k = 100 * k + i */
        if (r == root)
            for (int k = 0; k < p; ++k)
                for (int i = 0; i < CNT; ++i)
                    store(t, all, k * CNT + i, 100 * k + i, 100 * k + i);
        memset(out, 0, sizeof out);
        CHECK_RC(MPI_Scatter(all, CNT, t, out, CNT, t, root, c), MPI_SUCCESS);
        for (int i = 0; i < CNT; ++i) {
            store(t, want, 0, 100 * r + i, 100 * r + i);
            CHECK(memcmp(out + i * ts, want, (size_t)ts) == 0, "%s: scatter %s", name, tnames[ti]);
        }
    }
    /* a large allreduce (rendezvous messages inside the algorithm) */
    int n = 3000;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i)
        x[i] = (double)(my_rank + i);
    CHECK_RC(MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, c), MPI_SUCCESS);
    double msum = 0;
    for (int k = 0; k < p; ++k)
        msum += members[k];
    int badl = 0;
    for (int i = 0; i < n; ++i)
        badl += y[i] != msum + (double)p * i;
    CHECK(badl == 0, "%s: allreduce of %d doubles: %d wrong", name, n, badl);
    /* above the CC limits (docs/mpi.md): a 24000-byte broadcast and a 4000-byte integer
     * allreduce take the software algorithms on every platform */
    uint32_t cc3 = cc_calls(MPIX_C_BCAST), cc4 = cc_calls(MPIX_C_ALLREDUCE);
    CHECK_RC(MPI_Bcast(x, n, MPI_DOUBLE, 0, c), MPI_SUCCESS);
    badl = 0;
    for (int i = 0; i < n; ++i)
        badl += x[i] != (double)(members[0] + i);
    CHECK(badl == 0, "%s: bcast of %d doubles: %d wrong", name, n, badl);
    int *xi = (int *)y, *yi = xi + 1000;
    for (int i = 0; i < 1000; ++i)
        xi[i] = my_rank * i;
    CHECK_RC(MPI_Allreduce(xi, yi, 1000, MPI_INT, MPI_SUM, c), MPI_SUCCESS);
    badl = 0;
    for (int i = 0; i < 1000; ++i)
        badl += yi[i] != (int)msum * i;
    CHECK(badl == 0, "%s: allreduce of 1000 ints: %d wrong", name, badl);
    CHECK_ALG(MPIX_C_BCAST, cc3, 0, "%s: large bcast took CC", name);
    CHECK_ALG(MPIX_C_ALLREDUCE, cc4, 0, "%s: large allreduce took CC", name);
    CHECK_RC(MPI_Barrier(c), MPI_SUCCESS);
    free(x);
    free(y);
    free(all);
    free(all2);
    free(members);
}

/* Capacity: more communicators with a reduction root on one tile than the tile has endpoints
 * (16). Roots that cannot get one are refused at setup and their reductions run in software,
 * with the same results; once the communicators are freed, CC is taken again. */
void test_cc_capacity(void)
{
    enum { N = 16 };
    MPI_Comm cs[N];
    int p = 0, took_cc = 0, took_sw = 0, bad = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int k = 0; k < N; ++k) {
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, my_rank, &cs[k]), MPI_SUCCESS);
        uint32_t before = cc_calls(MPIX_C_ALLREDUCE);
        int v = my_rank + k, sum = 0;
        CHECK_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, cs[k]), MPI_SUCCESS);
        bad += sum != p * (p - 1) / 2 + p * k;
        if (cc_calls(MPIX_C_ALLREDUCE) != before)
            ++took_cc;
        else
            ++took_sw;
    }
    CHECK(bad == 0, "capacity: %d wrong sums", bad);
    if (cc_reduce_expected(p, MPI_INT, MPI_SUM))
        CHECK(took_cc > 0 && took_sw > 0, "capacity: cc %d sw %d", took_cc, took_sw);
    else
        CHECK(took_cc == 0, "capacity: cc %d without CC", took_cc);
    for (int k = 0; k < N; ++k)
        CHECK_RC(MPI_Comm_free(&cs[k]), MPI_SUCCESS);
    MPI_Comm again = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, my_rank, &again), MPI_SUCCESS);
    uint32_t before = cc_calls(MPIX_C_ALLREDUCE);
    int v = 1, sum = 0;
    CHECK_RC(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, again), MPI_SUCCESS);
    CHECK(sum == p, "capacity: sum %d after free", sum);
    CHECK_ALG(MPIX_C_ALLREDUCE, before, cc_reduce_expected(p, MPI_INT, MPI_SUM),
              "capacity: CC after the endpoints were freed");
    CHECK_RC(MPI_Comm_free(&again), MPI_SUCCESS);
}
