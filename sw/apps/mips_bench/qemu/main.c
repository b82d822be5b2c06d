/* mips_bench on QEMU virt: the same workload as on namp-vp, for a simulation speed comparison.
 * Prints the checksum (must match namp-vp's) and exits through the SiFive test device. */
#include <stdint.h>
#include <stdio.h>

#include "../workload.h"

static uint64_t read_instret(void)
{
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
        __asm__ volatile("csrr %0, minstret" : "=r"(lo));
        __asm__ volatile("csrr %0, minstreth" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

int main(void)
{
    uint64_t instret0 = read_instret();
    uint32_t checksum = bench_run(BENCH_ROUNDS);
    uint64_t instret = read_instret() - instret0;
    int ok = 1;
#ifdef BENCH_DEFAULT_ROUNDS
    ok = checksum == BENCH_EXPECTED_CHECKSUM;
#endif
    /* minstret is exact under -icount; without it QEMU reports an estimate. */
    printf("mips_bench (qemu): %lu rounds, checksum 0x%08lx (%s), minstret %llu\n",
           (unsigned long)BENCH_ROUNDS, (unsigned long)checksum, ok ? "ok" : "WRONG",
           (unsigned long long)instret);
    return ok ? 0 : 1;
}
