// Translations shared by harts (rv_jit_pool, docs/iss-engine.md): harts in machines of their own
// (tiles with their own memory) share one pool and must each behave exactly as the interpreter on
// the same machine: registers, pc, every counter, device accesses. Covered: the same code on many
// harts (translated once), different code at the same pcs, one hart with the same block in two
// physical pages but different successors (its chains must not mix them up), and a small pool
// that fills while another hart is inside translated code, waiting in a device callback.
#include "iss_engine_compare.h"

#include <memory>
#include <vector>

using namespace enc;

namespace {

constexpr uint32_t B = IssMachine::kRamBase;
constexpr uint32_t kData = B + 0x8000;

rv_timing timing() {
    rv_timing t = IssMachine::unit_timing();
    t.branch_taken = 3;
    t.load = 2;
    t.mul = 3;
    return t;
}

// One tile: the machine under test (JIT, the shared pool) and its reference (interpreter).
struct Tile {
    explicit Tile(rv_jit_pool *pool) : ref(1u << 20, timing()), dut(1u << 20, timing()) {
        ref.engine = RV_ENGINE_INTERPRETER;
        dut.engine = RV_ENGINE_JIT;
        dut.jit_pool = pool;
        r = ref.add_hart(0, B);
        d = dut.add_hart(0, B);
    }
    template <class F>
    void both(F f) {
        f(ref, r);
        f(dut, d);
    }
    void code(uint32_t at, std::initializer_list<uint32_t> insns) {
        both([&](IssMachine &m, rv_cpu *) { m.code(at, insns); });
    }
    void code(uint32_t at, const std::vector<uint32_t> &insns) {
        both([&](IssMachine &m, rv_cpu *) {
            for (size_t i = 0; i < insns.size(); i++) m.w32(at + 4 * uint32_t(i), insns[i]);
        });
    }
    void run_to(uint64_t limit) { run_both_to(r, ref, d, dut, limit); }
    rv_engine_counters counters() const { return engine_counters(d); }
    uint32_t x(unsigned n) const { return rv_cpu_get_reg(d, n); }
    IssMachine ref, dut;
    rv_cpu *r = nullptr, *d = nullptr;
};

class JitPoolTest : public ::testing::Test {
protected:
    void SetUp() override {
        pool = rv_jit_pool_create();
        if (!pool) FAIL() << "no JIT pool on this host";
    }
    void TearDown() override {
        tiles.clear();  // the harts before their pool
        rv_jit_pool_destroy(pool);
    }
    Tile &add_tile() {
        tiles.push_back(std::make_unique<Tile>(pool));
        return *tiles.back();
    }
    // The harts take turns in slices of `slice` cycles, as cores do at every quantum.
    void run_interleaved(uint64_t slice, uint64_t cycles) {
        for (uint64_t t = slice; t <= cycles && !HasFailure(); t += slice)
            for (auto &tile : tiles) tile->run_to(t);
    }
    rv_jit_pool *pool = nullptr;
    std::vector<std::unique_ptr<Tile>> tiles;
};

// A loop with loads, stores, a multiply and a call into another page, on four harts: the first
// translates, the others run its code; every hart is still its interpreter.
TEST_F(JitPoolTest, SameCodeOnManyHartsIsTranslatedOnce) {
    const uint32_t fn = B + 0x3000;
    for (unsigned i = 0; i < 4; i++) {
        Tile &t = add_tile();
        t.code(B, {lui(10, kData >> 12), addi(5, 0, 300), addi(6, 0, int32_t(i)), lw(11, 10, 0),
                   add(11, 11, 6), mul(12, 11, 5), sw(12, 10, 0),
                   jal(1, int32_t(fn - (B + 28))),  // call fn
                   addi(5, 5, -1), bne(5, 0, -24), jal(0, 0)});
        t.code(fn, {slli(8, 6, 2), xor_(9, 9, 8), addi(9, 9, 7), jalr(0, 1, 0)});
    }
    run_interleaved(97, 40000);
    uint64_t shared = 0;
    for (size_t i = 0; i < tiles.size(); i++) {
        const rv_engine_counters c = tiles[i]->counters();
        EXPECT_GT(c.translations, 2u) << "hart " << i;
        if (i > 0) EXPECT_EQ(c.translations_shared, c.translations) << "hart " << i;
        shared += c.translations_shared;
    }
    EXPECT_EQ(tiles[0]->counters().translations_shared, 0u);
    EXPECT_GT(shared, 0u);
    EXPECT_EQ(tiles[3]->x(5), 0u);
}

// The same pcs with different instructions (one immediate differs): no hart runs another's loop;
// only the identical last block (jal to itself) is shared.
TEST_F(JitPoolTest, DifferentCodeAtTheSamePcIsNotShared) {
    for (int k : {1, 2, 3}) {
        Tile &t = add_tile();
        t.code(B, {addi(5, 0, 200), addi(12, 12, k), addi(5, 5, -1), bne(5, 0, -8), jal(0, 0)});
    }
    run_interleaved(53, 3000);
    for (int k : {1, 2, 3}) EXPECT_EQ(tiles[size_t(k - 1)]->x(12), 200u * uint32_t(k));
    for (auto &t : tiles)
        EXPECT_GE(t->counters().translations, t->counters().translations_shared + 1u);
}

// Sv32, one hart: a virtual page is remapped to a physical page whose first block is the same as
// the old page's, but whose successor (chained inside the page) differs. The hart must not follow
// the old block's chain from the new block: it gets a translation of its own for the second copy.
TEST_F(JitPoolTest, SameBlockInTwoPagesOfOneHartKeepsItsOwnChains) {
    constexpr uint32_t V = 1, R = 2, W = 4, X = 8, A = 64, D = 128;
    const auto pte = [](uint32_t pa, uint32_t f) { return ((pa >> 12) << 10) | f; };
    const uint32_t root = B + 0x10000, l0 = B + 0x11000;
    const uint32_t va = 0x00400000, pa_old = B + 0x20000, pa_new = B + 0x21000;
    Tile &t = add_tile();
    t.both([&](IssMachine &m, rv_cpu *) {
        m.w32(root + 4 * (B >> 22), pte(B, V | R | W | X | A | D));
        m.w32(root + 4 * (va >> 22), pte(l0, V));
        m.w32(l0, pte(pa_old, V | R | X | A));
    });
    // first block: x5 = 30, jump to the loop (the same in both pages); the loop adds 1 or 10
    t.code(pa_old, {addi(5, 0, 30), jal(0, 8), jal(0, 0), addi(12, 12, 1), addi(5, 5, -1),
                    bne(5, 0, -8), jalr(0, 1, 0)});
    t.code(pa_new, {addi(5, 0, 30), jal(0, 8), jal(0, 0), addi(12, 12, 10), addi(5, 5, -1),
                    bne(5, 0, -8), jalr(0, 1, 0)});
    const uint32_t drv = B + 0x3000;
    t.code(B, {lui(5, 0x80000 | (root >> 24)), addi(5, 5, int32_t((root >> 12) & 0xfff)),
               csrw(csr::satp, 5), sfence_vma(), lui(6, drv >> 12), csrw(csr::mepc, 6), lui(7, 1),
               addi(7, 7, -2048),  // MPP = S
               csrw(csr::mstatus, 7), mret()});
    t.code(drv, {addi(20, 0, 8), lui(8, va >> 12), jalr(1, 8, 0), addi(20, 20, -1), bne(20, 0, -8),
                 lui(9, l0 >> 12), lui(10, pa_new >> 12), srli(10, 10, 2),
                 ori(10, 10, V | R | X | A), sw(10, 9, 0), sfence_vma(), addi(20, 0, 8),
                 jalr(1, 8, 0), addi(20, 20, -1), bne(20, 0, -8), jal(0, 0)});
    run_interleaved(101, 20000);
    EXPECT_EQ(t.x(12), 8u * 30u + 8u * 300u);
    EXPECT_GT(t.counters().translations, 4u);
}

// A pool of 4 KiB, far too small for the code of the second hart, which runs inside the device
// callback of the first (a console store from its translated loop), as SystemC runs other cores
// while one waits in a bus access. The pool fills there; it is emptied only once no hart is inside
// translated code, and both harts stay exact.
TEST(JitPoolSmall, FullPoolIsEmptiedOnlyWhenNoHartIsInside) {
    rv_jit_pool *pool = rv_jit_pool_create_sized(4 * 1024);
    ASSERT_NE(pool, nullptr);
    {
        Tile a(pool), b(pool);
        // b: 60 blocks run 200 times (every block is translated, the pool fills and is emptied
        // several times in one of a's callbacks); each ends with a computed jump to the next,
        // which returns to the dispatcher while the pool is full
        std::vector<uint32_t> prog = {addi(5, 0, 200)};
        for (int k = 0; k < 60; k++) {
            prog.push_back(addi(6, 6, k + 1));
            prog.push_back(auipc(7, 0));
            prog.push_back(jalr(0, 7, 8));
        }
        prog.push_back(addi(5, 5, -1));
        prog.push_back(bne(5, 0, -int32_t(4 * (prog.size() - 1))));
        prog.push_back(jal(0, 0));
        b.code(B, prog);
        // a: 40 console stores from a loop
        a.code(B, {lui(10, IssMachine::kConsoleTx >> 12), addi(5, 0, 40), addi(11, 0, 'a'),
                   sw(11, 10, 0), addi(5, 5, -1), bne(5, 0, -8), jal(0, 0)});
        uint64_t b_limit = 0;
        unsigned stores = 0;
        a.dut.during_console = [&] {
            if (++stores < 10) return;  // from the 4th store on a's loop is translated code
            b_limit += 2000;
            rv_cpu_run(b.d, b_limit);  // the reference runs the same slices below
            rv_cpu_run(b.r, b_limit);
            EXPECT_EQ(engine_state_of(b.r, b.ref), engine_state_of(b.d, b.dut))
                << "b at " << b_limit;
        };
        a.run_to(2000);  // in one run: a's stores come from its translated loop, not a budget's end
        while (b_limit < 150000 && !::testing::Test::HasFailure()) {
            b_limit += 500;
            b.run_to(b_limit);
        }
        EXPECT_EQ(a.x(5), 0u);
        EXPECT_EQ(b.x(5), 0u);
        EXPECT_EQ(b.x(6), 200u * (60u * 61u / 2u));
        EXPECT_GT(b.counters().drops, 1u);  // the pool was emptied, more than once
        EXPECT_GT(a.counters().translations, 0u);
        EXPECT_GT(a.counters().drops, 0u);  // ... also under a's code, after its callback
    }
    rv_jit_pool_destroy(pool);
}

}  // namespace
