/* mips_bench on namp-vp: core 0 of every tile runs the workload once, bracketed by SIMCTRL marks
 * (id 1 = start, id 2 = end) so the statistics show the cycles of the measured region, and prints
 * the checksum with the retired instructions and cycles (minstret/mcycle). Other cores of a tile
 * exit at once (the workload's buffers are per tile, not per core).
 * Exit 0; 1 if the checksum of the default configuration is wrong (a core bug). */
#include <stdio.h>

#include "hal/hal.h"
#include "workload.h"

int main(void)
{
    if (tile_core_id() != 0)
        return 0;

    sim_mark(1);
    uint64_t instret0 = cpu_instret(), cycles0 = cpu_cycles();
    uint32_t checksum = bench_run(BENCH_ROUNDS);
    uint64_t instret = cpu_instret() - instret0, cycles = cpu_cycles() - cycles0;
    sim_mark(2);

    int ok = 1;
#ifdef BENCH_DEFAULT_ROUNDS
    ok = checksum == BENCH_EXPECTED_CHECKSUM;
#endif
    printf("mips_bench: %lu rounds, checksum 0x%08lx (%s), %llu instructions, %llu cycles\n",
           (unsigned long)BENCH_ROUNDS, (unsigned long)checksum, ok ? "ok" : "WRONG",
           (unsigned long long)instret, (unsigned long long)cycles);
    return ok ? 0 : 1;
}
