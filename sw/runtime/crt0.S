/* Reset entry of a namp-vp tile firmware.
 *
 * Every core of every tile starts here, in M-mode, with all registers zero. The ELF is already in
 * the tile's SRAM, so .data needs no copying. Sequence:
 *   all harts:  gp, per-hart stack and TLS block, mtvec = trap entry, mscratch = 0
 *   hart 0:     clear .bss, init its TLS, run constructors, then release the other harts
 *   other harts: wait for the release flag, init their TLS
 *   all harts:  main(argc, argv) from the argument block (namp_args, below; the VP fills it from
 *               its --args option); hart 0 passes the result to exit() (atexit handlers,
 *               destructors), the others to _exit(); both end in a write to SIMCTRL_EXIT.
 */
#include "tile_memory_map.h"

/* Exit code of a hart whose id has no stack reserved (see __namp_max_harts in tile.ld). */
#define EXIT_NO_STACK 125

/* Load the value of an absolute linker symbol (a size, not an address: lui/addi, not pc-relative). */
.macro li_sym reg, sym
    lui     \reg, %hi(\sym)
    addi    \reg, \reg, %lo(\sym)
.endm

    .section .text.init.enter, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* gp must be set without relaxation, or the assembler would compute it relative to itself. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop

    csrw    mie, zero               /* no interrupt source enabled until the application asks */
    csrw    mscratch, zero          /* 0 = "trap taken from M-mode", see trap_entry.S */
    la      t0, namp_trap_entry
    csrw    mtvec, t0               /* direct mode: one entry for all traps */

    csrr    s0, mhartid
    li_sym  t0, __namp_max_harts
    bgeu    s0, t0, .Lno_stack

    /* sp = __stack_top - hartid * __namp_stack_size, then the TLS block below it. */
    la      sp, __stack_top
    li_sym  t0, __namp_stack_size
    mul     t0, t0, s0
    sub     sp, sp, t0
    li_sym  t0, __namp_tls_reserve
    sub     sp, sp, t0
    mv      tp, sp                  /* TLS variant I: tp points at the start of the block */

    bnez    s0, .Lsecondary

    /* Hart 0: clear .bss (word-wise: tile.ld aligns both ends to 16). */
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:
    mv      a0, tp
    call    _init_tls               /* copies .tdata, zeroes .tbss into this hart's block */
    call    __libc_init_array       /* constructors (the HAL binds stdout in one) */

    /* Release the other harts. The flag lives in .data (not .bss) so that clearing .bss cannot
     * race with it; the fence orders our .bss/constructor writes before the flag. */
    fence   rw, w
    li      t0, 1
    la      t1, namp_boot_released
    sw      t0, 0(t1)
    j       .Lrun_main

.Lsecondary:
    la      t1, namp_boot_released
3:  lw      t0, 0(t1)
    beqz    t0, 3b
    fence   r, rw                   /* see hart 0's initialisation after the flag */
    mv      a0, tp
    call    _init_tls

.Lrun_main:
    la      a1, namp_args
    lw      a0, 0(a1)               /* argc */
    addi    a1, a1, 4               /* argv: the pointers follow argc */
    call    main
    bnez    s0, 4f
    call    exit                    /* hart 0: atexit + destructors, then _exit */
4:  call    _exit                   /* never returns */

.Lno_stack:
    /* No stack for this hart: report through the exit register and stop. */
    li      t0, TILE_SIMCTRL_BASE + SIMCTRL_EXIT
    li      t1, EXIT_NO_STACK
    sw      t1, 0(t0)
5:  wfi
    j       5b
    .size _start, . - _start

    /* Argument block, written into SRAM by the VP at load time (vp/src/firmware.cpp): argc, argv[0..
     * argc-1] as addresses, NULL, the strings. In .data, not .bss: clearing .bss would erase it.
     * Without a VP that writes it, argc = 0 and argv = {NULL}. The VP finds it by the symbols. */
    .section .data.namp_args, "aw", @progbits
    .balign 4
    .globl namp_args, namp_args_end
namp_args:
    .word   0
    .word   0
    .space  1024 - 8
namp_args_end:

    /* Release flag, initialised to 0 in the ELF image (never in .bss). */
    .section .data.namp_boot, "aw", @progbits
    .balign 4
    .globl namp_boot_released
namp_boot_released:
    .word   0
