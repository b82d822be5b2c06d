/* The interpreter: one switch over the compact op enum per instruction, fetched from the decode
 * cache. It is the reference of the block engines (block_run.c), which call it for every
 * instruction that is not in a block. Loads and stores hit the software TLB's host pointer directly when the page is DMI memory
 * and the access is aligned; everything else goes to the slow paths in mmu.c.
 *
 * LR/SC/AMO to non-DMI (device) addresses are performed through the bus callback as a read followed
 * by a write: that is how a device observes a read-modify-write. They are atomic with respect to
 * other harts because the host runs harts cooperatively (never preempting inside an instruction).
 */
#include "block.h"
#include "cpu_internal.h"

#include <string.h>

#define STEP_CONTINUE RV_STEP_CONTINUE

/* Loads: fast path through the read TLB, else the slow path (which may trap). */
#define LOAD(len, convert)                                                                       \
    do {                                                                                         \
        uint32_t a_ = x[in->rs1] + (uint32_t)in->imm;                                            \
        unsigned rd_ = in->rd;                                                                   \
        const rv_tlb_entry *e_ = &cpu->tlb[RV_ACCESS_READ][(a_ >> RV_PAGE_SHIFT) % RV_TLB_SIZE]; \
        uint32_t v_ = 0;                                                                         \
        if (RV_LIKELY(e_->vpn == (a_ >> RV_PAGE_SHIFT) && e_->host && !(a_ & ((len)-1u)))) {     \
            memcpy(&v_, e_->host + (a_ & RV_PAGE_MASK), (len));                                  \
            cpu->stats.cycles += e_->latency;                                                    \
        } else if (!rv_load_slow(cpu, a_, (len), &v_)) {                                         \
            return trap_taken(cpu);                                                              \
        }                                                                                        \
        x[rd_] = convert(v_);                                                                    \
        cpu->stats.loads++;                                                                      \
    } while (0)

#define STORE(len)                                                                                \
    do {                                                                                          \
        uint32_t a_ = x[in->rs1] + (uint32_t)in->imm;                                             \
        uint32_t v_ = x[in->rs2];                                                                 \
        const rv_tlb_entry *e_ = &cpu->tlb[RV_ACCESS_WRITE][(a_ >> RV_PAGE_SHIFT) % RV_TLB_SIZE]; \
        if (RV_LIKELY(e_->vpn == (a_ >> RV_PAGE_SHIFT) && e_->host && !(a_ & ((len)-1u)))) {      \
            memcpy(e_->host + (a_ & RV_PAGE_MASK), &v_, (len));                                   \
            cpu->stats.cycles += e_->latency;                                                     \
            rv_invalidate_reservations(cpu, e_->ppn_base | (a_ & RV_PAGE_MASK), (len));           \
        } else if (!rv_store_slow(cpu, a_, (len), v_)) {                                          \
            return trap_taken(cpu);                                                               \
        }                                                                                         \
        cpu->stats.stores++;                                                                      \
    } while (0)

#define BRANCH(cond)                                                                \
    do {                                                                            \
        if (cond) {                                                                 \
            next_pc = pc + (uint32_t)in->imm;                                       \
            cpu->stats.cycles += (uint64_t)cpu->cfg.timing.branch_taken - in->cost; \
            cpu->stats.branches_taken++;                                            \
        } else {                                                                    \
            cpu->stats.branches_not_taken++;                                        \
        }                                                                           \
    } while (0)

static int trap_taken(rv_cpu *cpu) { return cpu->locked_up ? (int)RV_RUN_LOCKUP : STEP_CONTINUE; }

/* No instruction came from the fetch: it trapped, or its page is watched (rv_cpu_set_code_watch). */
static int no_insn(rv_cpu *cpu)
{
    if (RV_UNLIKELY(cpu->code_watch_hit)) {
        cpu->code_watch_hit = false;
        return RV_RUN_WATCH;
    }
    return trap_taken(cpu);
}

/* slli x0,x0,0x1f; ebreak; srai x0,x0,7: the RISC-V semihosting call (all three 32-bit). */
static bool semihosting_call(rv_cpu *cpu, const rv_insn *in, uint32_t pc)
{
    uint32_t before, after;
    if (in->len != 4 || !rv_peek_code_word(cpu, pc - 4u, &before) || before != 0x01f01013u ||
        !rv_peek_code_word(cpu, pc + 4u, &after) || after != 0x40705013u)
        return false;
    return cpu->cfg.semihost(cpu->cfg.semihost_ctx, cpu);
}

static int illegal(rv_cpu *cpu, const rv_insn *in)
{
    rv_raise_illegal(cpu, in);
    return trap_taken(cpu);
}

/* lr.w, sc.w and amo*.w. Returns false after taking a trap. */
static bool atomic_op(rv_cpu *cpu, const rv_insn *in)
{
    uint32_t *x = cpu->x;
    uint32_t vaddr = x[in->rs1];
    uint32_t src = x[in->rs2];
    unsigned rd = in->rd; /* read before any bus callback (see exec_insn) */
    enum rv_op op = (enum rv_op)in->op;
    bool is_lr = op == RV_OP_LR;
    enum rv_access kind = is_lr ? RV_ACCESS_READ : RV_ACCESS_WRITE;
    uint32_t paddr, old = 0;
    cpu->stats.atomics++;
    if (vaddr & 3u) {
        rv_raise(cpu, rv_misaligned_cause(kind), vaddr);
        return false;
    }
    if (!rv_translate(cpu, vaddr, kind, &paddr))
        return false;
    uint32_t hart = cpu->cfg.hart_id;
    if (is_lr) {
        if (!rv_phys_read(cpu, paddr, 4, &old, RV_ACCESS_READ)) {
            rv_raise(cpu, RV_EXC_LOAD_ACCESS, vaddr);
            return false;
        }
        cpu->res->addr[hart] = paddr;
        cpu->res->valid_mask |= cpu->hart_bit;
        x[rd] = old;
        return true;
    }
    if (op == RV_OP_SC) {
        bool reserved = (cpu->res->valid_mask & cpu->hart_bit) && cpu->res->addr[hart] == paddr;
        cpu->res->valid_mask &= ~cpu->hart_bit;
        if (reserved && !rv_phys_write(cpu, paddr, 4, src)) {
            rv_raise(cpu, RV_EXC_STORE_ACCESS, vaddr);
            return false;
        }
        x[rd] = reserved ? 0u : 1u;
        return true;
    }
    if (!rv_phys_read(cpu, paddr, 4, &old, RV_ACCESS_READ)) {
        rv_raise(cpu, RV_EXC_STORE_ACCESS, vaddr);
        return false;
    }
    uint32_t result;
    switch (op) {
    case RV_OP_AMOSWAP: result = src; break;
    case RV_OP_AMOADD: result = old + src; break;
    case RV_OP_AMOXOR: result = old ^ src; break;
    case RV_OP_AMOAND: result = old & src; break;
    case RV_OP_AMOOR: result = old | src; break;
    case RV_OP_AMOMIN: result = (int32_t)old < (int32_t)src ? old : src; break;
    case RV_OP_AMOMAX: result = (int32_t)old > (int32_t)src ? old : src; break;
    case RV_OP_AMOMINU: result = old < src ? old : src; break;
    default: result = old > src ? old : src; break; /* amomaxu */
    }
    if (!rv_phys_write(cpu, paddr, 4, result)) {
        rv_raise(cpu, RV_EXC_STORE_ACCESS, vaddr);
        return false;
    }
    x[rd] = old;
    return true;
}

/* Executes the instruction at the pc (or takes its fetch trap), without the interrupt check that
 * precedes it in step_one. Returns STEP_CONTINUE or an rv_run_status. */
static RV_ALWAYS_INLINE int exec_insn(rv_cpu *cpu)
{
    uint32_t *x = cpu->x;
    uint32_t pc = cpu->pc;
    /* The decode cache is flushed by zeroing (never freeing) its pages, so `in` stays readable even
     * if the host flushes from inside a bus callback; fields needed after a callback are read first. */
    const rv_insn *in;
    if (RV_LIKELY((pc & ~RV_PAGE_MASK) == cpu->fetch_vpage)) {
        rv_insn *slot = &cpu->fetch_code->slot[(pc & RV_PAGE_MASK) >> 1];
        in = RV_LIKELY(slot->op != RV_OP_UNDECODED) ? slot : rv_fill_slot(cpu, slot);
    } else {
        in = rv_fetch_slow(cpu);
    }
    if (RV_UNLIKELY(!in))
        return no_insn(cpu);

    uint32_t next_pc = pc + in->len;
    cpu->stats.cycles += in->cost;
    uint32_t old;
    switch ((enum rv_op)in->op) {
    case RV_OP_LUI: x[in->rd] = (uint32_t)in->imm; break;
    case RV_OP_AUIPC: x[in->rd] = pc + (uint32_t)in->imm; break;
    case RV_OP_JAL:
        x[in->rd] = next_pc;
        next_pc = pc + (uint32_t)in->imm;
        break;
    case RV_OP_JALR: {
        uint32_t target = (x[in->rs1] + (uint32_t)in->imm) & ~1u;
        x[in->rd] = next_pc;
        next_pc = target;
        break;
    }
#define COUNT_MUL cpu->stats.muls++
#define COUNT_DIV cpu->stats.divs++
#include "insn_cases.h"
#undef COUNT_MUL
#undef COUNT_DIV
    case RV_OP_FENCE: break;
    case RV_OP_FENCE_I: rv_decode_cache_flush(cpu); break;
    case RV_OP_ECALL:
        rv_raise(cpu,
                 cpu->priv == RV_PRIV_U   ? RV_EXC_ECALL_U
                 : cpu->priv == RV_PRIV_S ? RV_EXC_ECALL_S
                                          : RV_EXC_ECALL_M,
                 0);
        return trap_taken(cpu);
    case RV_OP_EBREAK:
        if (cpu->cfg.semihost && semihosting_call(cpu, in, pc))
            break; /* retires like a nop; the host wrote the result to a0 */
        rv_raise(cpu, RV_EXC_BREAKPOINT, pc);
        return trap_taken(cpu);
    case RV_OP_MRET:
        if (cpu->priv != RV_PRIV_M)
            return illegal(cpu, in);
        rv_do_mret(cpu);
        next_pc = cpu->pc;
        break;
    case RV_OP_SRET:
        if (cpu->priv == RV_PRIV_U || (cpu->priv == RV_PRIV_S && (cpu->csr.mstatus & MSTATUS_TSR)))
            return illegal(cpu, in);
        rv_do_sret(cpu);
        next_pc = cpu->pc;
        break;
    case RV_OP_WFI:
        /* wfi in U mode is always illegal here; in S mode only with TW (no timeout is modelled) */
        if (cpu->priv == RV_PRIV_U || (cpu->priv == RV_PRIV_S && (cpu->csr.mstatus & MSTATUS_TW)))
            return illegal(cpu, in);
        cpu->stats.wfi_count++;
        cpu->pc = next_pc;
        cpu->stats.instret++;
        return rv_cpu_irq_pending(cpu) ? STEP_CONTINUE : (int)RV_RUN_WFI;
    case RV_OP_SFENCE_VMA:
        if (cpu->priv == RV_PRIV_U || (cpu->priv == RV_PRIV_S && (cpu->csr.mstatus & MSTATUS_TVM)))
            return illegal(cpu, in);
        rv_tlb_flush(cpu);
        break;
    case RV_OP_CSRRW:
        if (!rv_csr_access(cpu, in, RV_CSR_WRITE, x[in->rs1], true, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_CSRRS:
        if (!rv_csr_access(cpu, in, RV_CSR_SET, x[in->rs1], in->rs1 != 0, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_CSRRC:
        if (!rv_csr_access(cpu, in, RV_CSR_CLEAR, x[in->rs1], in->rs1 != 0, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_CSRRWI:
        if (!rv_csr_access(cpu, in, RV_CSR_WRITE, in->rs1, true, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_CSRRSI:
        if (!rv_csr_access(cpu, in, RV_CSR_SET, in->rs1, in->rs1 != 0, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_CSRRCI:
        if (!rv_csr_access(cpu, in, RV_CSR_CLEAR, in->rs1, in->rs1 != 0, &old))
            return trap_taken(cpu);
        x[in->rd] = old;
        break;
    case RV_OP_LR:
    case RV_OP_SC:
    case RV_OP_AMOSWAP:
    case RV_OP_AMOADD:
    case RV_OP_AMOXOR:
    case RV_OP_AMOAND:
    case RV_OP_AMOOR:
    case RV_OP_AMOMIN:
    case RV_OP_AMOMAX:
    case RV_OP_AMOMINU:
    case RV_OP_AMOMAXU:
        if (!atomic_op(cpu, in))
            return trap_taken(cpu);
        break;
    case RV_OP_ILLEGAL:
    case RV_OP_UNDECODED:
    case RV_OP_COUNT:
    default: return illegal(cpu, in);
    }
    cpu->pc = next_pc;
    cpu->stats.instret++;
    return STEP_CONTINUE;
}

/* Takes a pending enabled interrupt, or executes one instruction. */
static RV_ALWAYS_INLINE int step_one(rv_cpu *cpu)
{
    if (RV_UNLIKELY((cpu->csr.mip | cpu->csr.seip_input) & cpu->csr.mie)) {
        if (rv_check_interrupts(cpu))
            return STEP_CONTINUE;
    }
    return exec_insn(cpu);
}

int rv_exec_insn(rv_cpu *cpu) { return exec_insn(cpu); }

int rv_step_insn(rv_cpu *cpu) { return step_one(cpu); }

static rv_run_status stopped_or(rv_cpu *cpu, rv_run_status otherwise)
{
    if (cpu->stop_requested) {
        cpu->stop_requested = false;
        return RV_RUN_STOPPED;
    }
    return otherwise;
}

rv_run_status rv_cpu_run(rv_cpu *cpu, uint64_t cycle_limit)
{
    if (cpu->locked_up)
        return RV_RUN_LOCKUP;
    if (cpu->stop_requested) {
        cpu->stop_requested = false;
        return RV_RUN_STOPPED;
    }
    /* rv_cpu_request_stop (only possible from inside a callback) zeroes run_limit, so one compare
     * per instruction covers both the budget and stop requests. */
    cpu->run_limit = cycle_limit;
    if (cpu->blk.engine != RV_ENGINE_INTERPRETER) {
        int status = rv_block_engine_run(cpu);
        if (status != STEP_CONTINUE)
            return (rv_run_status)status;
        return stopped_or(cpu, RV_RUN_BUDGET);
    }
    while (cpu->stats.cycles < cpu->run_limit) {
        int status = step_one(cpu);
        if (RV_UNLIKELY(status != STEP_CONTINUE))
            return (rv_run_status)status;
    }
    return stopped_or(cpu, RV_RUN_BUDGET);
}

rv_run_status rv_cpu_step(rv_cpu *cpu)
{
    if (cpu->locked_up)
        return RV_RUN_LOCKUP;
    int status = step_one(cpu);
    return status == STEP_CONTINUE ? stopped_or(cpu, RV_RUN_BUDGET) : (rv_run_status)status;
}
