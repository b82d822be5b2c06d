/* Debugger support: a checked run loop and side-effect-free translation (iss/rv32_debug.h).
 *
 * rv_cpu_run_debug steps the hart one instruction at a time through rv_cpu_step and looks at the
 * next instruction before executing it, so breakpoints and watchpoints cost nothing in rv_cpu_run.
 * The instruction is decoded a second time from memory (no decode-cache side effects); its access
 * address is computed from the registers as the executor would.
 */
#include "cpu_internal.h"
#include "iss/rv32_debug.h"

#include <string.h>

#define SATP_MODE_SV32 0x80000000u
#define SATP_PPN_MASK  0x003fffffu
#define PTE_V          (1u << 0)
#define PTE_R          (1u << 1)
#define PTE_X          (1u << 3)

static const uint8_t *dmi_host(const rv_cpu *cpu, uint32_t paddr, uint32_t len)
{
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        const rv_dmi *d = &cpu->dmi[i];
        if (paddr - d->base < d->size && len <= d->size - (paddr - d->base))
            return d->host + (paddr - d->base);
    }
    return NULL;
}

static bool translate(const rv_cpu *cpu, uint32_t vaddr, bool paging, uint32_t *paddr)
{
    if (!paging) {
        *paddr = vaddr;
        return true;
    }
    uint32_t table = (cpu->csr.satp & SATP_PPN_MASK) << RV_PAGE_SHIFT;
    for (int level = 1; level >= 0; level--) {
        uint32_t vpn = (vaddr >> (RV_PAGE_SHIFT + 10u * (unsigned)level)) & 0x3ffu;
        const uint8_t *host = dmi_host(cpu, table + vpn * 4u, 4);
        uint32_t pte;
        if (!host)
            return false;
        memcpy(&pte, host, 4);
        if (!(pte & PTE_V))
            return false;
        if (pte & (PTE_R | PTE_X)) {
            uint32_t base = (pte >> 10) << RV_PAGE_SHIFT;
            *paddr = level == 1 ? (base & 0xffc00000u) | (vaddr & 0x003fffffu)
                                : base | (vaddr & RV_PAGE_MASK);
            return true;
        }
        table = (pte >> 10) << RV_PAGE_SHIFT;
    }
    return false;
}

bool rv_cpu_debug_translate(const rv_cpu *cpu, uint32_t vaddr, uint32_t *paddr)
{
    return translate(cpu, vaddr, cpu->translate_data, paddr);
}

bool rv_peek_code_word(const rv_cpu *cpu, uint32_t vaddr, uint32_t *word)
{
    uint32_t lo_pa, hi_pa;
    const uint8_t *lo, *hi;
    if (!translate(cpu, vaddr, cpu->translate_fetch, &lo_pa) || !(lo = dmi_host(cpu, lo_pa, 2)) ||
        !translate(cpu, vaddr + 2u, cpu->translate_fetch, &hi_pa) ||
        !(hi = dmi_host(cpu, hi_pa, 2)))
        return false;
    *word = (uint32_t)lo[0] | ((uint32_t)lo[1] << 8) | ((uint32_t)hi[0] << 16) |
            ((uint32_t)hi[1] << 24);
    return true;
}

/* Decodes the instruction at the pc without touching the decode cache. False if not in DMI. */
bool rv_peek_insn(const rv_cpu *cpu, rv_insn *out)
{
    uint32_t paddr;
    if (!translate(cpu, cpu->pc, cpu->translate_fetch, &paddr))
        return false;
    const uint8_t *lo = dmi_host(cpu, paddr, 2);
    if (!lo)
        return false;
    uint32_t word = (uint32_t)lo[0] | ((uint32_t)lo[1] << 8);
    if ((word & 3u) == 3u) {
        uint32_t paddr_hi;
        const uint8_t *hi;
        if (!translate(cpu, cpu->pc + 2u, cpu->translate_fetch, &paddr_hi) ||
            !(hi = dmi_host(cpu, paddr_hi, 2)))
            return false;
        word |= ((uint32_t)hi[0] << 16) | ((uint32_t)hi[1] << 24);
    }
    rv_decode(cpu, word, out);
    return true;
}

/* The data access the next instruction makes: kind bits (RV_WATCH_*), address and length. */
static unsigned next_access(const rv_cpu *cpu, uint32_t *addr, uint32_t *len)
{
    rv_insn in;
    if (!rv_peek_insn(cpu, &in))
        return 0;
    uint32_t base = cpu->x[in.rs1];
    switch ((enum rv_op)in.op) {
    case RV_OP_LB:
    case RV_OP_LBU: *len = 1; break;
    case RV_OP_LH:
    case RV_OP_LHU: *len = 2; break;
    case RV_OP_LW: *len = 4; break;
    case RV_OP_SB:
        *addr = base + (uint32_t)in.imm;
        *len = 1;
        return RV_WATCH_WRITE;
    case RV_OP_SH:
        *addr = base + (uint32_t)in.imm;
        *len = 2;
        return RV_WATCH_WRITE;
    case RV_OP_SW:
        *addr = base + (uint32_t)in.imm;
        *len = 4;
        return RV_WATCH_WRITE;
    case RV_OP_LR:
        *addr = base;
        *len = 4;
        return RV_WATCH_READ;
    case RV_OP_SC:
        *addr = base;
        *len = 4;
        return RV_WATCH_WRITE;
    case RV_OP_AMOSWAP:
    case RV_OP_AMOADD:
    case RV_OP_AMOXOR:
    case RV_OP_AMOAND:
    case RV_OP_AMOOR:
    case RV_OP_AMOMIN:
    case RV_OP_AMOMAX:
    case RV_OP_AMOMINU:
    case RV_OP_AMOMAXU:
        *addr = base;
        *len = 4;
        return RV_WATCH_ACCESS;
    default: return 0;
    }
    *addr = base + (uint32_t)in.imm; /* loads */
    return RV_WATCH_READ;
}

static bool check_points(const rv_cpu *cpu, const rv_debug_points *p, rv_debug_hit *hit)
{
    for (unsigned i = 0; i < p->breakpoint_count; i++) {
        if (p->breakpoints[i] == cpu->pc) {
            hit->reason = RV_DEBUG_BREAKPOINT;
            return true;
        }
    }
    if (p->watchpoint_count == 0)
        return false;
    uint32_t addr = 0, len = 0;
    unsigned kind = next_access(cpu, &addr, &len);
    if (!kind)
        return false;
    for (unsigned i = 0; i < p->watchpoint_count; i++) {
        const rv_watchpoint *w = &p->watchpoints[i];
        /* overlap of [addr, addr+len) and [w->addr, w->addr+w->len), wrap-safe */
        bool overlap = addr - w->addr < w->len || w->addr - addr < len;
        if (overlap && (kind & w->kind)) {
            hit->reason = RV_DEBUG_WATCHPOINT;
            hit->watch_kind = w->kind;
            hit->watch_addr = w->addr;
            return true;
        }
    }
    return false;
}

static rv_run_status run_checked(rv_cpu *cpu, uint64_t cycle_limit, const rv_debug_points *points,
                                 bool skip_first, bool single_step, rv_debug_hit *hit)
{
    bool check = !skip_first;
    do {
        if (points) {
            /* The target is where the replay stops, whatever else would: it comes first. */
            if (points->has_target && rv_cpu_steps(cpu) >= points->target_steps) {
                hit->reason = RV_DEBUG_TARGET;
                return RV_RUN_DEBUG;
            }
            if (points->leave_code_watch && !rv_code_watch_contains(cpu, cpu->pc))
                return RV_RUN_WATCH;
            if (check && check_points(cpu, points, hit))
                return RV_RUN_DEBUG;
            if (points->on_insn) {
                rv_insn in;
                points->on_insn(points->insn_ctx, cpu->pc, rv_peek_insn(cpu, &in) ? in.raw : 0u);
            }
        }
        check = true;
        rv_run_status s = rv_cpu_step(cpu);
        if (points && points->after_insn)
            points->after_insn(points->insn_ctx);
        if (s != RV_RUN_BUDGET)
            return s;
        if (single_step) {
            hit->reason = RV_DEBUG_STEP;
            return RV_RUN_DEBUG;
        }
    } while (cpu->stats.cycles < cycle_limit);
    return RV_RUN_BUDGET;
}

rv_run_status rv_cpu_run_debug(rv_cpu *cpu, uint64_t cycle_limit, const rv_debug_points *points,
                               bool skip_first, bool single_step, rv_debug_hit *hit)
{
    hit->reason = RV_DEBUG_NONE;
    if (cpu->locked_up)
        return RV_RUN_LOCKUP;
    cpu->code_watch_suspended = true;
    rv_run_status s = run_checked(cpu, cycle_limit, points, skip_first, single_step, hit);
    cpu->code_watch_suspended = false;
    /* Outside this loop a watched page is never the fetch page (the fast loops would run it). */
    if (cpu->code_watch_count && cpu->fetch_vpage != RV_TLB_INVALID &&
        rv_code_watch_contains(cpu, cpu->fetch_vpage))
        cpu->fetch_vpage = RV_TLB_INVALID;
    return s;
}

bool rv_code_watch_contains(const rv_cpu *cpu, uint32_t pc)
{
    uint32_t page = pc >> RV_PAGE_SHIFT;
    for (unsigned i = 0; i < cpu->code_watch_count; i++)
        if (page >= cpu->code_watch[i][0] && page <= cpu->code_watch[i][1])
            return true;
    return false;
}

bool rv_cpu_code_watched(const rv_cpu *cpu, uint32_t pc)
{
    return cpu->code_watch_count != 0 && rv_code_watch_contains(cpu, pc);
}

int rv_cpu_set_code_watch(rv_cpu *cpu, const uint32_t *ranges, unsigned count)
{
    if (count > RV_MAX_CODE_WATCH)
        return -1;
    unsigned n = 0;
    for (unsigned i = 0; i < count; i++) {
        uint32_t from = ranges[2 * i], to = ranges[2 * i + 1];
        if (to <= from)
            continue;
        cpu->code_watch[n][0] = from >> RV_PAGE_SHIFT;
        cpu->code_watch[n][1] = (to - 1u) >> RV_PAGE_SHIFT;
        n++;
    }
    cpu->code_watch_count = n;
    /* Host caches only: the fetch TLB's code pages (translations, and so simulated time, stay),
     * the jump cache of translated code and the current fetch page. */
    for (unsigned i = 0; i < RV_TLB_SIZE; i++)
        cpu->tlb[RV_ACCESS_FETCH][i].code = NULL;
    rv_jcache_flush(cpu);
    cpu->fetch_vpage = RV_TLB_INVALID;
    return 0;
}

bool rv_cpu_debug_next_write(const rv_cpu *cpu, uint32_t *vaddr, uint32_t *len, uint32_t *value)
{
    rv_insn in;
    if (!rv_peek_insn(cpu, &in))
        return false;
    uint32_t base = cpu->x[in.rs1], src = cpu->x[in.rs2];
    switch ((enum rv_op)in.op) {
    case RV_OP_SB:
        *vaddr = base + (uint32_t)in.imm;
        *len = 1;
        *value = src & 0xffu;
        return true;
    case RV_OP_SH:
        *vaddr = base + (uint32_t)in.imm;
        *len = 2;
        *value = src & 0xffffu;
        return true;
    case RV_OP_SW:
        *vaddr = base + (uint32_t)in.imm;
        *len = 4;
        *value = src;
        return true;
    case RV_OP_LR: return false;
    default: break;
    }
    if (in.op < RV_OP_SC || in.op > RV_OP_AMOMAXU)
        return false;
    uint32_t pa;
    *vaddr = base;
    *len = 4;
    if (!translate(cpu, base, cpu->translate_data, &pa))
        return false;
    if (in.op == RV_OP_SC) {
        bool reserved =
            (cpu->res->valid_mask & cpu->hart_bit) && cpu->res->addr[cpu->cfg.hart_id] == pa;
        *value = src;
        return reserved;
    }
    const uint8_t *host = dmi_host(cpu, pa, 4);
    if (!host)
        return false;
    uint32_t old;
    memcpy(&old, host, 4);
    switch ((enum rv_op)in.op) {
    case RV_OP_AMOSWAP: *value = src; break;
    case RV_OP_AMOADD: *value = old + src; break;
    case RV_OP_AMOXOR: *value = old ^ src; break;
    case RV_OP_AMOAND: *value = old & src; break;
    case RV_OP_AMOOR: *value = old | src; break;
    case RV_OP_AMOMIN: *value = (int32_t)old < (int32_t)src ? old : src; break;
    case RV_OP_AMOMAX: *value = (int32_t)old > (int32_t)src ? old : src; break;
    case RV_OP_AMOMINU: *value = old < src ? old : src; break;
    default: *value = old > src ? old : src; break;
    }
    return true;
}
