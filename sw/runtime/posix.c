/* The POSIX calls picolibc declares but leaves to the platform, for programs written for a POSIX
 * system (the OSU micro-benchmarks: sysconf, getpagesize, clock_gettime; docs/firmware-sdk.md).
 * Time is the CLINT's mtime, which starts at 0 with the simulation: CLOCK_REALTIME and
 * CLOCK_MONOTONIC are the same clock here. */
#include <errno.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hal/hal.h"

#define PAGE_BYTES 4096 /* the Sv32 MMU's page */
/* picolibc declares these clock ids only for systems with POSIX timers; its values */
#ifndef CLOCK_MONOTONIC
#define CLOCK_PROCESS_CPUTIME_ID ((clockid_t)2)
#define CLOCK_THREAD_CPUTIME_ID  ((clockid_t)3)
#define CLOCK_MONOTONIC          ((clockid_t)4)
#define CLOCK_MONOTONIC_RAW      ((clockid_t)5)
#endif

int clock_gettime(clockid_t id, struct timespec *tp);
int clock_getres(clockid_t id, struct timespec *res);

long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE: return PAGE_BYTES;
    case _SC_NPROCESSORS_CONF:
    case _SC_NPROCESSORS_ONLN:
        return (long)tile_num_cores(); /* the cores sharing this tile's memory */
    case _SC_CLK_TCK: return (long)timer_hz();
    default: errno = EINVAL; return -1;
    }
}

int getpagesize(void) { return PAGE_BYTES; }

int clock_gettime(clockid_t id, struct timespec *tp)
{
    if (!tp || (id != CLOCK_REALTIME && id != CLOCK_MONOTONIC && id != CLOCK_MONOTONIC_RAW &&
                id != CLOCK_PROCESS_CPUTIME_ID && id != CLOCK_THREAD_CPUTIME_ID)) {
        errno = tp ? EINVAL : EFAULT;
        return -1;
    }
    uint64_t t = timer_now(), hz = timer_hz();
    tp->tv_sec = (time_t)(t / hz);
    tp->tv_nsec = (long)((t % hz) * 1000000000u / hz);
    return 0;
}

int clock_getres(clockid_t id, struct timespec *res)
{
    struct timespec now;
    if (clock_gettime(id, &now))
        return -1;
    if (res) {
        res->tv_sec = 0;
        res->tv_nsec = (long)((1000000000u + timer_hz() - 1u) / timer_hz());
    }
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    if (tv) {
        uint64_t t = timer_now(), hz = timer_hz();
        tv->tv_sec = (time_t)(t / hz);
        tv->tv_usec = (suseconds_t)((t % hz) * 1000000u / hz);
    }
    return 0;
}

/* abort() and assert() end in raise(SIGABRT), which picolibc implements with kill(getpid()):
 * the core stops with 128 + the signal number, like a process killed by it. */
pid_t getpid(void) { return (pid_t)(tile_id() * tile_num_cores() + tile_core_id() + 1u); }

int kill(pid_t pid, int sig);
int kill(pid_t pid, int sig)
{
    if (pid != getpid()) {
        errno = EPERM; /* no other processes */
        return -1;
    }
    if (sig == 0)
        return 0;
    _exit(128 + sig);
}
