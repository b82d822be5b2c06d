/* System call numbers (a7) and the argument convention shared by the kernel, its M-mode threads
 * and U-mode tasks: arguments in a0..a5, result in a0. */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

enum k_sys {
    /* allowed from tasks */
    K_SYS_YIELD = 1,
    K_SYS_SLEEP = 2, /* a0 = ticks */
    K_SYS_EXIT = 3,  /* a0 = code */
    K_SYS_WRITE = 4, /* a0 = buffer, a1 = length (one console line) */
    K_SYS_GETTID = 5,
    K_SYS_NAMP_SEND = 6, /* a0 = vID of the destination, a1 = buffer, a2 = size (ksend.c) */
    K_SYS_OSQM_WAIT = 7, /* a0 = slot: block until its transfer is done (HW-OSQM wakes) */
    K_SYS_MP_REQ = 8,    /* a0 = op, a1, a2: MCAPI request of a task (kmp_task.c) */
    K_SYS_MP_RES = 9,    /* result of the request, K_EAGAIN while pending */
    K_SYS_USER_LAST = 9,
    /* kernel threads only (a task calling one of these is killed) */
    K_SYS_START = 32,    /* a core enters the scheduler */
    K_SYS_THREAD_CREATE, /* a0 = k_thread_args* */
    K_SYS_JOIN,          /* a0 = thread, a1 = timeout */
    K_SYS_MUTEX_LOCK,    /* a0 = mutex */
    K_SYS_MUTEX_UNLOCK,
    K_SYS_SEM_TAKE, /* a0 = sem, a1 = timeout */
    K_SYS_SEM_GIVE,
    K_SYS_SET_PRIO,     /* a0 = thread, a1 = prio */
    K_SYS_TASK_CREATE,  /* a0 = image */
    K_SYS_MP_WAIT,      /* a0 = mutex to release, a1/a2 = wake-up time (mtime) lo/hi */
    K_SYS_RESUME,       /* a0 = task created suspended */
    K_SYS_OSQM_WAIT_EP, /* a0 = endpoint, a1 = its receive buffer (osqm.c) */
    K_SYS_SET_CRITICAL, /* a0 = thread (0: self), a1 = 1 critical / 0 not (osqm.c) */
    K_SYS_LAST
};

#endif
