/* SDK smoke test on QEMU (qemu-system-riscv32 -machine virt -smp 4 -bios none): runs the real
 * start-up code, trap entry and HAL on another RISC-V implementation, independent of namp-vp.
 * Checks SMP boot and TLS, amoadd and LR/SC spinlock counters, the tile barrier, an IPI, handled
 * load/store/illegal-instruction traps, a nested trap, U-mode with ecall and an illegal CSR access,
 * timer interrupts and malloc. Prints one line per check and "sdk smoke ok"; exit 0 (1 on failure).
 * Addresses differ from the namp-vp tests: on virt 0x30000000/0x40000000 are PCIe, 0x01000000 is
 * unmapped. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hal/hal.h"

#define UNMAPPED   0x01000000u
#define ITERATIONS 10000u

static int failures;
static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

/* ---- SMP ---- */
static volatile uint32_t counter_amo, counter_lock, ipi_ready, ipi_received;
static spinlock_t lock = SPINLOCK_INIT;

static void msi_handler(trap_frame_t *frame)
{
    (void)frame;
    ipi_clear(hart_id());
    ipi_received = 1;
}

/* ---- traps ---- */
static volatile uint32_t seen_cause, seen_tval, seen_count;
static void record_and_skip(trap_frame_t *frame)
{
    seen_cause = frame->mcause;
    seen_tval = frame->mtval;
    seen_count++;
    trap_skip_instruction(frame);
}
static int took(uint32_t cause, uint32_t tval)
{
    int ok = seen_count == 1 && seen_cause == cause && seen_tval == tval;
    seen_count = 0;
    return ok;
}

static volatile uint32_t inner_count, outer_ok;
static void nested_inner(trap_frame_t *frame)
{
    inner_count++;
    trap_skip_instruction(frame);
}
static void nested_outer(trap_frame_t *frame)
{
    uint32_t mepc = frame->mepc;
    __asm__ volatile(".4byte 0x0000000b");
    outer_ok = inner_count == 1 && frame->mepc == mepc && frame->mcause == EXC_LOAD_ACCESS;
    trap_skip_instruction(frame);
}

/* ---- U-mode ---- */
static jmp_buf machine_mode;
static uint8_t user_stack[1024] __attribute__((aligned(16)));
static volatile uint32_t user_written, user_illegal_tval;

static long user_ecall(long number, long arg)
{
    register long a0 __asm__("a0") = arg;
    register long a7 __asm__("a7") = number;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}
static void user_main(void)
{
    long r = user_ecall(1, 5);
    register long v __asm__("a0");
    __asm__ volatile("csrr a0, mstatus" : "=r"(v));
    user_ecall(2, r == 5 && v == 0xBAD ? 7 : 9);
}
static void ecall_handler(trap_frame_t *frame)
{
    if ((frame->mstatus & MSTATUS_MPP) != MSTATUS_MPP_U)
        trap_fatal(frame);
    if (frame->regs[REG_A7] == 2)
        longjmp(machine_mode, (int)frame->regs[REG_A0]);
    user_written = frame->regs[REG_A0];
    frame->mepc += 4;
}
static void user_illegal(trap_frame_t *frame)
{
    user_illegal_tval = frame->mtval;
    frame->regs[REG_A0] = 0xBAD;
    trap_skip_instruction(frame);
}

/* ---- timer ---- */
static volatile uint32_t ticks;
static uint64_t next_compare;
static void timer_handler(trap_frame_t *frame)
{
    (void)frame;
    if (++ticks < 5) {
        next_compare += 1000;
        timer_set_compare(next_compare);
    } else {
        timer_disarm();
    }
}

static void secondary(uint32_t hart)
{
    if (hart == 1) {
        irq_set_handler(IRQ_M_SOFT, msi_handler);
        irq_enable(IRQ_M_SOFT);
        irq_global_enable();
        ipi_ready = 1;
        while (!ipi_received)
            wait_for_interrupt();
        irq_global_disable();
    }
}

int main(void)
{
    uint32_t hart = hart_id();
    errno = (int)hart; /* TLS: each hart has its own errno */
    for (uint32_t i = 0; i < ITERATIONS; i++) {
        atomic_fetch_add_u32(&counter_amo, 1);
        spin_lock(&lock);
        counter_lock = counter_lock + 1;
        spin_unlock(&lock);
    }
    tile_barrier();
    int errno_ok = errno == (int)hart;
    if (hart != 0) {
        secondary(hart);
        return errno_ok ? 0 : 1;
    }

    check(errno_ok, "per-hart TLS (errno)");
    check(counter_amo == SMOKE_HARTS * ITERATIONS, "amoadd counter");
    check(counter_lock == SMOKE_HARTS * ITERATIONS, "LR/SC spinlock counter");
    if (SMOKE_HARTS > 1) {
        while (!ipi_ready)
            ;
        ipi_send(1);
        uint64_t deadline = timer_now() + 10000000u;
        while (!ipi_received && timer_now() < deadline)
            ;
        check(ipi_received, "IPI to hart 1");
    }

    trap_set_handler(EXC_LOAD_ACCESS, record_and_skip);
    trap_set_handler(EXC_STORE_ACCESS, record_and_skip);
    trap_set_handler(EXC_ILLEGAL_INSN, record_and_skip);
    (void)*(volatile uint32_t *)UNMAPPED;
    check(took(EXC_LOAD_ACCESS, UNMAPPED), "load access fault handled");
    *(volatile uint32_t *)(UNMAPPED + 4) = 1;
    check(took(EXC_STORE_ACCESS, UNMAPPED + 4), "store access fault handled");
    __asm__ volatile(".4byte 0xc0de000b");
    check(took(EXC_ILLEGAL_INSN, 0xc0de000bu), "illegal instruction handled");

    trap_set_handler(EXC_LOAD_ACCESS, nested_outer);
    trap_set_handler(EXC_ILLEGAL_INSN, nested_inner);
    irq_global_enable();
    (void)*(volatile uint32_t *)UNMAPPED;
    uint32_t mie = csr_read(mstatus) & MSTATUS_MIE;
    irq_global_disable();
    check(inner_count == 1 && outer_ok && mie, "nested trap, mstatus restored");

    /* QEMU refuses mret to U-mode while no PMP entry exists: grant everything. */
    csr_write(pmpaddr0, 0xFFFFFFFFu);
    csr_write(pmpcfg0, 0x1Fu);
    trap_set_handler(EXC_ECALL_U, ecall_handler);
    trap_set_handler(EXC_ILLEGAL_INSN, user_illegal);
    int status = setjmp(machine_mode);
    if (status == 0) {
        csr_clear(mstatus, MSTATUS_MPP | MSTATUS_MPIE);
        csr_write(mepc, (uint32_t)user_main);
        __asm__ volatile(
            "csrw mscratch, sp\n mv sp, %0\n mret" ::"r"(user_stack + sizeof user_stack)
            : "memory");
    }
    csr_write(mscratch, 0);
    check(status == 7 && user_written == 5 && user_illegal_tval == 0x30002573u,
          "U-mode ecall and illegal CSR access");

    irq_set_handler(IRQ_M_TIMER, timer_handler);
    uint64_t start = timer_now();
    next_compare = start + 1000;
    timer_set_compare(next_compare);
    irq_enable(IRQ_M_TIMER);
    irq_global_enable();
    while (ticks < 5)
        wait_for_interrupt();
    irq_global_disable();
    check(ticks == 5 && timer_now() - start >= 5000, "5 timer interrupts");

    void *p = malloc(1000);
    check(p != NULL && (uintptr_t)p >= TILE_SRAM_BASE, "malloc");
    free(p);

    if (failures)
        return 1;
    printf("sdk smoke ok\n");
    return 0;
}
