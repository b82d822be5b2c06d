/* MCAPI from kernel threads (sw/kernel/kmp.c): every library call under kmp_lock. */
#ifndef KERNEL_KMP_H
#define KERNEL_KMP_H

void kmp_lock(void);
void kmp_unlock(void);
/* Times a thread was suspended inside the library (instead of sleeping the core). */
unsigned long kmp_wait_count(void);
#define KMP(call) do { kmp_lock(); call; kmp_unlock(); } while (0)

#endif
