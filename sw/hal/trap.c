/* C side of trap handling: dispatch to registered handlers, default fatal handler. */
#include "hal/trap.h"

#include <stddef.h>

#include "hal/console.h"
#include "hal/csr.h"
#include "hal/simctrl.h"

/* Tables are shared by the cores of a tile (one SRAM). Written rarely, read in the dispatcher. */
static trap_handler_t exception_handlers[TRAP_NUM_CAUSES];
trap_handler_t namp_irq_handlers[TRAP_NUM_CAUSES]; /* set by irq_set_handler (irq.c) */

void trap_set_handler(unsigned cause, trap_handler_t handler)
{
    if (cause < TRAP_NUM_CAUSES)
        __atomic_store_n(&exception_handlers[cause], handler, __ATOMIC_RELEASE);
}

uint32_t trap_instruction_length(const trap_frame_t *frame)
{
    /* Compressed instructions have the two low bits != 0b11. Read only 16 bits: mepc may be
     * 2-byte aligned, and a 32-bit read there would be misaligned (which traps on namp-vp). */
    uint16_t low = *(const volatile uint16_t *)frame->mepc;
    return (low & 3u) == 3u ? 4u : 2u;
}

void trap_skip_instruction(trap_frame_t *frame) { frame->mepc += trap_instruction_length(frame); }

const char *trap_cause_name(uint32_t cause)
{
    static const char *const names[TRAP_NUM_CAUSES] = {
        [EXC_INSN_MISALIGNED] = "instruction address misaligned",
        [EXC_INSN_ACCESS] = "instruction access fault",
        [EXC_ILLEGAL_INSN] = "illegal instruction",
        [EXC_BREAKPOINT] = "breakpoint",
        [EXC_LOAD_MISALIGNED] = "load address misaligned",
        [EXC_LOAD_ACCESS] = "load access fault",
        [EXC_STORE_MISALIGNED] = "store address misaligned",
        [EXC_STORE_ACCESS] = "store access fault",
        [EXC_ECALL_U] = "ecall from U-mode",
        [EXC_ECALL_S] = "ecall from S-mode",
        [EXC_ECALL_M] = "ecall from M-mode",
        [EXC_INSN_PAGE_FAULT] = "instruction page fault",
        [EXC_LOAD_PAGE_FAULT] = "load page fault",
        [EXC_STORE_PAGE_FAULT] = "store page fault",
    };
    if (cause < TRAP_NUM_CAUSES && names[cause])
        return names[cause];
    return "reserved";
}

void trap_fatal(const trap_frame_t *frame)
{
    /* Only console_* here (no stdio): the trap may have happened inside printf. A partial line
     * of the interrupted code would prefix the report on the same console line. */
    uint32_t code = MCAUSE_CODE(frame->mcause);
    uint32_t exit_code;
    console_puts("FATAL TRAP: cause=");
    if (frame->mcause & MCAUSE_INTERRUPT) {
        console_puts("interrupt ");
        console_put_udec(code);
        console_puts(" (no handler)");
        exit_code = TRAP_EXIT_IRQ_BASE + (code & 0xF);
    } else {
        console_put_udec(code);
        console_puts(" (");
        console_puts(trap_cause_name(code));
        console_puts(")");
        exit_code = TRAP_EXIT_BASE + (code < 128 ? code : 127);
    }
    console_puts(" mepc=");
    console_put_hex32(frame->mepc);
    console_puts(" mtval=");
    console_put_hex32(frame->mtval);
    console_putc('\n');
    sim_exit(exit_code);
}

void namp_trap_dispatch(trap_frame_t *frame)
{
    uint32_t code = MCAUSE_CODE(frame->mcause);
    trap_handler_t handler = NULL;
    if (code < TRAP_NUM_CAUSES) {
        trap_handler_t *table =
            (frame->mcause & MCAUSE_INTERRUPT) ? namp_irq_handlers : exception_handlers;
        handler = __atomic_load_n(&table[code], __ATOMIC_ACQUIRE);
    }
    if (!handler)
        trap_fatal(frame);
    handler(frame);
}
