/* Trap handling: per-cause exception handlers and the default fatal handler.
 *
 * All traps enter runtime/trap_entry.S, which saves a trap_frame and calls the dispatcher here.
 * A handler gets the frame and may change it: advance mepc to skip the faulting instruction
 * (trap_skip_instruction), set a0 for a system call result, change mstatus.MPP. Returning from
 * the handler resumes at frame->mepc.
 *
 * An exception without a handler is fatal: the core prints
 *   FATAL TRAP: cause=<n> (<name>) mepc=0x........ mtval=0x........
 * and exits with code 128 + cause. An interrupt without a handler is fatal the same way, printed
 * as "FATAL TRAP: cause=interrupt <n>" and exit code 128 + 16 + n (cannot collide with exceptions). */
#ifndef HAL_TRAP_H
#define HAL_TRAP_H

#include <stdint.h>

#include "hal/trap_frame.h"

typedef void (*trap_handler_t)(trap_frame_t *frame);

#define TRAP_NUM_CAUSES 16

#define TRAP_EXIT_BASE     128u /* exit code of an unhandled exception: 128 + cause */
#define TRAP_EXIT_IRQ_BASE 144u /* exit code of an unhandled interrupt: 144 + irq */

/* Handler for exception cause (0..15), or NULL to restore the default (fatal). Shared by all
 * cores of the tile. */
void trap_set_handler(unsigned cause, trap_handler_t handler);

/* Length (2 or 4) of the instruction at frame->mepc; skip it by advancing mepc. */
uint32_t trap_instruction_length(const trap_frame_t *frame);
void trap_skip_instruction(trap_frame_t *frame);

/* The interrupt handlers irq_set_handler installs (irq.c), by interrupt number; trap.c dispatches
 * from it, and so does a kernel with a trap entry of its own (sw/kernel/sched.c). */
extern trap_handler_t namp_irq_handlers[TRAP_NUM_CAUSES];

/* Short name of an exception cause, e.g. "load access fault". */
const char *trap_cause_name(uint32_t cause);

/* Default for unhandled traps: prints the FATAL TRAP line and exits the core. */
__attribute__((noreturn)) void trap_fatal(const trap_frame_t *frame);

/* Called by trap_entry.S only. */
void namp_trap_dispatch(trap_frame_t *frame);

#endif
