/* System call dispatch (a7 = number, a0.. = arguments, result in a0) from a table indexed by the
 * number: the core's calls are set here, an optional module sets its own when it is first used
 * (k_syscall_set), an unset entry is K_ENOSYS. A task may use only the calls up to
 * K_SYS_USER_LAST; any other number kills it. A caller a call leaves waiting (blocked, sleeping)
 * has a0 = K_OK until its waker sets it (k_wake). */
#include <string.h>

#include "kinternal.h"

static k_queue_t mp_waiters;

void k_mp_event(void)
{
    while (mp_waiters.head)
        k_wake(mp_waiters.head, K_OK);
}

#define K_WRITE_MAX 256u

static int32_t sys_write(k_thread_t *cur, trap_frame_t *f)
{
    const uint32_t buf = f->regs[REG_A0];
    uint32_t len = f->regs[REG_A1];
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
        if (!f->regs[REG_A2]) { /* collect: the status, and the slot is free again */
            f->regs[REG_A1] = (uint32_t)t->exit_code;
            k_thread_release(t);
        }
        return K_OK;
    }
    if (timeout == 0 || !f->regs[REG_A2])
        return K_EAGAIN;
    uint64_t wake =
        timeout == K_FOREVER ? UINT64_MAX : timer_now() + (uint64_t)timeout * k_cfg.tick_ticks;
    k_block(&t->joiners, wake, 0); /* a0 = K_OK until the waker's result */
    return K_OK;
}

static int32_t sys_set_prio(k_thread_t *cur, trap_frame_t *f)
{
    k_thread_t *t = f->regs[REG_A0] ? (k_thread_t *)f->regs[REG_A0] : cur;
    const uint32_t prio = f->regs[REG_A1];
    if (!k_thread_valid(t) || t->is_idle || prio >= K_PRIOS)
        return K_EINVAL;
    if (t->state == KS_READY) {
        rq_remove(t);
        t->prio = prio;
        k_make_ready(t, 0);
    } else {
        t->prio = prio; /* a running thread is checked by the scheduler on the way out */
        k_rq_stale = ~0u;
    }
    return K_OK;
}

/* Releases the library lock and waits for an adapter event or the wake-up time, at most one tick
 * (an event taken by another core's handler is then seen at the next tick). */
static int32_t sys_mp_wait(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    if (f->regs[REG_A0])
        k_sys_mutex_unlock((k_mutex_t *)f->regs[REG_A0]);
    uint64_t wake = ((uint64_t)f->regs[REG_A2] << 32) | f->regs[REG_A1];
    uint64_t now = timer_now(), limit = now + k_cfg.tick_ticks;
    if (wake > now)
        k_block(&mp_waiters, wake < limit ? wake : limit, 0);
    return K_OK;
}

/* Yield, and sleep 0: behind the ready threads of the caller's priority. */
static int32_t sys_yield(k_thread_t *cur, trap_frame_t *f)
{
    (void)f;
    cur->state = KS_READY;
    k_rq_insert(cur, 0);
    return K_OK;
}

static int32_t sys_sleep(k_thread_t *cur, trap_frame_t *f)
{
    const uint32_t ticks = f->regs[REG_A0];
    if (ticks == 0)
        return sys_yield(cur, f);
    k_block(NULL, timer_now() + (uint64_t)ticks * k_cfg.tick_ticks, 0);
    return K_OK;
}

static int32_t sys_exit(k_thread_t *cur, trap_frame_t *f)
{
    k_thread_end(cur, (int)f->regs[REG_A0]);
    return K_OK;
}

static int32_t sys_gettid(k_thread_t *cur, trap_frame_t *f)
{
    (void)f;
    return (int32_t)cur->id;
}

static int32_t sys_thread_create(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    const struct k_thread_args *x = (const struct k_thread_args *)f->regs[REG_A0];
    return x ? (int32_t)k_sys_thread_create(x->name, x->entry, x->arg, x->prio, x->cpu_mask) : 0;
}

static int32_t sys_mutex_lock(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    return k_sys_mutex_lock((k_mutex_t *)f->regs[REG_A0]);
}

static int32_t sys_mutex_unlock(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    return k_sys_mutex_unlock((k_mutex_t *)f->regs[REG_A0]);
}

static int32_t sys_sem_take(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    return k_sys_sem_take((k_sem_t *)f->regs[REG_A0], f->regs[REG_A1]);
}

static int32_t sys_sem_give(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    return k_sys_sem_give((k_sem_t *)f->regs[REG_A0]);
}

/* A thread whose OSQM events raise the demand interrupt (kernel threads: a task cannot make
 * itself critical, its calls end at K_SYS_USER_LAST). */
static int32_t sys_set_critical(k_thread_t *cur, trap_frame_t *f)
{
    k_thread_t *t = f->regs[REG_A0] ? (k_thread_t *)f->regs[REG_A0] : cur;
    const uint32_t on = f->regs[REG_A1];
    if (!k_thread_valid(t) || t->is_idle || on > 1)
        return K_EINVAL;
    t->critical = on;
    return K_OK;
}

static int32_t sys_resume(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    k_thread_t *t = (k_thread_t *)f->regs[REG_A0];
    if (!k_thread_valid(t) || !t->suspended)
        return K_EINVAL;
    t->suspended = 0;
    k_make_ready(t, 0);
    return K_OK;
}

static int32_t sys_task_create(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    return (int32_t)k_sys_task_create((const k_task_image_t *)f->regs[REG_A0]);
}

/* Calls of a module that is not in use answer as its state would without it: no endpoint table
 * (K_SYS_NAMP_SEND) and no OSQM (its waits) mean a bad argument, as they did before the module
 * was used. */
static int32_t sys_einval(k_thread_t *cur, trap_frame_t *f)
{
    (void)cur;
    (void)f;
    return K_EINVAL;
}

static k_syscall_fn syscalls[K_SYS_LAST] = {
    [K_SYS_YIELD] = sys_yield,
    [K_SYS_SLEEP] = sys_sleep,
    [K_SYS_EXIT] = sys_exit,
    [K_SYS_WRITE] = sys_write,
    [K_SYS_GETTID] = sys_gettid,
    [K_SYS_NAMP_SEND] = sys_einval, /* NAMP-SV (ksend.c) */
    [K_SYS_OSQM_WAIT] = sys_einval, /* HW-OSQM (osqm.c) */
    /* K_SYS_MP_REQ, K_SYS_MP_RES: MCAPI in tasks (kmp_task.c) */
    [K_SYS_THREAD_CREATE] = sys_thread_create,
    [K_SYS_JOIN] = sys_join,
    [K_SYS_MUTEX_LOCK] = sys_mutex_lock,
    [K_SYS_MUTEX_UNLOCK] = sys_mutex_unlock,
    [K_SYS_SEM_TAKE] = sys_sem_take,
    [K_SYS_SEM_GIVE] = sys_sem_give,
    [K_SYS_SET_PRIO] = sys_set_prio,
    [K_SYS_TASK_CREATE] = sys_task_create,
    [K_SYS_MP_WAIT] = sys_mp_wait,
    [K_SYS_RESUME] = sys_resume,
    [K_SYS_OSQM_WAIT_EP] = sys_einval, /* HW-OSQM (osqm.c) */
    [K_SYS_SET_CRITICAL] = sys_set_critical,
};

void k_syscall_set(uint32_t n, k_syscall_fn fn)
{
    if (n < K_SYS_LAST)
        syscalls[n] = fn;
}

void k_syscall(trap_frame_t *f)
{
    k_thread_t *cur = k_current();
    const uint32_t n = f->regs[REG_A7];
    k_stat.syscalls++;
    if (cur)
        cur->syscalls++;
    if (!cur) { /* a core entering the scheduler: its boot context is dropped */
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
    const k_syscall_fn fn = n < K_SYS_LAST ? syscalls[n] : NULL;
    if (!fn) {
        f->regs[REG_A0] = (uint32_t)K_ENOSYS;
        return;
    }
    const int32_t r = fn(cur, f);
    if (cur->state == KS_DEAD)
        return;
    /* a caller left waiting has K_OK until its waker's result */
    const int waiting = cur->state == KS_BLOCKED || cur->state == KS_SLEEPING;
    f->regs[REG_A0] = waiting ? (uint32_t)K_OK : (uint32_t)r;
}
