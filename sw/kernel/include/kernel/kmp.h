/* MCAPI from kernel threads (sw/kernel/kmp.c): every library call under kmp_lock. */
#ifndef KERNEL_KMP_H
#define KERNEL_KMP_H

void kmp_lock(void);
void kmp_unlock(void);
#define KMP(call) do { kmp_lock(); call; kmp_unlock(); } while (0)

#endif
