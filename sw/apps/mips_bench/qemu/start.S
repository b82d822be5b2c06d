/* Reset entry for QEMU's virt machine with -bios none: QEMU jumps to the ELF entry in M-mode on
 * every hart. Only hart 0 runs; the others park in wfi. Sets gp, sp, the TLS block (picolibc's
 * errno), clears .bss, runs main and passes its result to exit(). */
    .section .text.init.enter, "ax", @progbits
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrr    t0, mhartid
    bnez    t0, .Lpark
    la      sp, __stack_top
    la      tp, __tls_block

    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:
    mv      a0, tp
    call    _init_tls
    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    call    exit
.Lpark:
    wfi
    j       .Lpark
