/* The runtime's cooperative threads (sw/runtime/pthread.c), one scenario per run (--args):
 *   basic     every core: threads run in creation order, join returns each value, a mutex held
 *             across waits keeps a counter exact, a condition hands work between two threads,
 *             recursive/errorcheck/trylock results, detach, attributes, misuse errors
 *   sleep     sleep/usleep/nanosleep take the simulated time asked and let the others run
 *   deadlock  two threads wait for each other: the program stops with a message, not a hang
 * Prints "pthread ok: <scenario> core <c>, <n> checks" per core; a failed check prints FAIL. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hal/hal.h"

int nanosleep(const struct timespec *req, struct timespec *rem); /* picolibc: _POSIX_TIMERS */

static _Thread_local unsigned checks;
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        ++checks;                                                                          \
        if (!(cond)) {                                                                     \
            printf("pthread FAIL core %lu line %d: ", (unsigned long)hart_id(), __LINE__); \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* ------------------------------------------------------------------ basic */
static _Thread_local char order[16];
static _Thread_local int order_n;
static _Thread_local pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static _Thread_local int counter, item, taken;

static void *note(void *arg)
{
    order[order_n++] = (char)(uintptr_t)arg;
    return (void *)((uintptr_t)arg * 10u);
}

/* Increments under the mutex with a yield inside the critical section: without the mutex the
 * other thread would read the same value. */
static void *add(void *arg)
{
    for (int i = 0; i < 100; ++i) {
        pthread_mutex_lock(&lock);
        int v = counter;
        sched_yield();
        counter = v + 1;
        pthread_mutex_unlock(&lock);
    }
    return arg;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int n = 0; n < 5; ++n) {
        pthread_mutex_lock(&lock);
        while (!item)
            pthread_cond_wait(&ready, &lock);
        taken += item;
        item = 0;
        pthread_cond_signal(&ready);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void basic(void)
{
    /* zero-initialised TLS only: a NOBITS template, which .bss once overlapped (tile.ld) */
    CHECK(order_n == 0 && counter == 0 && taken == 0 && !lock.owner,
          "core %lu: TLS not zero at start", (unsigned long)hart_id());
    pthread_t t[3];
    for (uintptr_t i = 0; i < 3; ++i)
        CHECK(pthread_create(&t[i], NULL, note, (void *)('a' + i)) == 0, "create %u", (unsigned)i);
    CHECK(order_n == 0, "%d threads ran before the creator waited", order_n);
    void *v;
    CHECK(pthread_join(t[1], &v) == 0 && v == (void *)('b' * 10u), "join value");
    CHECK(order_n == 3 && memcmp(order, "abc", 3) == 0, "creation order %.3s", order);
    CHECK(pthread_join(t[0], &v) == 0 && v == (void *)('a' * 10u), "join of a finished thread");
    CHECK(pthread_join(t[2], NULL) == 0, "join without a value");

    pthread_t a, b;
    CHECK(pthread_create(&a, NULL, add, NULL) == 0 && pthread_create(&b, NULL, add, NULL) == 0,
          "create adders");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    CHECK(counter == 200, "counter %d under the mutex", counter);

    pthread_t c;
    CHECK(pthread_create(&c, NULL, consumer, NULL) == 0, "create consumer");
    for (int n = 1; n <= 5; ++n) {
        pthread_mutex_lock(&lock);
        while (item)
            pthread_cond_wait(&ready, &lock);
        item = n;
        pthread_cond_signal(&ready);
        pthread_mutex_unlock(&lock);
    }
    pthread_join(c, NULL);
    CHECK(taken == 15, "consumer took %d", taken);

    pthread_mutex_t r;
    pthread_mutexattr_t ra;
    pthread_mutexattr_init(&ra);
    CHECK(pthread_mutexattr_settype(&ra, PTHREAD_MUTEX_RECURSIVE) == 0, "settype");
    CHECK(pthread_mutexattr_settype(&ra, 7) == EINVAL, "bad type");
    pthread_mutex_init(&r, &ra);
    CHECK(pthread_mutex_lock(&r) == 0 && pthread_mutex_lock(&r) == 0, "recursive lock twice");
    CHECK(pthread_mutex_unlock(&r) == 0 && pthread_mutex_destroy(&r) == EBUSY, "still held once");
    CHECK(pthread_mutex_unlock(&r) == 0 && pthread_mutex_destroy(&r) == 0, "released");
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    CHECK(pthread_mutex_trylock(&m) == 0 && pthread_mutex_lock(&m) == EDEADLK, "relock: EDEADLK");
    CHECK(pthread_mutex_unlock(&m) == 0 && pthread_mutex_unlock(&m) == EPERM,
          "unlock twice: EPERM");

    pthread_attr_t at;
    size_t sz = 0;
    CHECK(pthread_attr_init(&at) == 0 && pthread_attr_setstacksize(&at, 100) == EINVAL,
          "stack below the minimum");
    CHECK(pthread_attr_setstacksize(&at, 8192) == 0 && pthread_attr_getstacksize(&at, &sz) == 0 &&
              sz == 8192,
          "stack size");
    CHECK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) == 0, "detached attribute");
    pthread_t d;
    order_n = 0;
    CHECK(pthread_create(&d, &at, note, (void *)'x') == 0, "create detached");
    CHECK(pthread_join(d, NULL) == EINVAL, "join of a detached thread");
    sched_yield();
    CHECK(order_n == 1 && order[0] == 'x', "detached thread ran");
    CHECK(pthread_create(&d, NULL, note, (void *)'y') == 0 && pthread_detach(d) == 0 &&
              pthread_detach(d) == EINVAL,
          "detach twice");
    sched_yield();
    CHECK(pthread_join(pthread_self(), NULL) == EDEADLK, "join itself");
    CHECK(pthread_create(NULL, NULL, note, NULL) == EINVAL, "create without a handle");
    CHECK(pthread_equal(pthread_self(), pthread_self()) && namp_threads_others() == 0,
          "self; no thread left");
}

/* ------------------------------------------------------------------ sleep */
static _Thread_local int spins;
static void *spinner(void *arg)
{
    (void)arg;
    while (spins >= 0) { /* runs while main sleeps */
        ++spins;
        sched_yield();
    }
    return NULL;
}

static void sleeps(void)
{
    const uint64_t hz = timer_hz();
    uint64_t t0 = timer_now();
    CHECK(usleep(1500) == 0, "usleep");
    uint64_t t1 = timer_now();
    CHECK(t1 - t0 >= hz * 1500u / 1000000u && t1 - t0 < hz * 1600u / 1000000u,
          "usleep(1500) took %lu ticks", (unsigned long)(t1 - t0));
    struct timespec ts = {.tv_sec = 0, .tv_nsec = 2000000};
    CHECK(nanosleep(&ts, NULL) == 0, "nanosleep");
    uint64_t t2 = timer_now();
    CHECK(t2 - t1 >= hz / 500u && t2 - t1 < hz / 450u, "nanosleep(2 ms) took %lu ticks",
          (unsigned long)(t2 - t1));
    ts.tv_nsec = 1000000000L;
    CHECK(nanosleep(&ts, NULL) == -1 && errno == EINVAL, "nanosleep of a bad time");
    CHECK(sleep(1) == 0 && timer_now() - t2 >= hz, "sleep(1)");
    pthread_t s;
    CHECK(pthread_create(&s, NULL, spinner, NULL) == 0, "create spinner");
    usleep(200);
    int ran = spins;
    spins = -1;
    pthread_join(s, NULL);
    CHECK(ran > 10, "the other thread ran %d times during usleep", ran);
}

/* ------------------------------------------------------------------ deadlock */
static _Thread_local pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
static void *second(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m2);
    pthread_mutex_lock(&m1); /* main holds it and waits for m2 */
    return NULL;
}

static void deadlock(void)
{
    pthread_t t;
    pthread_mutex_lock(&m1);
    pthread_create(&t, NULL, second, NULL);
    sched_yield();           /* the thread takes m2 */
    pthread_mutex_lock(&m2); /* never: the runtime stops the program */
    printf("pthread FAIL: the deadlock went unnoticed\n");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "basic";
    if (!strcmp(what, "basic"))
        basic();
    else if (!strcmp(what, "sleep"))
        sleeps();
    else if (!strcmp(what, "deadlock"))
        deadlock();
    else
        CHECK(0, "unknown scenario %s", what);
    printf("pthread ok: %s core %lu, %u checks\n", what, (unsigned long)hart_id(), checks);
    return 0;
}
