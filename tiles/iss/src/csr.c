/* CSR file: access rights, WARL legalisation, counters.
 *
 * csr_read/csr_write are the raw accessors (no privilege checks); rv_csr_access adds the checks a
 * csrr* instruction performs. Unknown CSRs are reported as absent so the caller raises illegal
 * instruction. Hardware performance counters 3..31 and their events are read-zero/ignore-writes.
 * PMP registers are plain WARL storage (no PMP checking, granularity 4 bytes).
 * Debug triggers (Sdtrig) are present but report zero triggers: tselect/tdata1-3 read zero and
 * ignore writes, tinfo reads 1 ("type 0: no trigger"), so software can probe them without trapping.
 */
#include "cpu_internal.h"

enum {
    CSR_SSTATUS = 0x100,
    CSR_SIE = 0x104,
    CSR_STVEC = 0x105,
    CSR_SCOUNTEREN = 0x106,
    CSR_SENVCFG = 0x10a,
    CSR_SSCRATCH = 0x140,
    CSR_SEPC = 0x141,
    CSR_SCAUSE = 0x142,
    CSR_STVAL = 0x143,
    CSR_SIP = 0x144,
    CSR_SATP = 0x180,
    CSR_MSTATUS = 0x300,
    CSR_MISA = 0x301,
    CSR_MEDELEG = 0x302,
    CSR_MIDELEG = 0x303,
    CSR_MIE = 0x304,
    CSR_MTVEC = 0x305,
    CSR_MCOUNTEREN = 0x306,
    CSR_MENVCFG = 0x30a,
    CSR_MSTATUSH = 0x310,
    CSR_MENVCFGH = 0x31a,
    CSR_MCOUNTINHIBIT = 0x320,
    CSR_MHPMEVENT3 = 0x323,
    CSR_MHPMEVENT31 = 0x33f,
    CSR_MSCRATCH = 0x340,
    CSR_MEPC = 0x341,
    CSR_MCAUSE = 0x342,
    CSR_MTVAL = 0x343,
    CSR_MIP = 0x344,
    CSR_PMPCFG0 = 0x3a0,
    CSR_PMPCFG3 = 0x3a3,
    CSR_PMPADDR0 = 0x3b0,
    CSR_PMPADDR15 = 0x3bf,
    CSR_MCYCLE = 0xb00,
    CSR_MINSTRET = 0xb02,
    CSR_MHPMCOUNTER3 = 0xb03,
    CSR_MHPMCOUNTER31 = 0xb1f,
    CSR_MCYCLEH = 0xb80,
    CSR_MINSTRETH = 0xb82,
    CSR_MHPMCOUNTER3H = 0xb83,
    CSR_MHPMCOUNTER31H = 0xb9f,
    CSR_CYCLE = 0xc00,
    CSR_TIME = 0xc01,
    CSR_INSTRET = 0xc02,
    CSR_HPMCOUNTER3 = 0xc03,
    CSR_HPMCOUNTER31 = 0xc1f,
    CSR_CYCLEH = 0xc80,
    CSR_TIMEH = 0xc81,
    CSR_INSTRETH = 0xc82,
    CSR_HPMCOUNTER3H = 0xc83,
    CSR_HPMCOUNTER31H = 0xc9f,
    CSR_MVENDORID = 0xf11,
    CSR_MARCHID = 0xf12,
    CSR_MIMPID = 0xf13,
    CSR_MHARTID = 0xf14,
    CSR_MCONFIGPTR = 0xf15,
    CSR_TSELECT = 0x7a0,
    CSR_TDATA1 = 0x7a1,
    CSR_TDATA2 = 0x7a2,
    CSR_TDATA3 = 0x7a3,
    CSR_TINFO = 0x7a4,
};

#define MISA_VALUE \
    (0x40000000u | (1u << 0) | (1u << 2) | (1u << 8) | (1u << 12) | (1u << 18) | (1u << 20))
#define MSTATUS_WRITABLE                                                                   \
    (MSTATUS_SIE | MSTATUS_MIE | MSTATUS_SPIE | MSTATUS_MPIE | MSTATUS_SPP | MSTATUS_MPP | \
     MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR)
#define SSTATUS_MASK          (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR)
#define MEDELEG_WRITABLE      0xb3ffu /* every exception but ecall-from-M (11) and reserved 10, 14 */
#define MIE_WRITABLE          MIP_ALL_MASK
#define MIP_M_WRITABLE        MIP_S_MASK
#define COUNTINHIBIT_WRITABLE 0x5u        /* CY and IR; hpm counters are hard-wired to zero */
#define SATP_WRITABLE         0x803fffffu /* MODE and PPN; ASID is 0 bits wide */
#define PMPCFG_L              0x80u
#define PMPCFG_A_TOR          0x08u

static uint64_t live_cycles(const rv_cpu *cpu)
{
    return (cpu->csr.mcountinhibit & 1u) ? cpu->csr.mcycle_frozen
                                         : cpu->stats.cycles + cpu->csr.mcycle_offset;
}

static uint64_t live_instret(const rv_cpu *cpu)
{
    return (cpu->csr.mcountinhibit & 4u) ? cpu->csr.minstret_frozen
                                         : cpu->stats.instret + cpu->csr.minstret_offset;
}

static void set_cycles(rv_cpu *cpu, uint64_t v)
{
    cpu->csr.mcycle_frozen = v;
    cpu->csr.mcycle_offset = v - cpu->stats.cycles;
}

/* The instret write takes effect after the writing instruction retires, which increments instret
 * once more: compensate so software reads back the value it wrote. */
static void set_instret(rv_cpu *cpu, uint64_t v)
{
    cpu->csr.minstret_frozen = v;
    cpu->csr.minstret_offset = v - cpu->stats.instret - 1u;
}

bool rv_csr_read_raw(const rv_cpu *cpu, uint32_t csr, uint32_t *value)
{
    const rv_csrs *c = &cpu->csr;
    uint32_t v = 0;
    switch (csr) {
    case CSR_SSTATUS: v = c->mstatus & SSTATUS_MASK; break;
    case CSR_SIE: v = c->mie & c->mideleg; break;
    case CSR_STVEC: v = c->stvec; break;
    case CSR_SCOUNTEREN: v = c->scounteren; break;
    case CSR_SENVCFG: v = c->senvcfg; break;
    case CSR_SSCRATCH: v = c->sscratch; break;
    case CSR_SEPC: v = c->sepc; break;
    case CSR_SCAUSE: v = c->scause; break;
    case CSR_STVAL: v = c->stval; break;
    case CSR_SIP: v = rv_pending_interrupts(cpu) & c->mideleg; break;
    case CSR_SATP: v = c->satp; break;
    case CSR_MSTATUS: v = c->mstatus; break;
    case CSR_MISA: v = MISA_VALUE; break;
    case CSR_MEDELEG: v = c->medeleg; break;
    case CSR_MIDELEG: v = c->mideleg; break;
    case CSR_MIE: v = c->mie; break;
    case CSR_MTVEC: v = c->mtvec; break;
    case CSR_MCOUNTEREN: v = c->mcounteren; break;
    case CSR_MENVCFG: v = c->menvcfg; break;
    case CSR_MSTATUSH: v = 0; break;
    case CSR_MENVCFGH: v = c->menvcfgh; break;
    case CSR_MCOUNTINHIBIT: v = c->mcountinhibit; break;
    case CSR_MSCRATCH: v = c->mscratch; break;
    case CSR_MEPC: v = c->mepc; break;
    case CSR_MCAUSE: v = c->mcause; break;
    case CSR_MTVAL: v = c->mtval; break;
    case CSR_MIP: v = rv_pending_interrupts(cpu); break;
    case CSR_MCYCLE:
    case CSR_CYCLE: v = (uint32_t)live_cycles(cpu); break;
    case CSR_MCYCLEH:
    case CSR_CYCLEH: v = (uint32_t)(live_cycles(cpu) >> 32); break;
    case CSR_MINSTRET:
    case CSR_INSTRET: v = (uint32_t)live_instret(cpu); break;
    case CSR_MINSTRETH:
    case CSR_INSTRETH: v = (uint32_t)(live_instret(cpu) >> 32); break;
    case CSR_TIME:
    case CSR_TIMEH:
        if (!cpu->cfg.read_time)
            return false;
        {
            uint64_t t = cpu->cfg.read_time(cpu->cfg.time_ctx);
            v = csr == CSR_TIME ? (uint32_t)t : (uint32_t)(t >> 32);
        }
        break;
    case CSR_MVENDORID:
    case CSR_MARCHID:
    case CSR_MIMPID:
    case CSR_MCONFIGPTR: v = 0; break;
    case CSR_MHARTID: v = cpu->cfg.hart_id; break;
    case CSR_TSELECT:
    case CSR_TDATA1:
    case CSR_TDATA2:
    case CSR_TDATA3: v = 0; break;
    case CSR_TINFO: v = 1; break;
    default:
        if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPCFG3) {
            const uint8_t *b = &c->pmpcfg[(csr - CSR_PMPCFG0) * 4];
            v = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
                ((uint32_t)b[3] << 24);
        } else if (csr >= CSR_PMPADDR0 && csr <= CSR_PMPADDR15) {
            v = c->pmpaddr[csr - CSR_PMPADDR0];
        } else if ((csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) ||
                   (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) ||
                   (csr >= CSR_MHPMCOUNTER3H && csr <= CSR_MHPMCOUNTER31H) ||
                   (csr >= CSR_HPMCOUNTER3 && csr <= CSR_HPMCOUNTER31) ||
                   (csr >= CSR_HPMCOUNTER3H && csr <= CSR_HPMCOUNTER31H)) {
            v = 0;
        } else {
            return false;
        }
        break;
    }
    *value = v;
    return true;
}

static uint32_t legal_tvec(uint32_t old, uint32_t v)
{
    /* modes 2 and 3 are reserved: keep the previous (legal) mode */
    if ((v & 3u) >= 2u)
        v = (v & ~3u) | (old & 3u);
    return v;
}

static void write_pmpcfg(rv_csrs *c, unsigned reg, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++) {
        uint8_t *b = &c->pmpcfg[reg * 4 + i];
        if (*b & PMPCFG_L)
            continue;
        uint8_t nb = (uint8_t)((v >> (8 * i)) & 0x9fu);
        if ((nb & 0x3u) == 0x2u) /* R=0,W=1 is reserved: drop W */
            nb &= (uint8_t)~0x2u;
        *b = nb;
    }
}

static void write_pmpaddr(rv_csrs *c, unsigned i, uint32_t v)
{
    if (c->pmpcfg[i] & PMPCFG_L)
        return;
    if (i + 1 < 16 && (c->pmpcfg[i + 1] & PMPCFG_L) && (c->pmpcfg[i + 1] & 0x18u) == PMPCFG_A_TOR)
        return;
    c->pmpaddr[i] = v;
}

bool rv_csr_write_raw(rv_cpu *cpu, uint32_t csr, uint32_t v)
{
    rv_csrs *c = &cpu->csr;
    switch (csr) {
    case CSR_SSTATUS:
        c->mstatus = (c->mstatus & ~SSTATUS_MASK) | (v & SSTATUS_MASK);
        rv_update_translation_state(cpu);
        break;
    case CSR_SIE: c->mie = (c->mie & ~c->mideleg) | (v & c->mideleg & MIE_WRITABLE); break;
    case CSR_STVEC: c->stvec = legal_tvec(c->stvec, v); break;
    case CSR_SCOUNTEREN: c->scounteren = v; break;
    case CSR_SENVCFG: break; /* no writable fields (no Zicbo*, no Zkr) */
    case CSR_SSCRATCH: c->sscratch = v; break;
    case CSR_SEPC: c->sepc = v & ~1u; break;
    case CSR_SCAUSE: c->scause = v; break;
    case CSR_STVAL: c->stval = v; break;
    case CSR_SIP: {
        uint32_t mask = MIP_SSIP & c->mideleg;
        c->mip = (c->mip & ~mask) | (v & mask);
        break;
    }
    case CSR_SATP:
        c->satp = v & SATP_WRITABLE;
        rv_tlb_flush(cpu);
        rv_update_translation_state(cpu);
        break;
    case CSR_MSTATUS: {
        uint32_t nv = (c->mstatus & ~MSTATUS_WRITABLE) | (v & MSTATUS_WRITABLE);
        if (((nv & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == 2u) /* MPP=2 (H) is not a mode here */
            nv = (nv & ~MSTATUS_MPP) | (c->mstatus & MSTATUS_MPP);
        c->mstatus = nv;
        rv_update_translation_state(cpu);
        break;
    }
    case CSR_MISA: break;
    case CSR_TSELECT:
    case CSR_TDATA1:
    case CSR_TDATA2:
    case CSR_TDATA3:
    case CSR_TINFO: break;
    case CSR_MEDELEG: c->medeleg = v & MEDELEG_WRITABLE; break;
    case CSR_MIDELEG: c->mideleg = v & MIP_S_MASK; break;
    case CSR_MIE: c->mie = v & MIE_WRITABLE; break;
    case CSR_MTVEC: c->mtvec = legal_tvec(c->mtvec, v); break;
    case CSR_MCOUNTEREN: c->mcounteren = v; break;
    case CSR_MENVCFG:
    case CSR_MENVCFGH:
    case CSR_MSTATUSH: break; /* no implemented fields */
    case CSR_MCOUNTINHIBIT: {
        uint64_t cyc = live_cycles(cpu), ins = live_instret(cpu);
        c->mcountinhibit = v & COUNTINHIBIT_WRITABLE;
        c->mcycle_frozen = cyc;
        c->mcycle_offset = cyc - cpu->stats.cycles;
        c->minstret_frozen = ins;
        c->minstret_offset = ins - cpu->stats.instret;
        break;
    }
    case CSR_MSCRATCH: c->mscratch = v; break;
    case CSR_MEPC: c->mepc = v & ~1u; break;
    case CSR_MCAUSE: c->mcause = v; break;
    case CSR_MTVAL: c->mtval = v; break;
    case CSR_MIP: c->mip = (c->mip & ~MIP_M_WRITABLE) | (v & MIP_M_WRITABLE); break;
    case CSR_MCYCLE: set_cycles(cpu, (live_cycles(cpu) & 0xffffffff00000000ull) | v); break;
    case CSR_MCYCLEH:
        set_cycles(cpu, (live_cycles(cpu) & 0xffffffffull) | ((uint64_t)v << 32));
        break;
    case CSR_MINSTRET: set_instret(cpu, (live_instret(cpu) & 0xffffffff00000000ull) | v); break;
    case CSR_MINSTRETH:
        set_instret(cpu, (live_instret(cpu) & 0xffffffffull) | ((uint64_t)v << 32));
        break;
    default:
        if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPCFG3) {
            write_pmpcfg(c, csr - CSR_PMPCFG0, v);
        } else if (csr >= CSR_PMPADDR0 && csr <= CSR_PMPADDR15) {
            write_pmpaddr(c, csr - CSR_PMPADDR0, v);
        } else if ((csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) ||
                   (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) ||
                   (csr >= CSR_MHPMCOUNTER3H && csr <= CSR_MHPMCOUNTER31H)) {
            /* hard-wired zero */
        } else {
            uint32_t dummy;
            return rv_csr_read_raw(cpu, csr, &dummy); /* read-only CSRs: ignore, report presence */
        }
        break;
    }
    return true;
}

/* S/U access to cycle/time/instret/hpmcounterN(h) is gated by mcounteren and scounteren. */
static bool counter_accessible(const rv_cpu *cpu, uint32_t csr)
{
    if (cpu->priv == RV_PRIV_M)
        return true;
    unsigned bit = csr & 0x1fu;
    if (!((cpu->csr.mcounteren >> bit) & 1u))
        return false;
    if (cpu->priv == RV_PRIV_U && !((cpu->csr.scounteren >> bit) & 1u))
        return false;
    return true;
}

bool rv_csr_access(rv_cpu *cpu, const rv_insn *in, enum rv_csr_op op, uint32_t operand,
                   bool do_write, uint32_t *old_value)
{
    uint32_t csr = (uint32_t)in->imm;
    uint32_t old;
    bool ok = ((csr >> 8) & 3u) <= (uint32_t)cpu->priv;
    if (ok && do_write && (csr >> 10) == 3u)
        ok = false;
    if (ok && csr == CSR_SATP && cpu->priv == RV_PRIV_S && (cpu->csr.mstatus & MSTATUS_TVM))
        ok = false;
    if (ok && ((csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31) ||
               (csr >= CSR_CYCLEH && csr <= CSR_HPMCOUNTER31H)))
        ok = counter_accessible(cpu, csr);
    if (ok)
        ok = rv_csr_read_raw(cpu, csr, &old);
    if (!ok) {
        rv_raise_illegal(cpu, in);
        return false;
    }
    if (do_write) {
        /* csrrs/csrrc on mip modify the software-written SEIP bit, not the OR with the input */
        uint32_t base = csr == CSR_MIP ? (old & ~MIP_SEIP) | (cpu->csr.mip & MIP_SEIP) : old;
        uint32_t v = op == RV_CSR_WRITE ? operand
                     : op == RV_CSR_SET ? base | operand
                                        : base & ~operand;
        rv_csr_write_raw(cpu, csr, v);
    }
    *old_value = old;
    return true;
}

void rv_csr_reset(rv_cpu *cpu)
{
    rv_csrs *c = &cpu->csr;
    uint64_t cyc = live_cycles(cpu), ins = live_instret(cpu);
    uint32_t mip_inputs = c->mip & (MIP_MSIP | MIP_MTIP | MIP_MEIP);
    uint32_t seip_input = c->seip_input;
    *c = (rv_csrs){0};
    c->mip = mip_inputs;
    c->seip_input = seip_input;
    /* counters keep counting across reset */
    c->mcycle_offset = cyc - cpu->stats.cycles;
    c->minstret_offset = ins - cpu->stats.instret;
    c->mstatus = (uint32_t)RV_PRIV_M << MSTATUS_MPP_SHIFT;
}
