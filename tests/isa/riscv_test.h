/* namp-vp target environment for the riscv-tests ISA suite (the "p" environment: physical memory,
 * no virtual-memory runtime, single hart).
 *
 * Written for namp-vp; it provides the macros the test sources in riscv-tests/isa expect
 * (RVTEST_*, TESTNUM, the encoding constants they use) with the semantics of the standard p
 * environment:
 *   - execution starts in M mode at _start (0x80000000, see link.ld);
 *   - registers are cleared, harts other than hart 0 park in wfi;
 *   - satp = 0, PMP (if the hart has one) opens all memory, no delegation, no interrupts enabled;
 *   - the trap vector ends the test on an ecall from U, S or M mode (RVTEST_PASS / RVTEST_FAIL),
 *     hands every other trap to the test's mtvec_handler if it defines one, and reports any
 *     other trap as a failure;
 *   - if the test defines stvec_handler, stvec points to it and page faults, misaligned fetches,
 *     breakpoints and ecalls from U mode are delegated to S mode;
 *   - RVTEST_RV32U/RV64U run the test body in U mode, RVTEST_RV32S/RV64S in S mode (with the
 *     supervisor software and timer interrupts delegated), RVTEST_RV32M/RV64M in M mode.
 *
 * Result reporting: instead of the HTIF tohost protocol, the trap vector stores the result to the
 * namp-vp simulation-control EXIT register (TILE_SIMCTRL_BASE + SIMCTRL_EXIT, 0x10001000):
 *   0                      test passed
 *   (TESTNUM << 1) | 1     test TESTNUM failed (RVTEST_FAIL)
 *   TESTNUM | 1337         unexpected trap while running test TESTNUM
 * The VP exits with that code (low 8 bits; always non-zero for a failure).
 */
/* assembler macros (the riscv-tests env interface): not formatted as C */
/* clang-format off */
#ifndef NAMP_RISCV_TEST_H
#define NAMP_RISCV_TEST_H

/* ---- platform ---------------------------------------------------------------------------- */

#define DRAM_BASE              0x80000000        /* TILE_SRAM_BASE */
#define NAMP_SIMCTRL_EXIT      0x10001000        /* TILE_SIMCTRL_BASE + SIMCTRL_EXIT */
#define NAMP_UNEXPECTED_TRAP   1337

/* ---- privileged-architecture encodings used by the tests ----------------------------------- */

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

#define MSTATUS_UIE    0x00000001
#define MSTATUS_SIE    0x00000002
#define MSTATUS_MIE    0x00000008
#define MSTATUS_SPIE   0x00000020
#define MSTATUS_UBE    0x00000040
#define MSTATUS_MPIE   0x00000080
#define MSTATUS_SPP    0x00000100
#define MSTATUS_VS     0x00000600
#define MSTATUS_MPP    0x00001800
#define MSTATUS_FS     0x00006000
#define MSTATUS_XS     0x00018000
#define MSTATUS_MPRV   0x00020000
#define MSTATUS_SUM    0x00040000
#define MSTATUS_MXR    0x00080000
#define MSTATUS_TVM    0x00100000
#define MSTATUS_TW     0x00200000
#define MSTATUS_TSR    0x00400000

#define SSTATUS_SIE    MSTATUS_SIE
#define SSTATUS_SPIE   MSTATUS_SPIE
#define SSTATUS_SPP    MSTATUS_SPP
#define SSTATUS_FS     MSTATUS_FS
#define SSTATUS_XS     MSTATUS_XS
#define SSTATUS_SUM    MSTATUS_SUM
#define SSTATUS_MXR    MSTATUS_MXR
#if __riscv_xlen == 64
#define MSTATUS_UXL    0x0000000300000000
#define MSTATUS_SXL    0x0000000C00000000
#define SSTATUS_UXL    MSTATUS_UXL
#endif

#define MIP_SSIP       (1 << 1)
#define MIP_MSIP       (1 << 3)
#define MIP_STIP       (1 << 5)
#define MIP_MTIP       (1 << 7)
#define MIP_SEIP       (1 << 9)
#define MIP_MEIP       (1 << 11)
#define SIP_SSIP       MIP_SSIP
#define SIP_STIP       MIP_STIP
#define SIP_SEIP       MIP_SEIP

#define CAUSE_MISALIGNED_FETCH      0x0
#define CAUSE_FETCH_ACCESS          0x1
#define CAUSE_ILLEGAL_INSTRUCTION   0x2
#define CAUSE_BREAKPOINT            0x3
#define CAUSE_MISALIGNED_LOAD       0x4
#define CAUSE_LOAD_ACCESS           0x5
#define CAUSE_MISALIGNED_STORE      0x6
#define CAUSE_STORE_ACCESS          0x7
#define CAUSE_USER_ECALL            0x8
#define CAUSE_SUPERVISOR_ECALL      0x9
#define CAUSE_MACHINE_ECALL         0xb
#define CAUSE_FETCH_PAGE_FAULT      0xc
#define CAUSE_LOAD_PAGE_FAULT       0xd
#define CAUSE_STORE_PAGE_FAULT      0xf

#if __riscv_xlen == 64
#define SATP_MODE      0xF000000000000000
#else
#define SATP_MODE      0x80000000
#endif
#define SATP_MODE_OFF  0
#define SATP_MODE_SV32 1
#define SATP_MODE_SV39 8
#define SATP_MODE_SV48 9

#define RISCV_PGSHIFT  12
#define RISCV_PGSIZE   (1 << RISCV_PGSHIFT)

#define PTE_V          0x001
#define PTE_R          0x002
#define PTE_W          0x004
#define PTE_X          0x008
#define PTE_U          0x010
#define PTE_G          0x020
#define PTE_A          0x040
#define PTE_D          0x080
#define PTE_PPN_SHIFT  10

#define PMP_R          0x01
#define PMP_W          0x02
#define PMP_X          0x04
#define PMP_A          0x18
#define PMP_TOR        0x08
#define PMP_NA4        0x10
#define PMP_NAPOT      0x18
#define PMP_L          0x80

/* Debug trigger (mcontrol, tdata1 type 2) bits used by the breakpoint test. */
#define MCONTROL_M        (1 << 6)
#define MCONTROL_S        (1 << 4)
#define MCONTROL_U        (1 << 3)
#define MCONTROL_EXECUTE  (1 << 2)
#define MCONTROL_STORE    (1 << 1)
#define MCONTROL_LOAD     (1 << 0)

/* ---- test-virtual-machine selection: defines `init`, run by the reset code before the body --- */

#define NAMP_INIT_USER        .macro init; .endm
/* mret lands in M mode */
#define NAMP_INIT_MACHINE     .macro init; li a0, MSTATUS_MPP; csrs mstatus, a0; .endm
/* mret lands in S mode; supervisor software and timer interrupts belong to S mode */
#define NAMP_INIT_SUPERVISOR  .macro init;                                      \
                                li a0, MSTATUS_MPP & (MSTATUS_MPP >> 1);         \
                                csrs mstatus, a0;                                \
                                li a0, SIP_SSIP | SIP_STIP;                      \
                                csrs mideleg, a0;                                \
                              .endm

#define RVTEST_RV32U  NAMP_INIT_USER
#define RVTEST_RV64U  NAMP_INIT_USER
#define RVTEST_RV32M  NAMP_INIT_MACHINE
#define RVTEST_RV64M  NAMP_INIT_MACHINE
#define RVTEST_RV32S  NAMP_INIT_SUPERVISOR
#define RVTEST_RV64S  NAMP_INIT_SUPERVISOR
/* No F/D on namp-vp: the FP variants are accepted but FP tests are not supported. */
#define RVTEST_RV32UF NAMP_INIT_USER
#define RVTEST_RV64UF NAMP_INIT_USER

#define TESTNUM gp

/* Runs the instructions; if one of them traps (optional CSR missing), execution continues after them. */
#define NAMP_TRY(...)                                                   \
        la t0, 1f;                                                      \
        csrw mtvec, t0;                                                 \
        __VA_ARGS__;                                                    \
        .align 2;                                                       \
1:

#if __riscv_xlen == 64
#define NAMP_PMP_ALL_ONES ((1 << 53) - 1)   /* NAPOT over the whole 56-bit space */
#else
#define NAMP_PMP_ALL_ONES ((1 << 31) - 1)   /* NAPOT over the whole 34-bit space */
#endif

/* ---- code ---------------------------------------------------------------------------------- */

#define RVTEST_CODE_BEGIN                                               \
        .section .text.init, "ax", @progbits;                           \
        .align 6;                                                       \
        .weak mtvec_handler;                                            \
        .weak stvec_handler;                                            \
        .globl _start;                                                  \
_start:                                                                 \
        j namp_reset;                                                   \
                                                                        \
        /* M-mode trap vector (direct mode) */                          \
        .align 2;                                                       \
namp_trap_vector:                                                       \
        csrr t5, mcause;                                                \
        li t6, CAUSE_USER_ECALL;                                        \
        beq t5, t6, namp_report;                                        \
        li t6, CAUSE_SUPERVISOR_ECALL;                                  \
        beq t5, t6, namp_report;                                        \
        li t6, CAUSE_MACHINE_ECALL;                                     \
        beq t5, t6, namp_report;                                        \
        la t5, mtvec_handler;                                           \
        beqz t5, namp_unexpected;                                       \
        jr t5;                                                          \
namp_unexpected:                                                        \
        /* exception or interrupt nobody handles */                     \
        ori TESTNUM, TESTNUM, NAMP_UNEXPECTED_TRAP;                     \
namp_report:                                                            \
        /* TESTNUM 1 = pass (exit code 0), otherwise the failure code */ \
        addi t5, TESTNUM, -1;                                           \
        bnez t5, 1f;                                                    \
        li TESTNUM, 0;                                                  \
1:      li t5, NAMP_SIMCTRL_EXIT;                                       \
        sw TESTNUM, 0(t5);                                              \
2:      j 2b;                                                           \
                                                                        \
namp_reset:                                                             \
        li x1, 0;  li x2, 0;  li x3, 0;  li x4, 0;                      \
        li x5, 0;  li x6, 0;  li x7, 0;  li x8, 0;                      \
        li x9, 0;  li x10, 0; li x11, 0; li x12, 0;                     \
        li x13, 0; li x14, 0; li x15, 0; li x16, 0;                     \
        li x17, 0; li x18, 0; li x19, 0; li x20, 0;                     \
        li x21, 0; li x22, 0; li x23, 0; li x24, 0;                     \
        li x25, 0; li x26, 0; li x27, 0; li x28, 0;                     \
        li x29, 0; li x30, 0; li x31, 0;                                \
        /* single-hart tests: park every other hart */                  \
        csrr a0, mhartid;                                               \
1:      beqz a0, 2f;                                                    \
        wfi;                                                            \
        j 1b;                                                           \
2:                                                                      \
        NAMP_TRY(csrwi satp, 0);                                        \
        NAMP_TRY(li t0, NAMP_PMP_ALL_ONES; csrw pmpaddr0, t0;           \
                 li t0, PMP_NAPOT | PMP_R | PMP_W | PMP_X;              \
                 csrw pmpcfg0, t0);                                     \
        csrwi mie, 0;                                                   \
        NAMP_TRY(csrwi medeleg, 0; csrwi mideleg, 0);                   \
        li TESTNUM, 0;                                                  \
        la t0, namp_trap_vector;                                        \
        csrw mtvec, t0;                                                 \
        /* the test must run on a hart of its own XLEN */               \
        li a0, 1;                                                       \
        slli a0, a0, __riscv_xlen - 1;                                  \
        bltz a0, 3f;                                                    \
        j namp_unexpected;                                              \
3:                                                                      \
        /* tests with an S-mode handler get S-mode traps delegated */   \
        la t0, stvec_handler;                                           \
        beqz t0, 4f;                                                    \
        csrw stvec, t0;                                                 \
        li t0, (1 << CAUSE_LOAD_PAGE_FAULT) |                           \
               (1 << CAUSE_STORE_PAGE_FAULT) |                          \
               (1 << CAUSE_FETCH_PAGE_FAULT) |                          \
               (1 << CAUSE_MISALIGNED_FETCH) |                          \
               (1 << CAUSE_USER_ECALL) |                                \
               (1 << CAUSE_BREAKPOINT);                                 \
        csrw medeleg, t0;                                               \
4:      csrwi mstatus, 0;                                               \
        init;                                                           \
        /* enter the test body in the mode `init` put in MPP */         \
        la t0, 5f;                                                      \
        csrw mepc, t0;                                                  \
        csrr a0, mhartid;                                               \
        mret;                                                           \
5:

#define RVTEST_CODE_END                                                 \
        unimp

/* ---- pass / fail: an ecall that the trap vector turns into an EXIT store ------------------- */

#define RVTEST_PASS                                                     \
        fence;                                                          \
        li TESTNUM, 1;                                                  \
        li a7, 93;                                                      \
        li a0, 0;                                                       \
        ecall

/* TESTNUM 0 cannot be encoded ((0 << 1) | 1 would read as a pass): report it as test 1337. */
#define RVTEST_FAIL                                                     \
        fence;                                                          \
        bnez TESTNUM, 1f;                                               \
        li TESTNUM, NAMP_UNEXPECTED_TRAP;                               \
1:      slli TESTNUM, TESTNUM, 1;                                       \
        ori TESTNUM, TESTNUM, 1;                                        \
        li a7, 93;                                                      \
        mv a0, TESTNUM;                                                 \
        ecall

/* ---- data ---------------------------------------------------------------------------------- */

#define RVTEST_DATA_BEGIN                                               \
        .align 4;                                                       \
        .global begin_signature;                                        \
begin_signature:

#define RVTEST_DATA_END                                                 \
        .align 4;                                                       \
        .global end_signature;                                          \
end_signature:

#endif
