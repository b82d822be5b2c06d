// SystemC thread stacks without guard pages (vp/stack_guards.h).
//
// SystemC 2.3.4 (sc_cor_qt::stack_protect, called for every thread when the simulation starts)
// asks for its guard page with mprotect(stack, pagesize - 1, PROT_NONE) and gives it back with
// the same call and PROT_READ | PROT_WRITE before it unmaps the stack. namp-vp defines mprotect
// itself: the executable comes first in the dynamic linker's lookup, so libsystemc's calls come
// here. Only that request, recognised by its length of one byte less than a page (nothing else
// asks for that), is skipped, and only while set_skip(true) is in force; every other call goes to
// the kernel unchanged. The C library's own calls (thread stacks, malloc) do not go through the
// symbol and are never seen here.
#include "vp/stack_guards.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VP_STACK_GUARD_SKIP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer) || __has_feature(hwaddress_sanitizer)
#define VP_STACK_GUARD_SKIP 0
#endif
#endif
#if !defined(VP_STACK_GUARD_SKIP) && defined(__linux__)
#define VP_STACK_GUARD_SKIP 1
#endif
#if !defined(VP_STACK_GUARD_SKIP)
#define VP_STACK_GUARD_SKIP 0
#endif

#if VP_STACK_GUARD_SKIP
#include <atomic>
#include <cstddef>
#include <mutex>
#include <unordered_set>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

struct guard_pages {
    std::mutex lock;
    std::unordered_set<uintptr_t> live;  // skipped guard pages of stacks SystemC still holds
    uint64_t skipped = 0;
    uint64_t overrun_released = 0;  // overruns found when SystemC released the stack
};

// Never destroyed: SystemC releases stacks as late as its own static destructors.
guard_pages &pages() {
    static guard_pages *p = new guard_pages;
    return *p;
}

std::atomic<bool> skipping{false};

size_t page_size() {
    static const size_t size = size_t(sysconf(_SC_PAGESIZE));
    return size;
}

// The pattern depends on the address, so a page copied from another guard page does not pass.
uint64_t pattern(uintptr_t page, size_t i) { return 0x9e3779b97f4a7c15ULL ^ (page + i); }

void fill(uintptr_t page) {
    uint64_t *w = reinterpret_cast<uint64_t *>(page);
    for (size_t i = 0; i < page_size() / sizeof(uint64_t); ++i) w[i] = pattern(page, i);
}

bool intact(uintptr_t page) {
    const uint64_t *w = reinterpret_cast<const uint64_t *>(page);
    for (size_t i = 0; i < page_size() / sizeof(uint64_t); ++i)
        if (w[i] != pattern(page, i)) return false;
    return true;
}

}  // namespace

extern "C" int mprotect(void *addr, size_t len, int prot) noexcept {
    const uintptr_t page = reinterpret_cast<uintptr_t>(addr);
    if (len == page_size() - 1 && page % page_size() == 0) {
        if (prot == PROT_NONE && skipping.load(std::memory_order_relaxed)) {
            guard_pages &g = pages();
            const std::lock_guard<std::mutex> hold(g.lock);
            fill(page);  // the page is part of the stack's writable mapping
            g.live.insert(page);
            ++g.skipped;
            return 0;
        }
        if (prot == (PROT_READ | PROT_WRITE)) {
            guard_pages &g = pages();
            const std::lock_guard<std::mutex> hold(g.lock);
            if (g.live.erase(page) && !intact(page)) ++g.overrun_released;
            // and on to the kernel: the page is writable already, so this changes nothing
        }
    }
    return int(syscall(SYS_mprotect, addr, len, prot));
}

namespace vp::stack_guards {

bool can_skip() { return true; }

void set_skip(bool skip) { skipping.store(skip); }

uint64_t skipped() {
    guard_pages &g = pages();
    const std::lock_guard<std::mutex> hold(g.lock);
    return g.skipped;
}

uint64_t overruns() {
    guard_pages &g = pages();
    const std::lock_guard<std::mutex> hold(g.lock);
    uint64_t n = g.overrun_released;
    for (const uintptr_t page : g.live) n += intact(page) ? 0 : 1;
    return n;
}

}  // namespace vp::stack_guards

#else  // sanitizers or not Linux: SystemC keeps its guard pages

namespace vp::stack_guards {

bool can_skip() { return false; }
void set_skip(bool) {}
uint64_t skipped() { return 0; }
uint64_t overruns() { return 0; }

}  // namespace vp::stack_guards

#endif
