/* Compute-bound benchmark workload, independent of the platform: no I/O, no device access.
 * The same C file is built for namp-vp (main.c) and for QEMU's virt machine (qemu/), so both
 * execute the same instruction stream and must print the same checksum. */
#ifndef MIPS_BENCH_WORKLOAD_H
#define MIPS_BENCH_WORKLOAD_H

#include <stdint.h>

/* Rounds of the workload; about 0.51 M instructions each (200 rounds = 102 M). Override with -DBENCH_ROUNDS=n. */
#ifndef BENCH_ROUNDS
#define BENCH_ROUNDS         200u
#define BENCH_DEFAULT_ROUNDS 1
#endif

/* Checksum of the default BENCH_ROUNDS run (computed by the same code on the host). */
#define BENCH_EXPECTED_CHECKSUM 0x01342f94u

/* Runs the workload and returns its checksum. */
uint32_t bench_run(uint32_t rounds);

#endif
