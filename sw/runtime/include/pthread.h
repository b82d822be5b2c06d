/* POSIX threads of namp-vp firmware (sw/runtime/pthread.c, docs/firmware-sdk.md "Threads"):
 * cooperative user-level threads on the core that creates them. They never run in parallel and
 * switch only where a thread waits: pthread_join, pthread_mutex_lock on a held mutex,
 * pthread_cond_wait, sched_yield, sleep/usleep/nanosleep, and MPI's progress waits (so that
 * one thread blocked in MPI lets the others of its rank run). Picolibc has no <pthread.h>; this is
 * the subset that programs such as OSU's osu_latency_mt use. */
#ifndef NAMP_PTHREAD_H
#define NAMP_PTHREAD_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct namp_thread *pthread_t;
typedef struct {
    size_t stacksize;
    int detached;
} pthread_attr_t;
typedef struct {
    struct namp_thread *owner; /* NULL: free */
    unsigned depth;            /* recursive mutexes: times the owner locked it */
    int type;
} pthread_mutex_t;
typedef struct {
    int type;
} pthread_mutexattr_t;
typedef struct {
    unsigned seq; /* bumped by every signal and broadcast */
} pthread_cond_t;
typedef struct {
    int unused;
} pthread_condattr_t;

#define PTHREAD_MUTEX_NORMAL     0
#define PTHREAD_MUTEX_RECURSIVE  1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT    PTHREAD_MUTEX_NORMAL
#define PTHREAD_CREATE_JOINABLE  0
#define PTHREAD_CREATE_DETACHED  1
#define PTHREAD_STACK_MIN        2048
#define PTHREAD_MUTEX_INITIALIZER      \
    {                                  \
        NULL, 0, PTHREAD_MUTEX_DEFAULT \
    }
#define PTHREAD_COND_INITIALIZER \
    {                            \
        0                        \
    }

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                   void *arg);
int pthread_join(pthread_t thread, void **value);
int pthread_detach(pthread_t thread);
void pthread_exit(void *value) __attribute__((noreturn));
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size);
int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int state);

int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *c);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_cond_broadcast(pthread_cond_t *c);

/* <sched.h>'s, which picolibc declares only with POSIX priority scheduling. */
int sched_yield(void);

/* namp-vp extension: how many other threads of the calling core exist (0 without
 * pthread_create), so that a library's blocking wait can let them run instead of sleeping. */
int namp_threads_others(void);

#ifdef __cplusplus
}
#endif
#endif
