/* System call dispatch (a7 = number, a0.. = arguments, result in a0). A task may use only the
 * calls up to K_SYS_USER_LAST; any other number kills it. Blocking calls leave a0 to the waker. */
#include <string.h>

#include "kinternal.h"

struct k_thread_args {
    const char *name;
    void (*entry)(void *);
    void *arg;
    uint32_t prio, cpu_mask;
};

k_thread_t *k_sys_thread_create(const char *name, void (*entry)(void *), void *arg, uint32_t prio,
                                uint32_t cpu_mask);
void k_thread_release(k_thread_t *t);
int k_thread_valid(const k_thread_t *t);

static k_queue_t mp_waiters;

void k_mp_event(void)
{
    while (mp_waiters.head)
        k_wake(mp_waiters.head, K_OK);
}

#define K_WRITE_MAX 256u

static int32_t sys_write(k_thread_t *cur, uint32_t buf, uint32_t len)
{
    if (len > K_WRITE_MAX)
        len = K_WRITE_MAX;
    const char *p = (const char *)buf;
    if (cur->task) {
        uint32_t pa = vm_user_range(cur->task, buf, len, PTE_R);
        if (!pa && len)
            return K_EINVAL;
        p = (const char *)pa;
    }
    k_kputs(p, len);
    /* One write is one line (docs/kernel.md): the console prints a line at its newline, so a
     * write without one would be held back and continued by the next writer's text. */
    if (len && p[len - 1] != '\n')
        k_kputs("\n", 1);
    return (int32_t)len;
}

static int32_t sys_join(k_thread_t *cur, trap_frame_t *f)
{
    k_thread_t *t = (k_thread_t *)f->regs[REG_A0];
    uint32_t timeout = f->regs[REG_A1];
    if (!k_thread_valid(t) || t == cur || t->is_idle)
        return K_EINVAL;
    if (t->state == KS_DEAD) {
        if (!f->regs[REG_A2]) {   /* collect: the status, and the slot is free again */
            f->regs[REG_A1] = (uint32_t)t->exit_code;
            k_thread_release(t);
        }
        return K_OK;
    }
    if (timeout == 0 || !f->regs[REG_A2])
        return K_EAGAIN;
    uint64_t wake = timeout == K_FOREVER ? UINT64_MAX
                                         : timer_now() + (uint64_t)timeout * k_cfg.tick_ticks;
    f->regs[REG_A0] = K_OK;   /* until the waker's result */
    k_block(&t->joiners, wake, 0);
    return K_OK;
}

static int32_t sys_set_prio(k_thread_t *t, uint32_t prio)
{
    if (!k_thread_valid(t) || t->is_idle || prio >= K_PRIOS)
        return K_EINVAL;
    if (t->state == KS_READY) {
        rq_remove(t);
        t->prio = prio;
        k_make_ready(t, 0);
    } else {
        t->prio = prio;   /* a running thread is checked by the scheduler on the way out */
    }
    return K_OK;
}

void k_syscall(trap_frame_t *f)
{
    k_thread_t *cur = k_current();
    uint32_t n = f->regs[REG_A7];
    uint32_t a0 = f->regs[REG_A0], a1 = f->regs[REG_A1], a2 = f->regs[REG_A2];
    int32_t r = K_OK;
    k_stat.syscalls++;
    if (cur)
        cur->syscalls++;
    if (!cur) {   /* a core entering the scheduler: its boot context is dropped */
        if (n != K_SYS_START) {
            k_lock_give();
            console_puts("k: system call before k_start\n");
            sim_exit(1);
        }
        return;
    }
    if (cur->task && (n == 0 || n > K_SYS_USER_LAST)) {
        k_task_kill(cur, 16, f);
        return;
    }
    switch (n) {
    case K_SYS_YIELD:
        cur->state = KS_READY;
        rq_insert(cur, 0);
        break;
    case K_SYS_SLEEP:
        if (a0 == 0) {
            cur->state = KS_READY;
            rq_insert(cur, 0);
        } else {
            f->regs[REG_A0] = K_OK;
            k_block(NULL, timer_now() + (uint64_t)a0 * k_cfg.tick_ticks, 0);
            return;
        }
        break;
    case K_SYS_EXIT:
        k_thread_end(cur, (int)a0);
        return;
    case K_SYS_WRITE:
        r = sys_write(cur, a0, a1);
        break;
    case K_SYS_NAMP_SEND: {
        extern int32_t k_sys_namp_send(k_thread_t * cur, uint32_t vid, uint32_t va, uint32_t size);
        r = k_sys_namp_send(cur, a0, a1, a2);
        break;
    }
    case K_SYS_OSQM_WAIT: {
        extern int32_t k_sys_osqm_wait(k_thread_t * cur, uint32_t slot);
        f->regs[REG_A0] = K_OK;
        r = k_sys_osqm_wait(cur, a0);
        if (cur->state == KS_BLOCKED)
            return;
        break;
    }
    case K_SYS_GETTID:
        r = (int32_t)cur->id;
        break;
    case K_SYS_THREAD_CREATE: {
        const struct k_thread_args *x = (const struct k_thread_args *)a0;
        r = x ? (int32_t)k_sys_thread_create(x->name, x->entry, x->arg, x->prio, x->cpu_mask) : 0;
        break;
    }
    case K_SYS_JOIN:
        r = sys_join(cur, f);
        if (cur->state == KS_BLOCKED)
            return;
        break;
    case K_SYS_MUTEX_LOCK:
        f->regs[REG_A0] = K_OK;
        r = k_sys_mutex_lock((k_mutex_t *)a0);
        if (cur->state == KS_BLOCKED)
            return;
        break;
    case K_SYS_MUTEX_UNLOCK:
        r = k_sys_mutex_unlock((k_mutex_t *)a0);
        break;
    case K_SYS_SEM_TAKE:
        f->regs[REG_A0] = K_OK;
        r = k_sys_sem_take((k_sem_t *)a0, a1);
        if (cur->state == KS_BLOCKED)
            return;
        break;
    case K_SYS_SEM_GIVE:
        r = k_sys_sem_give((k_sem_t *)a0);
        break;
    case K_SYS_SET_PRIO:
        r = sys_set_prio(a0 ? (k_thread_t *)a0 : cur, a1);
        break;
    case K_SYS_OSQM_WAIT_EP: {
        extern int32_t k_sys_osqm_wait_ep(k_thread_t * cur, uint32_t ep, uint32_t rx);
        f->regs[REG_A0] = K_OK;
        r = k_sys_osqm_wait_ep(cur, a0, a1);
        if (cur->state == KS_BLOCKED)
            return;
        break;
    }
    case K_SYS_SET_CRITICAL: {
        k_thread_t *t = a0 ? (k_thread_t *)a0 : cur;
        r = K_EINVAL;
        if (k_thread_valid(t) && !t->is_idle && a1 <= 1) {
            t->critical = a1;
            r = K_OK;
        }
        break;
    }
    case K_SYS_RESUME: {
        k_thread_t *t = (k_thread_t *)a0;
        r = K_EINVAL;
        if (k_thread_valid(t) && t->suspended) {
            t->suspended = 0;
            k_make_ready(t, 0);
            r = K_OK;
        }
        break;
    }
    case K_SYS_MP_REQ: {
        /* weak: kmp_task.c (and the MCAPI library it needs) is linked only by firmware using it */
        extern int32_t k_sys_mp_req(k_thread_t * cur, uint32_t op, uint32_t a1, uint32_t a2)
            __attribute__((weak));
        r = k_sys_mp_req ? k_sys_mp_req(cur, a0, a1, a2) : K_ENOSYS;
        break;
    }
    case K_SYS_MP_RES: {
        extern int32_t k_sys_mp_res(k_thread_t * cur) __attribute__((weak));
        r = k_sys_mp_res ? k_sys_mp_res(cur) : K_ENOSYS;
        break;
    }
    case K_SYS_TASK_CREATE:
        r = (int32_t)k_sys_task_create((const k_task_image_t *)a0);
        break;
    case K_SYS_MP_WAIT: {
        /* Releases the library lock and waits for an adapter event or the wake-up time, at most
         * one tick (an event taken by another core's handler is then seen at the next tick). */
        if (a0)
            k_sys_mutex_unlock((k_mutex_t *)a0);
        uint64_t wake = ((uint64_t)a2 << 32) | a1;
        uint64_t now = timer_now(), limit = now + k_cfg.tick_ticks;
        f->regs[REG_A0] = K_OK;
        if (wake <= now)
            return;
        k_block(&mp_waiters, wake < limit ? wake : limit, 0);
        return;
    }
    default:
        r = K_ENOSYS;
    }
    f->regs[REG_A0] = (uint32_t)r;
}
