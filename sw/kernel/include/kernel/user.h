/* The U-mode side of the kernel: system calls by ecall. Only this header is meant for task code;
 * a task reaches nothing but its own pages and the shared (read-only) text. */
#ifndef KERNEL_USER_H
#define KERNEL_USER_H

#include <stdint.h>

#include "kernel/syscall.h"

static inline long u_syscall3(long n, long a0, long a1, long a2)
{
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r2 __asm__("a2") = a2;
    register long r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
    return r0;
}

/* NAMP send by system call (the software emulation NAMP-SV replaces). */
static inline long u_namp_send(uint32_t vid, const void *buf, uint32_t size)
{
    return u_syscall3(K_SYS_NAMP_SEND, (long)vid, (long)buf, (long)size);
}

static inline uint32_t u_cycles(void)
{
    uint32_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

/* mtime (the time CSR; the kernel writes its frequency into a task's MCAPI control words). */
static inline uint64_t u_time(void)
{
    uint32_t hi, lo, hi2;
    do { /* the high half read twice: a carry between the two reads is seen */
        __asm__ volatile("rdtimeh %0" : "=r"(hi));
        __asm__ volatile("rdtime %0" : "=r"(lo));
        __asm__ volatile("rdtimeh %0" : "=r"(hi2));
    } while (hi != hi2);
    return (uint64_t)hi << 32 | lo;
}

static inline long u_syscall(long n, long a0, long a1)
{
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r7) : "memory");
    return r0;
}

static inline void u_yield(void) { u_syscall(K_SYS_YIELD, 0, 0); }
static inline void u_sleep(uint32_t ticks) { u_syscall(K_SYS_SLEEP, (long)ticks, 0); }
static inline long u_write(const char *s, uint32_t len)
{
    return u_syscall(K_SYS_WRITE, (long)s, (long)len);
}
static inline long u_gettid(void) { return u_syscall(K_SYS_GETTID, 0, 0); }
__attribute__((noreturn)) static inline void u_exit(int code)
{
    u_syscall(K_SYS_EXIT, code, 0);
    __builtin_unreachable();
}

#endif
