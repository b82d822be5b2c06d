/* The commit-log probe (tests/log, docs/logging.md): a short run through every kind of line the
 * commit log has (integer, M and compressed operations with their destination values, loads and
 * stores with addresses and values, AMOs and LR/SC, CSR writes, an exception that commits nothing,
 * mret into U-mode and an ecall back), written to give the same result on namp-vp and on QEMU's
 * virt machine: it starts at 0x80000000 in M-mode, sets every register it reads, and ends with a
 * store to namp-vp's exit register (0x10001000; a read-only virtio register on QEMU) and then to
 * QEMU's test finisher (0x100000), so each simulator stops on its own. */
    .section .text.init.enter, "ax", @progbits
    .globl _start
_start:
    li      t0, 0x12345678
    li      t1, -7
    add     t2, t0, t1
    sub     s0, t0, t1
    xor     s1, t0, t1
    or      a0, t0, t1
    and     a1, t0, t1
    slli    a2, t0, 3
    srli    a3, t1, 4
    srai    a4, t1, 4
    slt     a5, t1, t0
    sltu    a6, t1, t0
    sltiu   a7, t0, 100
    auipc   s2, 0
    lui     s3, 0xfedcb
    mul     s3, t0, t1
    mulh    s4, t0, t1
    mulhu   s5, t0, t1
    mulhsu  s6, t1, t0
    div     s7, t0, t1
    divu    s8, t0, t1
    rem     s9, t0, t1
    remu    s10, t0, t1
    div     s11, t0, zero
    c.li    t3, 5
    c.addi  t3, 3
    c.mv    t4, t3
    c.add   t4, t3
    c.slli  t4, 2
    la      s0, probe_data
    sw      t0, 0(s0)
    sh      t1, 4(s0)
    sb      t1, 6(s0)
    c.sw    a0, 8(s0)
    lw      t5, 0(s0)
    lh      t6, 4(s0)
    lhu     t6, 4(s0)
    lb      t6, 6(s0)
    lbu     t6, 6(s0)
    c.lw    a1, 8(s0)
    li      t1, 3
    amoadd.w  t2, t1, (s0)
    amoswap.w t2, t1, (s0)
    amomax.w  t2, t0, (s0)
    amoor.w   zero, t1, (s0)
    lr.w    t2, (s0)
    sc.w    t3, t1, (s0)
    sc.w    t3, t1, (s0)
    li      t1, 4
1:  addi    t1, t1, -1
    bnez    t1, 1b
    jal     ra, probe_func
    csrw    mscratch, t0
    csrrs   t2, mscratch, zero
    csrrw   t2, mscratch, t1
    csrrc   t2, mscratch, t1
    csrrwi  t2, mscratch, 5
    la      t0, probe_trap
    csrw    mtvec, t0
    ecall
    li      t0, -1
    csrw    pmpaddr0, t0
    li      t0, 0x1f
    csrw    pmpcfg0, t0
    li      t0, 0x1800
    csrc    mstatus, t0
    la      t0, probe_user
    csrw    mepc, t0
    mret
probe_user:
    addi    s1, s1, 1
    c.addi  s1, 2
    ecall
probe_finish:
    li      t0, 0x10001000
    sw      zero, 0(t0)
    li      t0, 0x100000
    li      t1, 0x5555
    sw      t1, 0(t0)
1:  j       1b

probe_func:
    addi    a0, a0, 1
    ret

    .align  2
probe_trap:
    csrr    t6, mcause
    li      t5, 8
    beq     t6, t5, probe_finish
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret

    .data
probe_data:
    .word   0, 0, 0, 0
