/* The U-mode side of the kernel: system calls by ecall. Only this header is meant for task code;
 * a task reaches nothing but its own pages and the shared (read-only) text. */
#ifndef KERNEL_USER_H
#define KERNEL_USER_H

#include <stdint.h>

#include "kernel/syscall.h"

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
static inline long u_write(const char *s, uint32_t len) { return u_syscall(K_SYS_WRITE, (long)s, (long)len); }
static inline long u_gettid(void) { return u_syscall(K_SYS_GETTID, 0, 0); }
__attribute__((noreturn)) static inline void u_exit(int code)
{
    u_syscall(K_SYS_EXIT, code, 0);
    __builtin_unreachable();
}

#endif
