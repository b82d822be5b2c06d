// Host tests of the NAS CG generator (sw/apps/mpi_cg/makea.c compiled for x86-64): the integer
// randlc against NPB's published double-precision formulation, and properties of the matrix that
// the distributed kernel relies on (symmetry, blocks that tile the whole matrix exactly).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

extern "C" {
#include "cg.h"
}

namespace {

// NPB's randlc as published: 23-bit halves in double arithmetic.
double randlc_npb(double *x, double a) {
    const double r23 = std::pow(0.5, 23), r46 = r23 * r23, t23 = std::pow(2.0, 23), t46 = t23 * t23;
    double t1 = r23 * a;
    double a1 = (int)t1, a2 = a - t23 * a1;
    t1 = r23 * *x;
    double x1 = (int)t1, x2 = *x - t23 * x1;
    t1 = a1 * x2 + a2 * x1;
    double t2 = (int)(r23 * t1), z = t1 - t23 * t2;
    double t3 = t23 * z + a2 * x2;
    double t4 = (int)(r46 * t3);
    *x = t3 - t46 * t4;
    return r46 * *x;
}

std::map<std::pair<int, int>, double> entries(const cg_matrix_t &m) {
    std::map<std::pair<int, int>, double> e;
    for (int i = 0; i < m.nrows; ++i)
        for (int k = m.rowstr[i]; k < m.rowstr[i + 1]; ++k)
            e[{m.row0 + i, m.col0 + m.colidx[k]}] = m.a[k];
    return e;
}

void release(cg_matrix_t &m) {
    std::free(m.rowstr);
    std::free(m.colidx);
    std::free(m.a);
}

}  // namespace

TEST(CgGen, RandlcMatchesNpbDoubleFormulation) {
    uint64_t xi = 314159265ull;
    double xd = 314159265.0;
    for (int i = 0; i < 200000; ++i) {
        double a = cg_randlc(&xi, 1220703125ull), b = randlc_npb(&xd, 1220703125.0);
        ASSERT_EQ(a, b) << "step " << i;
        ASSERT_EQ((double)xi, xd) << "step " << i;
    }
}

TEST(CgGen, MatrixIsSymmetricWithShiftedDiagonal) {
    const int n = 200;
    cg_matrix_t m = {0, n, 0, n, nullptr, nullptr, nullptr, 0};
    ASSERT_EQ(cg_makea(&m, n, CG_NONZER, CG_RCOND, CG_SHIFT), 0);
    auto e = entries(m);
    EXPECT_EQ((int)e.size(), m.nnz);  // duplicates were summed
    for (const auto &kv : e) {
        auto t = e.find({kv.first.second, kv.first.first});
        ASSERT_NE(t, e.end());
        EXPECT_NEAR(t->second, kv.second, 1e-12 * std::fabs(kv.second));
    }
    for (int i = 0; i < n; ++i) {  // every diagonal element exists; the shift makes it negative
        auto d = e.find({i, i});
        ASSERT_NE(d, e.end()) << i;
        EXPECT_LT(d->second, 0.0);
    }
    release(m);
}

TEST(CgGen, BlocksTileTheMatrix) {
    const int n = 160;
    cg_matrix_t full = {0, n, 0, n, nullptr, nullptr, nullptr, 0};
    ASSERT_EQ(cg_makea(&full, n, CG_NONZER, CG_RCOND, CG_SHIFT), 0);
    auto ef = entries(full);
    // 2 x 4 grid: row blocks of 80, column blocks of 40 (the 8-rank layout)
    std::map<std::pair<int, int>, double> eb;
    int nnz = 0;
    for (int pr = 0; pr < 2; ++pr)
        for (int pc = 0; pc < 4; ++pc) {
            cg_matrix_t b = {pr * 80, 80, pc * 40, 40, nullptr, nullptr, nullptr, 0};
            ASSERT_EQ(cg_makea(&b, n, CG_NONZER, CG_RCOND, CG_SHIFT), 0);
            for (const auto &kv : entries(b)) eb[kv.first] = kv.second;
            nnz += b.nnz;
            release(b);
        }
    EXPECT_EQ(nnz, full.nnz);
    ASSERT_EQ(eb.size(), ef.size());
    for (const auto &kv : ef) EXPECT_DOUBLE_EQ(eb[kv.first], kv.second);
    release(full);
}
