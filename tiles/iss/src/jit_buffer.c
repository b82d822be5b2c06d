/* Code memory of a JIT pool and the code every translation shares: the entry from C, the exit
 * back to C and the lookup of a computed target (jit.h).
 *
 * One mapping per pool, readable, writable and executable (translations are written while others
 * run), reserved up front and backed by the host as it is written. A pool shared by the harts of a
 * platform asks for 2 MiB pages (transparent huge pages, where the host gives them): the code of
 * many harts then takes a few host TLB entries instead of one per 4 KiB; a hart's own pool (a few
 * KiB of code in tests) does not, so that it costs no more than it writes.
 */
#include "jit_pool.h"
#include "jit_x86.h"

#include <stddef.h>
#include <stdlib.h>

#if defined(__x86_64__) && defined(__linux__)
#define RV_JIT_HOST 1
#include <sys/mman.h>
#else
#define RV_JIT_HOST 0
#endif

#define HUGE_PAGE (2u * 1024u * 1024u)

bool rv_jit_supported(void) { return RV_JIT_HOST != 0; }

#if RV_JIT_HOST

#define CPU(field) x86_at(X86_RBX, (int32_t)offsetof(rv_cpu, field))

/* int enter(rv_cpu *cpu, const void *code): saves the callee-saved registers, keeps cpu in rbx,
 * cycles and instret in r15 and r14 (jit_translate.c) and the stack 16-byte aligned for calls out
 * of translated code, and jumps to code. The exit stores the counters back. */
static void emit_entry_exit(x86_asm *a, struct rv_jit *jit)
{
    static const x86_reg saved[] = {X86_RBX, X86_RBP, X86_R12, X86_R13, X86_R14, X86_R15};
    jit->enter = (int (*)(rv_cpu *, const void *))(void *)x86_here(a);
    for (unsigned i = 0; i < 6; i++)
        x86_push(a, saved[i]);
    x86_alu64_imm(a, X86_SUB, X86_RSP, 8);
    x86_mov64(a, X86_RBX, X86_RDI);
    x86_mov64_load(a, X86_R15, CPU(stats.cycles));
    x86_mov64_load(a, X86_R14, CPU(stats.instret));
    x86_jmp_reg(a, X86_RSI);
    jit->exit = x86_here(a);
    x86_mov64_store(a, CPU(stats.cycles), X86_R15);
    x86_mov64_store(a, CPU(stats.instret), X86_R14);
    x86_alu64_imm(a, X86_ADD, X86_RSP, 8);
    for (unsigned i = 6; i-- > 0;)
        x86_pop(a, saved[i]);
    x86_ret(a);
}

/* The jump cache entry of the pc in eax: rdx = its address. */
static void jcache_entry(x86_asm *a)
{
    _Static_assert(sizeof(rv_jcache_entry) == 16, "jump cache entries are 16 bytes");
    x86_mov32(a, X86_RDX, X86_RAX);
    x86_shift32_imm(a, X86_SHR, X86_RDX, 1);
    x86_alu32_imm(a, X86_AND, X86_RDX, RV_JCACHE_SIZE - 1);
    x86_shift32_imm(a, X86_SHL, X86_RDX, 4);
    x86_lea64(a, X86_RDX, x86_at_index(X86_RBX, X86_RDX, 1, (int32_t)offsetof(rv_cpu, blk.jcache)));
}

/* eax = target pc, already in cpu->pc: jumps to its block's code. First the jump cache; else if
 * the fetch TLB maps the page, the page has blocks and the block is translated (a hit in the TLB
 * is what the interpreter's fetch would find, without side effects; the page becomes the fetch
 * page as its fetch would make it, and the jump goes into the jump cache); else returns to the
 * dispatcher. */
static void emit_lookup(x86_asm *a, struct rv_jit *jit)
{
    uint8_t *miss[6];
    jit->lookup = x86_here(a);
    jcache_entry(a);
    x86_alu32_load(a, X86_CMP, X86_RAX, x86_at(X86_RDX, (int32_t)offsetof(rv_jcache_entry, pc)));
    uint8_t *slow = x86_jcc(a, X86_CC_NE);
    x86_mov64_load(a, X86_RDX, x86_at(X86_RDX, (int32_t)offsetof(rv_jcache_entry, code)));
    x86_jmp_reg(a, X86_RDX);
    x86_patch(slow, x86_here(a));
    x86_mov32(a, X86_RCX, X86_RAX);
    x86_shift32_imm(a, X86_SHR, X86_RCX, RV_PAGE_SHIFT);
    x86_mov32(a, X86_RDX, X86_RCX);
    x86_alu32_imm(a, X86_AND, X86_RDX, RV_TLB_SIZE - 1);
    x86_imul32_imm(a, X86_RDX, X86_RDX, (int32_t)sizeof(rv_tlb_entry));
    x86_lea64(a, X86_RDX,
              x86_at_index(X86_RBX, X86_RDX, 1,
                           (int32_t)(offsetof(rv_cpu, tlb) +
                                     RV_ACCESS_FETCH * sizeof(rv_tlb_entry[RV_TLB_SIZE]))));
    x86_alu32_load(a, X86_CMP, X86_RCX, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, vpn)));
    miss[0] = x86_jcc(a, X86_CC_NE);
    x86_mov64_load(a, X86_RSI, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, code)));
    x86_test64(a, X86_RSI, X86_RSI);
    miss[1] = x86_jcc(a, X86_CC_E);
    x86_mov64_load(a, X86_RDI, x86_at(X86_RSI, (int32_t)offsetof(rv_code_page, blocks)));
    x86_test64(a, X86_RDI, X86_RDI);
    miss[2] = x86_jcc(a, X86_CC_E);
    x86_mov32(a, X86_RCX, X86_RAX);
    x86_alu32_imm(a, X86_AND, X86_RCX, (int32_t)(RV_PAGE_MASK & ~1u));
    x86_mov64_load(a, X86_RDI, x86_at_index(X86_RDI, X86_RCX, 4, 0)); /* blocks[offset / 2] */
    x86_test64(a, X86_RDI, X86_RDI);
    miss[3] = x86_jcc(a, X86_CC_E);
    x86_alu32_load(a, X86_CMP, X86_RAX, x86_at(X86_RDI, (int32_t)offsetof(rv_block, vpc)));
    miss[4] = x86_jcc(a, X86_CC_NE);
    x86_mov64_load(a, X86_RDI, x86_at(X86_RDI, (int32_t)offsetof(rv_block, code)));
    x86_test64(a, X86_RDI, X86_RDI);
    miss[5] = x86_jcc(a, X86_CC_E);
    x86_mov32(a, X86_RCX, X86_RAX);
    x86_alu32_imm(a, X86_AND, X86_RCX, (int32_t)~RV_PAGE_MASK);
    x86_mov32_store(a, CPU(fetch_vpage), X86_RCX);
    x86_mov64_store(a, CPU(fetch_code), X86_RSI);
    x86_mov64_load(a, X86_RCX, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, dmi)));
    x86_mov64_store(a, CPU(fetch_dmi), X86_RCX);
    x86_mov32_load(a, X86_RCX, x86_at(X86_RDX, (int32_t)offsetof(rv_tlb_entry, ppn_base)));
    x86_mov32_store(a, CPU(fetch_ppage), X86_RCX);
    jcache_entry(a);
    x86_mov32_store(a, x86_at(X86_RDX, (int32_t)offsetof(rv_jcache_entry, pc)), X86_RAX);
    x86_mov64_store(a, x86_at(X86_RDX, (int32_t)offsetof(rv_jcache_entry, code)), X86_RDI);
    x86_jmp_reg(a, X86_RDI);
    uint8_t *out = x86_here(a);
    x86_mov32_imm(a, X86_RAX, RV_BLOCK_LEFT);
    x86_jmp_to(a, jit->exit);
    for (unsigned i = 0; i < 6; i++)
        x86_patch(miss[i], out);
}

struct rv_jit *rv_jit_create(size_t code_size, bool huge)
{
    struct rv_jit *jit = calloc(1, sizeof *jit);
    if (!jit)
        return NULL;
    size_t map_size = code_size + (huge ? HUGE_PAGE : 0);
    void *map = mmap(NULL, map_size, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        free(jit);
        return NULL;
    }
    jit->map = map;
    jit->map_size = map_size;
    jit->mem = map;
    if (huge) {
        jit->mem = (uint8_t *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
        (void)madvise(jit->mem, code_size,
                      MADV_HUGEPAGE); /* advice: refused, it runs on 4 KiB pages */
    }
    jit->mem_end = jit->mem + code_size;
    x86_asm a;
    x86_init(&a, jit->mem, jit->mem_end);
    emit_entry_exit(&a, jit);
    emit_lookup(&a, jit);
    if (x86_full(&a)) { /* too small for the stubs */
        munmap(map, map_size);
        free(jit);
        return NULL;
    }
    jit->code_begin = jit->used = x86_here(&a);
    return jit;
}

void rv_jit_destroy(struct rv_jit *jit)
{
    if (!jit)
        return;
    rv_jit_forget(jit);
    munmap(jit->map, jit->map_size);
    free(jit);
}

#else /* no JIT on this host: rv_jit_supported() is false and nothing below is called */

struct rv_jit *rv_jit_create(size_t code_size, bool huge)
{
    (void)code_size;
    (void)huge;
    return NULL;
}
void rv_jit_destroy(struct rv_jit *jit) { (void)jit; }

#endif

void rv_jit_code_reset(struct rv_jit *jit) { jit->used = jit->code_begin; }

void rv_jit_code_space(struct rv_jit *jit, rv_jit_code *code)
{
    code->start = jit->used;
    code->end = jit->mem_end;
    code->exit = jit->exit;
    code->lookup = jit->lookup;
}

void rv_jit_code_used(struct rv_jit *jit, uint8_t *new_start) { jit->used = new_start; }

int rv_jit_run(rv_cpu *cpu, const rv_block *b)
{
    struct rv_jit *jit = cpu->blk.jit;
    jit->inside++; /* a bus callback may let other harts run: the pool is not emptied meanwhile */
    int exit = jit->enter(cpu, b->code);
    jit->inside--;
    return exit;
}
