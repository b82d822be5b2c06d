/* User mode and system calls.
 *
 * main (M-mode) drops to U-mode with mret (mstatus.MPP = U, mepc = user_main) on a separate user
 * stack. The user code makes system calls with ecall (a7 = number, a0.. = arguments, result in
 * a0), and tries to read the machine CSR mstatus, which must trap as an illegal instruction.
 * The M-mode handlers check mcause (8 for ecall from U, 2 for the CSR read) and the previous
 * privilege in mstatus.MPP. The exit system call returns to main with longjmp.
 * Expected: the user's "hello from user mode" line, "user ecall ok"; exit 0 (1 on a failure). */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include "hal/hal.h"

enum { SYS_WRITE = 1, SYS_EXIT = 2 };

#define CSRR_A0_MSTATUS 0x30002573u /* csrr a0, mstatus */

static jmp_buf back_to_machine_mode;
static volatile uint32_t ecall_count, write_count, illegal_count, bad_mode_count;
static volatile uint32_t illegal_tval;
static uint8_t user_stack[2048] __attribute__((aligned(16)));

/* ---- U-mode side: only ecall, no HAL (the devices are M-mode business) ---- */

static long user_syscall(long number, long arg0, long arg1)
{
    register long a0 __asm__("a0") = arg0;
    register long a1 __asm__("a1") = arg1;
    register long a7 __asm__("a7") = number;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
    return a0;
}

static void user_main(void)
{
    static const char msg[] = "hello from user mode\n";
    long written = user_syscall(SYS_WRITE, (long)msg, sizeof msg - 1);

    /* Reading a machine CSR from U-mode must trap; the handler skips it and sets a0 = 0xBAD. */
    register uint32_t value __asm__("a0") = 0;
    __asm__ volatile("csrr a0, mstatus" : "=r"(value));

    user_syscall(SYS_EXIT, written == (long)(sizeof msg - 1) && value == 0xBAD ? 0 : 1, 0);
    for (;;) /* not reached: exit does not return to U-mode */
        ;
}

/* ---- M-mode side ---- */

static int from_user(const trap_frame_t *frame)
{
    return (frame->mstatus & MSTATUS_MPP) == MSTATUS_MPP_U;
}

static void ecall_handler(trap_frame_t *frame)
{
    ecall_count++;
    if (!from_user(frame) || frame->mcause != EXC_ECALL_U)
        bad_mode_count++;
    switch (frame->regs[REG_A7]) {
    case SYS_WRITE:
        /* No MMU in use: user pointers are physical addresses in this tile's SRAM. */
        console_write((const void *)frame->regs[REG_A0], frame->regs[REG_A1]);
        write_count++;
        frame->regs[REG_A0] = frame->regs[REG_A1];
        frame->mepc += 4; /* ecall is never compressed */
        break;
    case SYS_EXIT:
        /* Leave U-mode for good: resume main's setjmp in M-mode, on main's stack. */
        longjmp(back_to_machine_mode, (int)frame->regs[REG_A0] + 1);
    default: frame->regs[REG_A0] = (uint32_t)-1; frame->mepc += 4;
    }
}

static void illegal_handler(trap_frame_t *frame)
{
    if (!from_user(frame))
        trap_fatal(frame); /* an illegal instruction in M-mode is a real bug here */
    illegal_count++;
    illegal_tval = frame->mtval;
    frame->regs[REG_A0] = 0xBAD;
    trap_skip_instruction(frame);
}

/* PMP: with PMP implemented and no entry set, U-mode may access nothing. One NAPOT entry
 * covering the whole address space grants RWX. Cores without PMP raise illegal instruction on
 * these CSRs: tolerated here (then U-mode has full access anyway). */
static volatile int pmp_missing;
static void pmp_probe_handler(trap_frame_t *frame)
{
    pmp_missing = 1;
    trap_skip_instruction(frame);
}

static void pmp_allow_all(void)
{
    trap_set_handler(EXC_ILLEGAL_INSN, pmp_probe_handler);
    csr_write(pmpaddr0, 0xFFFFFFFFu);
    csr_write(pmpcfg0, 0x1Fu); /* A = NAPOT, X, W, R */
    trap_set_handler(EXC_ILLEGAL_INSN, NULL);
}

static __attribute__((noreturn)) void enter_user_mode(void (*entry)(void), void *user_sp)
{
    uint32_t mstatus = csr_read(mstatus);
    mstatus &= ~(MSTATUS_MPP | MSTATUS_MPIE); /* MPP = U, interrupts stay off in U */
    csr_write(mstatus, mstatus);
    csr_write(mepc, (uint32_t)entry);
    /* Traps from U-mode switch to the M-mode stack in mscratch (runtime/trap_entry.S). Traps
     * push below this sp; main's frame above it stays intact for the longjmp. */
    __asm__ volatile("csrw mscratch, sp\n"
                     "mv   sp, %0\n"
                     "mret\n" ::"r"(user_sp)
                     : "memory");
    __builtin_unreachable();
}

int main(void)
{
    /* Single-core test (shared globals and user stack): on an SMP tile the other cores stay out and exit 0. */
    if (tile_core_id() != 0)
        return 0;
    pmp_allow_all();
    trap_set_handler(EXC_ECALL_U, ecall_handler);
    trap_set_handler(EXC_ILLEGAL_INSN, illegal_handler);

    int result = setjmp(back_to_machine_mode);
    if (result == 0)
        enter_user_mode(user_main, user_stack + sizeof user_stack);

    /* Back in M-mode after the exit system call (longjmp from the handler). */
    csr_write(mscratch, 0); /* we were longjmp'ed out of a trap: restore the M-mode convention */
    int user_status = result - 1;
    printf(
        "user exit status %d, %lu ecalls, %lu writes, %lu illegal CSR access (mtval 0x%08lx)%s\n",
        user_status, (unsigned long)ecall_count, (unsigned long)write_count,
        (unsigned long)illegal_count, (unsigned long)illegal_tval, pmp_missing ? ", no PMP" : "");
    if (user_status == 0 && ecall_count == 2 && write_count == 1 && illegal_count == 1 &&
        illegal_tval == CSRR_A0_MSTATUS && bad_mode_count == 0) {
        printf("user ecall ok\n");
        return 0;
    }
    printf("FAIL: user mode test\n");
    return 1;
}
