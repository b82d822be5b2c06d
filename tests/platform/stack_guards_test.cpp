// SystemC's thread stacks without guard pages (vp/src/stack_guards.cpp): only SystemC's guard-page
// request is skipped, and only while skipping is on; the page it leaves writable is checked for
// overruns. A sanitizer build keeps the guard pages: there every request reaches the kernel.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <systemc>

#include <sys/mman.h>
#include <unistd.h>

#include "vp/stack_guards.h"

namespace {

namespace sg = vp::stack_guards;

const size_t page = size_t(sysconf(_SC_PAGESIZE));

// The permissions /proc/self/maps gives for the mapping that holds addr ("rw-p", "---p").
std::string protection_of(const void *addr) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        std::istringstream in(line);
        uintptr_t from = 0, to = 0;
        char dash = 0;
        std::string perms;
        in >> std::hex >> from >> dash >> to >> perms;
        if (a >= from && a < to) return perms;
    }
    return "unmapped";
}

struct pages {
    explicit pages(size_t n) : size(n * page) {
        void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        base = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
    }
    ~pages() {
        if (base) munmap(base, size);
    }
    size_t size;
    uint8_t *base;
};

TEST(StackGuards, SkippedGuardPageStaysWritableAndAnOverrunIsFound) {
    pages p(3);
    ASSERT_NE(p.base, nullptr);
    uint8_t *guard = p.base + page;
    sg::set_skip(true);
    ASSERT_EQ(mprotect(guard, page - 1, PROT_NONE),
              0);  // SystemC's request (sc_cor_qt::stack_protect)
    if (!sg::can_skip()) {
        EXPECT_EQ(protection_of(guard), "---p");
        EXPECT_EQ(sg::skipped(), 0u);
        EXPECT_EQ(sg::overruns(), 0u);
        return;
    }
    EXPECT_EQ(protection_of(guard), "rw-p");
    EXPECT_EQ(sg::skipped(), 1u);
    EXPECT_EQ(sg::overruns(), 0u);
    guard[page - 8] = 1;  // what a stack growing down past its end writes first
    EXPECT_EQ(sg::overruns(), 1u);
    // SystemC gives the page back before it unmaps the stack: the overrun stays counted.
    sg::set_skip(false);
    ASSERT_EQ(mprotect(guard, page - 1, PROT_READ | PROT_WRITE), 0);
    EXPECT_EQ(sg::overruns(), 1u);
    EXPECT_EQ(sg::skipped(), 1u);
}

TEST(StackGuards, OtherRequestsReachTheKernel) {
    pages p(4);
    ASSERT_NE(p.base, nullptr);
    sg::set_skip(true);
    ASSERT_EQ(mprotect(p.base, page, PROT_NONE), 0);  // a whole page: not SystemC's guard request
    EXPECT_EQ(protection_of(p.base), "---p");
    ASSERT_EQ(mprotect(p.base + page, page - 1, PROT_READ), 0);
    EXPECT_EQ(protection_of(p.base + page), "r--p");
    sg::set_skip(false);
    ASSERT_EQ(mprotect(p.base + 2 * page, page - 1, PROT_NONE), 0);  // skipping off
    EXPECT_EQ(protection_of(p.base + 2 * page), "---p");
    EXPECT_EQ(protection_of(p.base + 3 * page), "rw-p");
    EXPECT_EQ(sg::skipped(), 0u);
    errno = 0;
    EXPECT_EQ(mprotect(p.base + 1, page, PROT_READ), -1);  // errors come back as from the C library
    EXPECT_EQ(errno, EINVAL);
}

SC_MODULE(three_threads) {
    unsigned done = 0;
    void run() {
        for (int i = 0; i < 3; ++i) wait(sc_core::sc_time(1, sc_core::SC_NS));
        ++done;
    }
    void a() { run(); }
    void b() { run(); }
    void c() { run(); }
    SC_CTOR(three_threads) {
        SC_THREAD(a);
        SC_THREAD(b);
        SC_THREAD(c);
    }
};

// SystemC's own calls come through the executable's mprotect: one skipped page per thread.
TEST(StackGuards, SystemCThreadsRunWithoutGuardPagesWhileSkipping) {
    three_threads m("m");
    sg::set_skip(true);
    sc_core::sc_start();
    EXPECT_EQ(m.done, 3u);
    EXPECT_EQ(sg::skipped(), sg::can_skip() ? 3u : 0u);
    EXPECT_EQ(sg::overruns(), 0u);
}

}  // namespace
