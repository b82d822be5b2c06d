/* Simulation control: ending the run, benchmark marks, cycle and instruction counters. */
#ifndef HAL_SIMCTRL_H
#define HAL_SIMCTRL_H

#include <stdint.h>

/* Halts the calling core with this exit code (other cores keep running). The simulation ends when
 * every core has halted; the VP exits with the first non-zero core exit code. */
__attribute__((noreturn)) void sim_exit(uint32_t code);
/* Ends the whole simulation now, all tiles, with this exit code. */
__attribute__((noreturn)) void sim_shutdown(uint32_t code);
/* Records (tile, core, id, cycle) in the VP statistics; bracket a region with two ids. */
void sim_mark(uint32_t id);
/* Calling core's cycle count as the platform counts it (SIMCTRL_CYCLE_LO/HI). */
uint64_t sim_cycles(void);
/* The hart's own counters: mcycle and minstret, read consistently on RV32. */
uint64_t cpu_cycles(void);
uint64_t cpu_instret(void);

#endif
