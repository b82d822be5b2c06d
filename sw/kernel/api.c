/* The M-mode thread side of the system calls: each function is one ecall. */
#include <stdarg.h>
#include <stdio.h>

#include "kinternal.h"

static inline uint32_t kcall3(uint32_t n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t *out1)
{
    register uint32_t r0 __asm__("a0") = a0;
    register uint32_t r1 __asm__("a1") = a1;
    register uint32_t r2 __asm__("a2") = a2;
    register uint32_t r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r7) : "memory");
    if (out1)
        *out1 = r1;
    return r0;
}
#define kcall(n, a0, a1) kcall3((n), (uint32_t)(a0), (uint32_t)(a1), 0, NULL)

k_thread_t *k_thread_create(const char *name, void (*entry)(void *), void *arg, uint32_t prio,
                            uint32_t cpu_mask)
{
    if (!k_started_here()) { /* set-up code before k_start: no kernel entry on this core yet */
        uint32_t saved = irq_global_disable();
        k_lock_take();
        k_thread_t *t = k_sys_thread_create(name, entry, arg, prio, cpu_mask);
        k_lock_give();
        irq_global_restore(saved);
        return t;
    }
    struct k_thread_args x = {name, entry, arg, prio, cpu_mask};
    return (k_thread_t *)kcall(K_SYS_THREAD_CREATE, &x, 0);
}

k_thread_t *k_task_create(const k_task_image_t *image)
{
    if (!k_started_here()) {
        uint32_t saved = irq_global_disable();
        k_lock_take();
        k_thread_t *t = k_sys_task_create(image);
        k_lock_give();
        irq_global_restore(saved);
        return t;
    }
    return (k_thread_t *)kcall(K_SYS_TASK_CREATE, image, 0);
}

int k_task_resume(k_thread_t *t) { return (int)kcall(K_SYS_RESUME, t, 0); }
uint32_t k_syscalls_of(const k_thread_t *t) { return t ? t->syscalls : 0; }

int k_osqm_wait_ep(void *ep, void *rx) { return (int)kcall(K_SYS_OSQM_WAIT_EP, ep, rx); }
int k_isr_sem_give(k_sem_t *s) { return k_sys_sem_give(s); }
int k_osqm_wait(unsigned slot) { return (int)kcall(K_SYS_OSQM_WAIT, slot, 0); }
int k_thread_critical(k_thread_t *t, int on) { return (int)kcall(K_SYS_SET_CRITICAL, t, on); }

void k_yield(void) { kcall(K_SYS_YIELD, 0, 0); }
void k_sleep(uint32_t ticks) { kcall(K_SYS_SLEEP, ticks, 0); }

void k_exit(int code)
{
    kcall(K_SYS_EXIT, code, 0);
    __builtin_unreachable();
}

int k_join(k_thread_t *t, uint32_t timeout, int *status)
{
    /* First wait for the end (a2 = 1), then collect the status, which frees the thread. */
    uint32_t code = 0;
    int r = (int)kcall3(K_SYS_JOIN, (uint32_t)t, timeout, 1, NULL);
    if (r != K_OK)
        return r;
    r = (int)kcall3(K_SYS_JOIN, (uint32_t)t, 0, 0, &code);
    if (r == K_OK && status)
        *status = (int)code;
    return r;
}

k_thread_t *k_self(void) { return k_current(); }
uint32_t k_tid(const k_thread_t *t) { return t ? t->id : 0; }
uint32_t k_cpu(void) { return hart_id(); }
int k_set_priority(k_thread_t *t, uint32_t prio) { return (int)kcall(K_SYS_SET_PRIO, t, prio); }

int k_mutex_lock(k_mutex_t *m) { return (int)kcall(K_SYS_MUTEX_LOCK, m, 0); }
int k_mutex_unlock(k_mutex_t *m) { return (int)kcall(K_SYS_MUTEX_UNLOCK, m, 0); }
int k_sem_take(k_sem_t *s, uint32_t timeout) { return (int)kcall(K_SYS_SEM_TAKE, s, timeout); }
int k_sem_give(k_sem_t *s) { return (int)kcall(K_SYS_SEM_GIVE, s, 0); }

void k_printf(const char *fmt, ...)
{
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    kcall(K_SYS_WRITE, line, n);
}
