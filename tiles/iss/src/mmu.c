/* Address translation (Sv32) and the slow paths of memory accesses.
 *
 * Design choices:
 *  - Misaligned loads, stores and AMOs raise the misaligned exception; they are not emulated
 *    (the privileged spec allows either; software running on the platform must not rely on them).
 *  - Accessed/Dirty bits are updated by hardware: the walker sets A on any access and D on a store,
 *    writing the PTE back through the same path it was read from (DMI or bus). If that write fails
 *    the original access takes an access fault.
 *  - One direct-mapped software TLB per access kind (read, write, fetch). An entry is only filled
 *    after the permission check and the A/D update succeeded, so a hit needs no further checks. It
 *    caches results for the current effective privilege, SUM and MXR, so it is flushed whenever
 *    those change (rv_update_translation_state), on satp writes and on sfence.vma (always fully).
 *    Bare translation (M mode, or satp.MODE = 0) uses the same TLB with identity entries, which
 *    gives loads and stores one fast path whatever the mode.
 */
#include "cpu_internal.h"

#include <string.h>

#define PTE_V          (1u << 0)
#define PTE_R          (1u << 1)
#define PTE_W          (1u << 2)
#define PTE_X          (1u << 3)
#define PTE_U          (1u << 4)
#define PTE_A          (1u << 6)
#define PTE_D          (1u << 7)
#define SATP_MODE_SV32 0x80000000u
#define SATP_PPN_MASK  0x003fffffu

static const uint32_t misaligned_cause[3] = {RV_EXC_LOAD_MISALIGNED, RV_EXC_STORE_MISALIGNED,
                                             RV_EXC_INSN_MISALIGNED};
static const uint32_t access_cause[3] = {RV_EXC_LOAD_ACCESS, RV_EXC_STORE_ACCESS,
                                         RV_EXC_INSN_ACCESS};
static const uint32_t page_fault_cause[3] = {RV_EXC_LOAD_PAGE_FAULT, RV_EXC_STORE_PAGE_FAULT,
                                             RV_EXC_INSN_PAGE_FAULT};

rv_dmi *rv_find_dmi(rv_cpu *cpu, uint32_t paddr, uint32_t len)
{
    rv_dmi *d = cpu->last_dmi;
    if (d && paddr - d->base < d->size && len <= d->size - (paddr - d->base))
        return d;
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        d = &cpu->dmi[i];
        if (paddr - d->base < d->size && len <= d->size - (paddr - d->base)) {
            cpu->last_dmi = d;
            return d;
        }
    }
    return NULL;
}

void rv_tlb_flush(rv_cpu *cpu)
{
    for (unsigned k = 0; k < 3; k++)
        for (unsigned i = 0; i < RV_TLB_SIZE; i++)
            cpu->tlb[k][i].vpn = RV_TLB_INVALID;
    cpu->fetch_vpage = RV_TLB_INVALID;
}

void rv_update_translation_state(rv_cpu *cpu)
{
    uint32_t ms = cpu->csr.mstatus;
    bool paging = (cpu->csr.satp & SATP_MODE_SV32) != 0;
    enum rv_priv data_priv = cpu->priv;
    if (cpu->priv == RV_PRIV_M && (ms & MSTATUS_MPRV))
        data_priv = (enum rv_priv)((ms & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    cpu->data_priv = data_priv;
    cpu->translate_fetch = paging && cpu->priv != RV_PRIV_M;
    cpu->translate_data = paging && data_priv != RV_PRIV_M;
    uint32_t key = (uint32_t)cpu->priv | ((uint32_t)data_priv << 2) | (paging ? 1u << 4 : 0) |
                   ((ms & (MSTATUS_SUM | MSTATUS_MXR)) >> 13);
    if (key != cpu->xlate_key) {
        cpu->xlate_key = key;
        rv_tlb_flush(cpu);
    }
}

bool rv_phys_read(rv_cpu *cpu, uint32_t paddr, uint32_t len, uint32_t *value, enum rv_access kind)
{
    rv_dmi *d = rv_find_dmi(cpu, paddr, len);
    uint32_t v = 0;
    if (d) {
        memcpy(&v, d->host + (paddr - d->base), len);
        if (kind !=
            RV_ACCESS_FETCH) /* instruction fetch from RAM costs nothing extra (docs/timing.md) */
            cpu->stats.cycles += d->read_latency;
    } else {
        uint32_t extra = 0;
        if (cpu->cfg.bus_access(cpu->cfg.bus_ctx, cpu, kind, paddr, &v, len, &extra) != RV_BUS_OK)
            return false;
        cpu->stats.cycles += extra;
    }
    *value = v;
    return true;
}

bool rv_phys_write(rv_cpu *cpu, uint32_t paddr, uint32_t len, uint32_t value)
{
    rv_dmi *d = rv_find_dmi(cpu, paddr, len);
    if (d) {
        memcpy(d->host + (paddr - d->base), &value, len);
        cpu->stats.cycles += d->write_latency;
    } else {
        uint32_t extra = 0;
        if (cpu->cfg.bus_access(cpu->cfg.bus_ctx, cpu, RV_ACCESS_WRITE, paddr, &value, len,
                                &extra) != RV_BUS_OK)
            return false;
        cpu->stats.cycles += extra;
    }
    rv_invalidate_reservations(cpu, paddr, len);
    return true;
}

/* Sv32 page walk. Returns -1 and the physical address, or the exception cause. */
static int walk(rv_cpu *cpu, uint32_t vaddr, enum rv_access kind, enum rv_priv priv,
                uint32_t *paddr)
{
    uint32_t table = (cpu->csr.satp & SATP_PPN_MASK) << RV_PAGE_SHIFT;
    uint32_t ms = cpu->csr.mstatus;
    for (int level = 1; level >= 0; level--) {
        uint32_t vpn = (vaddr >> (RV_PAGE_SHIFT + 10u * (unsigned)level)) & 0x3ffu;
        uint32_t pte_addr = table + vpn * 4u;
        uint32_t pte;
        if (!rv_phys_read(cpu, pte_addr, 4, &pte, RV_ACCESS_READ))
            return (int)access_cause[kind];
        if (!(pte & PTE_V) || (!(pte & PTE_R) && (pte & PTE_W)))
            return (int)page_fault_cause[kind];
        if (pte >> 30) /* PPN beyond the 32-bit physical address space of the tile */
            return (int)access_cause[kind];
        if (!(pte & (PTE_R | PTE_X))) { /* pointer to the next level */
            table = (pte >> 10) << RV_PAGE_SHIFT;
            continue;
        }
        /* leaf: permissions */
        bool ok;
        switch (kind) {
        case RV_ACCESS_FETCH: ok = (pte & PTE_X) != 0; break;
        case RV_ACCESS_WRITE: ok = (pte & PTE_W) != 0; break;
        default: ok = (pte & PTE_R) || ((ms & MSTATUS_MXR) && (pte & PTE_X)); break;
        }
        if (priv == RV_PRIV_U && !(pte & PTE_U))
            ok = false;
        if (priv == RV_PRIV_S && (pte & PTE_U) && (kind == RV_ACCESS_FETCH || !(ms & MSTATUS_SUM)))
            ok = false;
        if (level == 1 && ((pte >> 10) & 0x3ffu) != 0) /* misaligned megapage */
            ok = false;
        if (!ok)
            return (int)page_fault_cause[kind];
        uint32_t want = PTE_A | (kind == RV_ACCESS_WRITE ? PTE_D : 0);
        if ((pte & want) != want) {
            if (!rv_phys_write(cpu, pte_addr, 4, pte | want))
                return (int)access_cause[kind];
        }
        uint32_t base = (pte >> 10) << RV_PAGE_SHIFT;
        if (level == 1)
            *paddr = (base & 0xffc00000u) | (vaddr & 0x003fffffu);
        else
            *paddr = base | (vaddr & RV_PAGE_MASK);
        return -1;
    }
    return (int)page_fault_cause[kind];
}

/* Finds or fills the TLB entry of vaddr's page for kind; NULL after taking the trap. */
static rv_tlb_entry *tlb_entry(rv_cpu *cpu, uint32_t vaddr, enum rv_access kind)
{
    uint32_t vpn = vaddr >> RV_PAGE_SHIFT;
    rv_tlb_entry *e = &cpu->tlb[kind][vpn % RV_TLB_SIZE];
    if (e->vpn == vpn)
        return e;
    uint32_t paddr = vaddr;
    bool translate = kind == RV_ACCESS_FETCH ? cpu->translate_fetch : cpu->translate_data;
    if (translate) {
        enum rv_priv priv = kind == RV_ACCESS_FETCH ? cpu->priv : cpu->data_priv;
        int cause = walk(cpu, vaddr, kind, priv, &paddr);
        if (cause >= 0) {
            rv_raise(cpu, (uint32_t)cause, vaddr);
            return NULL;
        }
    }
    uint32_t page = paddr & ~RV_PAGE_MASK;
    rv_dmi *d = rv_find_dmi(cpu, page, RV_PAGE_SIZE);
    /* A page mapped anew may map elsewhere than the jumps the JIT remembers. This also covers
     * TLB flushes (satp, sfence.vma, privilege): no instruction runs after one before its page is
     * filled in again. */
    if (kind == RV_ACCESS_FETCH)
        rv_jcache_flush(cpu);
    e->vpn = vpn;
    e->ppn_base = page;
    e->host = d ? d->host + (page - d->base) : NULL;
    e->latency = d ? (kind == RV_ACCESS_WRITE ? d->write_latency : d->read_latency) : 0;
    e->dmi = d;
    e->code = NULL;
    return e;
}

bool rv_translate(rv_cpu *cpu, uint32_t vaddr, enum rv_access kind, uint32_t *paddr)
{
    rv_tlb_entry *e = tlb_entry(cpu, vaddr, kind);
    if (!e)
        return false;
    *paddr = e->ppn_base | (vaddr & RV_PAGE_MASK);
    return true;
}

bool rv_load_slow(rv_cpu *cpu, uint32_t vaddr, uint32_t len, uint32_t *value)
{
    if (vaddr & (len - 1u)) {
        rv_raise(cpu, RV_EXC_LOAD_MISALIGNED, vaddr);
        return false;
    }
    rv_tlb_entry *e = tlb_entry(cpu, vaddr, RV_ACCESS_READ);
    if (!e)
        return false;
    uint32_t off = vaddr & RV_PAGE_MASK;
    if (e->host) {
        uint32_t v = 0;
        memcpy(&v, e->host + off, len);
        cpu->stats.cycles += e->latency;
        *value = v;
        return true;
    }
    if (!rv_phys_read(cpu, e->ppn_base | off, len, value, RV_ACCESS_READ)) {
        rv_raise(cpu, RV_EXC_LOAD_ACCESS, vaddr);
        return false;
    }
    return true;
}

bool rv_store_slow(rv_cpu *cpu, uint32_t vaddr, uint32_t len, uint32_t value)
{
    if (vaddr & (len - 1u)) {
        rv_raise(cpu, RV_EXC_STORE_MISALIGNED, vaddr);
        return false;
    }
    rv_tlb_entry *e = tlb_entry(cpu, vaddr, RV_ACCESS_WRITE);
    if (!e)
        return false;
    uint32_t off = vaddr & RV_PAGE_MASK;
    uint32_t paddr = e->ppn_base | off;
    if (e->host) {
        memcpy(e->host + off, &value, len);
        cpu->stats.cycles += e->latency;
        rv_invalidate_reservations(cpu, paddr, len);
        return true;
    }
    if (!rv_phys_write(cpu, paddr, len, value)) {
        rv_raise(cpu, RV_EXC_STORE_ACCESS, vaddr);
        return false;
    }
    return true;
}

rv_tlb_entry *rv_translate_fetch(rv_cpu *cpu, uint32_t vaddr)
{
    return tlb_entry(cpu, vaddr, RV_ACCESS_FETCH);
}

uint32_t rv_misaligned_cause(enum rv_access kind) { return misaligned_cause[kind]; }
