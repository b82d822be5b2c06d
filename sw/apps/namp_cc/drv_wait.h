/* The completion wait of the benchmarks' driver-level paths (namp_cc_bench, namp_cc_bench_scatter).
 * Their sender overhead counts the core's awake cycles. Whether the wait has to sleep and be woken
 * depends on whether the slots are still running when the core first looks (the members'
 * transfers outlast the set-up): a step at some N, not a cost per member. So the waits count their
 * sleeps (drv_waits), and with drv_look_late set a send first waits, uncounted (added to drv_idle),
 * until its slots are done and only then looks: the same send without the completion wait, the
 * corrected figure of docs/evaluation.md's family C. */
#ifndef NAMP_CC_DRV_WAIT_H
#define NAMP_CC_DRV_WAIT_H
#include <stdint.h>

extern volatile uint64_t drv_idle;  /* cycles asleep (wfi), or waited uncounted */
extern volatile uint32_t drv_waits; /* completion waits that slept (drv_finish: each wfi) */
extern volatile int drv_look_late;  /* wait for the completions before looking, uncounted */

/* Waits, uncounted (the cycles go to drv_idle), until every slot of `mask` is done; interrupts
 * must be off (the caller finishes the slots before it enables them: no DONE trap). */
void drv_await(uint32_t mask);

/* Finishes and frees the started slots of `mask` (IEN set) until `keep` or fewer are left;
 * returns the slots still running (0: all finished). A slot's error fails the run. */
uint32_t drv_finish(uint32_t mask, uint32_t keep);

#endif
