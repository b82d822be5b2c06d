/* CSR access and the machine-mode CSR bits the SDK uses. */
#ifndef HAL_CSR_H
#define HAL_CSR_H

#include <stdint.h>

#define csr_read(csr)                                  \
    ({                                                 \
        uint32_t v_;                                   \
        __asm__ volatile("csrr %0, " #csr : "=r"(v_)); \
        v_;                                            \
    })
#define csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" ::"rK"((uint32_t)(val)) : "memory")
#define csr_set(csr, bits)  __asm__ volatile("csrs " #csr ", %0" ::"rK"((uint32_t)(bits)) : "memory")
#define csr_clear(csr, bits) \
    __asm__ volatile("csrc " #csr ", %0" ::"rK"((uint32_t)(bits)) : "memory")
/* Atomically clear bits and return the old value (used to save/restore interrupt state). */
#define csr_read_clear(csr, bits)                                                                  \
    ({                                                                                             \
        uint32_t v_;                                                                               \
        __asm__ volatile("csrrc %0, " #csr ", %1" : "=r"(v_) : "rK"((uint32_t)(bits)) : "memory"); \
        v_;                                                                                        \
    })

/* mstatus */
#define MSTATUS_SIE       (1u << 1)
#define MSTATUS_MIE       (1u << 3)
#define MSTATUS_SPIE      (1u << 5)
#define MSTATUS_MPIE      (1u << 7)
#define MSTATUS_SPP       (1u << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP       (3u << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPP_U     (0u << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPP_S     (1u << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPP_M     (3u << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPRV      (1u << 17)

/* mcause */
#define MCAUSE_INTERRUPT (1u << 31)
#define MCAUSE_CODE(c)   ((c)&0x7FFFFFFFu)

/* mie/mip bit numbers of the interrupt sources (also the interrupt cause codes). */
#define IRQ_S_SOFT  1
#define IRQ_M_SOFT  3
#define IRQ_S_TIMER 5
#define IRQ_M_TIMER 7
#define IRQ_S_EXT   9
#define IRQ_M_EXT   11

/* Exception causes (mcause with the interrupt bit clear). */
#define EXC_INSN_MISALIGNED  0
#define EXC_INSN_ACCESS      1
#define EXC_ILLEGAL_INSN     2
#define EXC_BREAKPOINT       3
#define EXC_LOAD_MISALIGNED  4
#define EXC_LOAD_ACCESS      5
#define EXC_STORE_MISALIGNED 6
#define EXC_STORE_ACCESS     7
#define EXC_ECALL_U          8
#define EXC_ECALL_S          9
#define EXC_ECALL_M          11
#define EXC_INSN_PAGE_FAULT  12
#define EXC_LOAD_PAGE_FAULT  13
#define EXC_STORE_PAGE_FAULT 15

static inline uint32_t hart_id(void) { return csr_read(mhartid); }

#endif
