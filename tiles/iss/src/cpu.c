/* Public API glue: creation, reset, DMI registration, interrupt inputs and accessors. */
#include "block.h"
#include "cpu_internal.h"

#include <stdlib.h>
#include <string.h>

rv_cpu *rv_cpu_create(const rv_config *cfg)
{
    if (!cfg || !cfg->bus_access || !cfg->reservations || cfg->hart_id >= RV_MAX_HARTS ||
        (unsigned)cfg->engine > RV_ENGINE_JIT)
        return NULL;
    rv_cpu *cpu = calloc(1, sizeof *cpu);
    if (!cpu)
        return NULL;
    cpu->cfg = *cfg;
    cpu->res = cfg->reservations;
    cpu->hart_bit = 1u << cfg->hart_id;
    cpu->xlate_key = RV_TLB_INVALID;
    rv_blocks_init(cpu, cfg->engine);
    rv_cpu_reset(cpu, cfg->reset_pc);
    return cpu;
}

void rv_cpu_destroy(rv_cpu *cpu)
{
    if (!cpu)
        return;
    rv_decode_cache_free(cpu);
    rv_blocks_free(cpu);
    for (unsigned i = 0; i < cpu->dmi_count; i++)
        free(cpu->dmi[i].code);
    free(cpu);
}

void rv_cpu_reset(rv_cpu *cpu, uint32_t pc)
{
    memset(cpu->x, 0, sizeof cpu->x);
    cpu->pc = pc & ~1u; /* IALIGN is 16: bit 0 of the pc does not exist (as in rv_cpu_set_pc) */
    cpu->priv = RV_PRIV_M;
    rv_csr_reset(cpu);
    cpu->res->valid_mask &= ~cpu->hart_bit;
    cpu->stop_requested = false;
    cpu->trap_just_taken = false;
    cpu->locked_up = false;
    cpu->xlate_key = RV_TLB_INVALID;
    rv_tlb_flush(cpu);
    rv_update_translation_state(cpu);
    rv_decode_cache_flush(cpu); /* the host typically reloads memory before a reset */
}

int rv_cpu_add_dmi(rv_cpu *cpu, uint32_t base, uint32_t size, uint8_t *host, uint32_t read_latency,
                   uint32_t write_latency)
{
    if (cpu->dmi_count >= RV_MAX_DMI || size == 0 || !host ||
        (uint64_t)base + size > 0x100000000ull)
        return -1;
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        const rv_dmi *d = &cpu->dmi[i];
        if (base < d->base + (uint64_t)d->size && d->base < base + (uint64_t)size)
            return -1;
    }
    rv_dmi *d = &cpu->dmi[cpu->dmi_count];
    /* the decode cache covers whole 4 KiB pages of the region (partial pages are fetched uncached) */
    uint32_t pages =
        (uint32_t)(((uint64_t)(base & RV_PAGE_MASK) + size + RV_PAGE_MASK) >> RV_PAGE_SHIFT);
    d->code = calloc(pages, sizeof *d->code);
    if (!d->code)
        return -1;
    d->code_pages = pages;
    d->base = base;
    d->size = size;
    d->host = host;
    d->read_latency = read_latency;
    d->write_latency = write_latency;
    cpu->dmi_count++;
    rv_tlb_flush(cpu); /* bus-only TLB entries may now be DMI */
    /* blocks bound their memory cycles with the largest latency */
    uint32_t lat = read_latency > write_latency ? read_latency : write_latency;
    if (lat > cpu->blk.max_latency)
        cpu->blk.max_latency = lat;
    rv_blocks_drop(cpu);
    return 0;
}

void rv_cpu_flush_decode_cache(rv_cpu *cpu) { rv_decode_cache_flush(cpu); }

rv_engine rv_cpu_engine(const rv_cpu *cpu) { return cpu->blk.engine; }

void rv_cpu_engine_counters(const rv_cpu *cpu, rv_engine_counters *out)
{
    *out = cpu->blk.counters;
}

void rv_cpu_request_stop(rv_cpu *cpu)
{
    cpu->stop_requested = true;
    cpu->run_limit = 0; /* ends the rv_cpu_run loop after the current instruction */
}

void rv_cpu_set_irq(rv_cpu *cpu, enum rv_irq irq, bool level)
{
    if (irq == RV_IRQ_SEIP) {
        cpu->csr.seip_input = level ? MIP_SEIP : 0;
        return;
    }
    if ((unsigned)irq >= 32u)
        return;
    uint32_t bit = 1u << (unsigned)irq;
    if (level)
        cpu->csr.mip |= bit;
    else
        cpu->csr.mip &= ~bit;
}

bool rv_cpu_irq_pending(const rv_cpu *cpu)
{
    return (rv_pending_interrupts(cpu) & cpu->csr.mie) != 0;
}

void rv_cpu_add_cycles(rv_cpu *cpu, uint64_t cycles) { cpu->stats.cycles += cycles; }

uint64_t rv_cpu_cycles(const rv_cpu *cpu) { return cpu->stats.cycles; }
uint64_t rv_cpu_instret(const rv_cpu *cpu) { return cpu->stats.instret; }
uint64_t rv_cpu_steps(const rv_cpu *cpu)
{
    return cpu->stats.instret + cpu->stats.exceptions + cpu->stats.interrupts;
}
const rv_cpu_stats *rv_cpu_get_stats(const rv_cpu *cpu) { return &cpu->stats; }
uint32_t rv_cpu_get_pc(const rv_cpu *cpu) { return cpu->pc; }

void rv_cpu_set_pc(rv_cpu *cpu, uint32_t pc) { cpu->pc = pc & ~1u; }

uint32_t rv_cpu_get_reg(const rv_cpu *cpu, unsigned index)
{
    return index < 32 ? cpu->x[index] : 0;
}

void rv_cpu_set_reg(rv_cpu *cpu, unsigned index, uint32_t value)
{
    if (index > 0 && index < 32)
        cpu->x[index] = value;
}

enum rv_priv rv_cpu_get_priv(const rv_cpu *cpu) { return cpu->priv; }

bool rv_cpu_read_csr(const rv_cpu *cpu, uint32_t csr, uint32_t *value)
{
    return rv_csr_read_raw(cpu, csr, value);
}

bool rv_cpu_write_csr(rv_cpu *cpu, uint32_t csr, uint32_t value)
{
    uint32_t dummy;
    if (csr > 0xfffu || !rv_csr_read_raw(cpu, csr, &dummy))
        return false;
    rv_csr_write_raw(cpu, csr, value);
    /* csr.c compensates minstret writes for the retirement of the writing instruction; a host
     * write retires nothing */
    if (csr == 0xb02u || csr == 0xb82u)
        cpu->csr.minstret_offset += 1u;
    return true;
}

void rv_cpu_lockup(const rv_cpu *cpu, uint32_t *cause, uint32_t *pc, uint32_t *tval)
{
    if (cause)
        *cause = cpu->lockup_cause;
    if (pc)
        *pc = cpu->lockup_pc;
    if (tval)
        *tval = cpu->lockup_tval;
}
