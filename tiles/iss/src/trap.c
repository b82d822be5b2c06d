/* Trap entry (exceptions and interrupts, with medeleg/mideleg delegation to S mode), interrupt
 * selection, and the trap-return instructions mret/sret. */
#include "cpu_internal.h"

/* Whether a trap with this cause taken now is handled in S mode (delegated) rather than M mode. */
static bool delegated_to_s(const rv_cpu *cpu, uint32_t cause)
{
    uint32_t code = cause & ~RV_INTERRUPT_BIT;
    uint32_t deleg = (cause & RV_INTERRUPT_BIT) ? cpu->csr.mideleg : cpu->csr.medeleg;
    return cpu->priv != RV_PRIV_M && code < 32 && ((deleg >> code) & 1u);
}

static uint32_t vector_target(const rv_cpu *cpu, uint32_t cause, bool to_s)
{
    uint32_t vector = to_s ? cpu->csr.stvec : cpu->csr.mtvec;
    uint32_t target = vector & ~3u;
    if ((vector & 3u) == 1u && (cause & RV_INTERRUPT_BIT))
        target += 4u * (cause & ~RV_INTERRUPT_BIT);
    return target;
}

static void enter_trap(rv_cpu *cpu, uint32_t cause, uint32_t tval)
{
    bool to_s = delegated_to_s(cpu, cause);
    uint32_t target = vector_target(cpu, cause, to_s);
    uint32_t epc = cpu->pc;
    uint32_t *ms = &cpu->csr.mstatus;
    if (to_s) {
        cpu->csr.scause = cause;
        cpu->csr.sepc = epc;
        cpu->csr.stval = tval;
        *ms = (*ms & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE)) |
              (cpu->priv == RV_PRIV_S ? MSTATUS_SPP : 0) | ((*ms & MSTATUS_SIE) ? MSTATUS_SPIE : 0);
        cpu->priv = RV_PRIV_S;
    } else {
        cpu->csr.mcause = cause;
        cpu->csr.mepc = epc;
        cpu->csr.mtval = tval;
        *ms = (*ms & ~(MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_MIE)) |
              ((uint32_t)cpu->priv << MSTATUS_MPP_SHIFT) | ((*ms & MSTATUS_MIE) ? MSTATUS_MPIE : 0);
        cpu->priv = RV_PRIV_M;
    }
    cpu->pc = target;
    /* At least one cycle: a trapping instruction retires nothing and costs no class cycles, so
     * with timing.trap = 0 a handler that traps at once would loop without time moving on, and
     * rv_cpu_run would never reach its budget (a host hang). */
    cpu->stats.cycles += cpu->cfg.timing.trap ? cpu->cfg.timing.trap : 1u;
    cpu->trap_just_taken = true;
    cpu->last_trap_target = target;
    cpu->last_trap_instret = cpu->stats.instret;
    rv_update_translation_state(cpu);
    if (cpu->cfg.on_trap)
        cpu->cfg.on_trap(cpu->cfg.trap_ctx, cpu, cause, epc, tval);
}

void rv_raise(rv_cpu *cpu, uint32_t cause, uint32_t tval)
{
    bool fetch_fault = cause == RV_EXC_INSN_ACCESS || cause == RV_EXC_INSN_PAGE_FAULT ||
                       cause == RV_EXC_INSN_MISALIGNED;
    /* Fetching the first instruction of the handler we just vectored to failed, and delivering
     * this trap would vector to the same place again: it would fail forever. Report a lockup.
     * (A fault that goes to the other mode's handler, e.g. an S handler page fault that M mode
     * handles, is recoverable and delivered normally.) */
    if (fetch_fault && cpu->trap_just_taken && cpu->pc == cpu->last_trap_target &&
        cpu->stats.instret == cpu->last_trap_instret &&
        vector_target(cpu, cause, delegated_to_s(cpu, cause)) == cpu->pc) {
        cpu->locked_up = true;
        cpu->lockup_cause = cause;
        cpu->lockup_pc = cpu->pc;
        cpu->lockup_tval = tval;
        return;
    }
    cpu->stats.exceptions++;
    if (cause < 16)
        cpu->stats.exceptions_by_cause[cause]++;
    enter_trap(cpu, cause, tval);
}

void rv_raise_illegal(rv_cpu *cpu, const rv_insn *in) { rv_raise(cpu, RV_EXC_ILLEGAL, in->raw); }

uint32_t rv_pending_interrupts(const rv_cpu *cpu)
{
    return cpu->csr.mip | (cpu->csr.seip_input ? MIP_SEIP : 0);
}

bool rv_check_interrupts(rv_cpu *cpu)
{
    uint32_t pending = rv_pending_interrupts(cpu) & cpu->csr.mie;
    if (pending == 0)
        return false;
    uint32_t ms = cpu->csr.mstatus;
    bool m_enabled = cpu->priv != RV_PRIV_M || (ms & MSTATUS_MIE);
    bool s_enabled = cpu->priv == RV_PRIV_U || (cpu->priv == RV_PRIV_S && (ms & MSTATUS_SIE));
    uint32_t takeable = (m_enabled ? pending & ~cpu->csr.mideleg : 0) |
                        (s_enabled ? pending & cpu->csr.mideleg : 0);
    if (takeable == 0)
        return false;
    /* M-level interrupts outrank S-level ones, then MEI > MSI > MTI > SEI > SSI > STI */
    uint32_t m_level = takeable & ~cpu->csr.mideleg;
    uint32_t set = m_level ? m_level : takeable;
    static const uint8_t order[6] = {11, 3, 7, 9, 1, 5};
    for (unsigned i = 0; i < 6; i++) {
        if (set & (1u << order[i])) {
            cpu->stats.interrupts++;
            enter_trap(cpu, RV_INTERRUPT_BIT | order[i], 0);
            return true;
        }
    }
    return false;
}

void rv_do_mret(rv_cpu *cpu)
{
    uint32_t ms = cpu->csr.mstatus;
    enum rv_priv prev = (enum rv_priv)((ms & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    ms = (ms & ~(MSTATUS_MIE | MSTATUS_MPP)) | ((ms & MSTATUS_MPIE) ? MSTATUS_MIE : 0) |
         MSTATUS_MPIE;
    if (prev != RV_PRIV_M)
        ms &= ~MSTATUS_MPRV;
    cpu->csr.mstatus = ms;
    cpu->priv = prev;
    cpu->pc = cpu->csr.mepc;
    rv_update_translation_state(cpu);
    if (cpu->cfg.on_trap_return)
        cpu->cfg.on_trap_return(cpu->cfg.trap_ctx, cpu);
}

void rv_do_sret(rv_cpu *cpu)
{
    uint32_t ms = cpu->csr.mstatus;
    enum rv_priv prev = (ms & MSTATUS_SPP) ? RV_PRIV_S : RV_PRIV_U;
    ms = (ms & ~(MSTATUS_SIE | MSTATUS_SPP | MSTATUS_MPRV)) |
         ((ms & MSTATUS_SPIE) ? MSTATUS_SIE : 0) | MSTATUS_SPIE;
    cpu->csr.mstatus = ms;
    cpu->priv = prev;
    cpu->pc = cpu->csr.sepc;
    rv_update_translation_state(cpu);
    if (cpu->cfg.on_trap_return)
        cpu->cfg.on_trap_return(cpu->cfg.trap_ctx, cpu);
}
