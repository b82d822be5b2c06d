/* NAMP driver: the slot interface of the network adapter for message passing (thesis 3.2.5,
 * Table 3.2; slots at NA_NAMP_SLOT_BASE(n), Table 4.1). Slot allocation among the software users
 * of a tile, programming of a slot for every mode (credit, unbuffered, buffered, CCM;
 * connection-less or connection-oriented), completion by polling DONE or by interrupt, the STATUS
 * error codes, and the receive counter.
 *
 * The register names come from the hardware contract header (contract/); namp_hw.h maps them. */
#ifndef NAMP_DRIVER_H
#define NAMP_DRIVER_H

#include <stdint.h>

#include "namp/namp_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NAMP_MAX_SLOTS 32u /* the driver manages up to 32 (NA_NAMP_MAX_SLOTS: 128) */

/* Driver state of one tile (core 0 and interrupt context). */
typedef struct namp_driver_stats {
    uint32_t started, completed, errors, irqs, rx_acked;
} namp_driver_stats_t;

/* Reads NA_FEATURES / NA_NAMP_SLOTS; returns the number of usable slots (0: no NAMP). Does not
 * touch the interrupt controller: the owner of the MEIP handler unmasks NAMP_DONE / RX_COUNT and
 * calls namp_irq() from it. */
uint32_t namp_init(void);
uint32_t namp_slots(void);
uint32_t namp_features(void); /* NA_FEATURES >> 8: NAMP feature bits (NAMP_FEAT_*) */

/* Slot allocation among software users (thread and interrupt context). -1: all busy. */
int namp_slot_alloc(void);
/* Takes a slot out of namp_slot_alloc's hands for good (a kernel gives it to a task's vif). */
void namp_slot_reserve(unsigned slot);
/* namp_slot_reserve only if no software user has the slot now: 1 taken, 0 busy. */
int namp_slot_claim(unsigned slot);
void namp_slot_free(unsigned slot);
uint32_t namp_slots_busy(void);
/* Hands a started buffered-send slot to the NAMP: it completes implicitly (the NAMP frees the
 * send-buffer element and the slot); the allocator takes the slot back once VALID is clear. */
void namp_slot_implicit(unsigned slot);
/* Error code of the last implicitly completed slot without owner that failed (0: none), cleared
 * by reading. */
uint32_t namp_implicit_error(void);
/* The same with an owner (any value but 0, e.g. the sending endpoint): the failure of a slot is
 * reported only to the owner that started it (namp_implicit_error_of, cleared by reading), so
 * the errors of several senders on one tile are never mixed up. */
void namp_slot_implicit_for(unsigned slot, uintptr_t owner);
uint32_t namp_implicit_error_of(uintptr_t owner);

/* Programs a slot and sets VALID (flags: NAMP_F_* without VALID). p1 = address of the
 * remote-endpoint handle in local SRAM; p2/p3 per mode (Table 3.2c). */
void namp_slot_start(unsigned slot, uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3);

/* The modes of Table 3.2c. */
static inline void namp_send_unbuffered(unsigned s, uint32_t con, uint32_t ien, uint32_t handle,
                                        const void *data, uint32_t size)
{
    namp_slot_start(s, (con ? NAMP_F_CON : 0u) | (ien ? NAMP_F_IEN : 0u), handle,
                    (uint32_t)(uintptr_t)data, size);
}
static inline void namp_send_buffered(unsigned s, uint32_t con, uint32_t ien, uint32_t handle,
                                      const void *sendbuf, uint32_t index)
{
    namp_slot_start(s, NAMP_F_BUF | (con ? NAMP_F_CON : 0u) | (ien ? NAMP_F_IEN : 0u), handle,
                    (uint32_t)(uintptr_t)sendbuf, index);
}
static inline void namp_send_ccm(unsigned s, uint32_t con, uint32_t ien, uint32_t handle,
                                 const void *sendbuf)
{
    namp_slot_start(s, NAMP_F_BUF | NAMP_F_CCM | (con ? NAMP_F_CON : 0u) | (ien ? NAMP_F_IEN : 0u),
                    handle, (uint32_t)(uintptr_t)sendbuf, 0);
}
static inline void namp_send_credit(unsigned s, uint32_t ien, uint32_t handle, uint32_t credits)
{
    namp_slot_start(s, NAMP_F_COM | (ien ? NAMP_F_IEN : 0u), handle, credits, 0);
}
/* Leaves CCM: the NAMP completes the current transfer, then DONE. */
void namp_ccm_stop(unsigned slot);

/* Where a connected handle sends now (its tile and endpoint address): NAMP-PS moves a receiver by
 * rewriting the pair in one burst (RELOC, MIGRATE, software PS's redirect) while the core reads it
 * a word at a time, so it is read until a read sees the same pair twice. */
static inline void namp_handle_peer(const volatile namp_handle_t *h, uint32_t *tile, uint32_t *ep)
{
    uint32_t t, a;
    do {
        t = h->tile;
        a = h->endpoint;
    } while (t != h->tile || a != h->endpoint);
    *tile = t;
    *ep = a;
}

/* Completion. done: 1 when DONE (or a refused configuration: STATUS has ERROR). */
int namp_slot_done(unsigned slot);
uint32_t namp_slot_status(unsigned slot); /* raw STATUS register */
/* Finishes a completed transfer: clears VALID; returns 0 or the error code of STATUS. */
uint32_t namp_slot_finish(unsigned slot);
/* Blocks until DONE: use_irq = 0 spins on DONE, 1 sleeps in wfi until the NAMP_DONE interrupt
 * marked it (the slot must have been started with IEN). Returns the error code (0 = ok); the slot
 * stays allocated, VALID is cleared. */
uint32_t namp_slot_wait(unsigned slot, int use_irq);
/* Blocks until DONE of a slot started with IEN, sleeping in wfi with interrupts globally off: the
 * NAMP_DONE line wakes the core without a trap, the slot is finished (VALID = 0, the line drops)
 * before interrupts are enabled again; other active sources are handed to their handler in
 * between. Adds the cycles asleep to *idle (may be NULL). Returns the error code. */
uint32_t namp_slot_wait_wfi(unsigned slot, volatile uint64_t *idle);
/* A whole blocking transfer in one call: allocates a slot, programs it (IEN added), waits as
 * namp_slot_wait_wfi and frees it. Returns the error code, or -1 when no slot is free. */
int32_t namp_run(uint32_t flags, uint32_t p1, uint32_t p2, uint32_t p3, volatile uint64_t *idle);
/* Bitmask of slots whose DONE interrupt has been seen by namp_irq() (cleared by finish). */
uint32_t namp_done_mask(void);
/* Bitmask of slots (< 32) that have DONE now: one register read (NA_NAMP_DONE_SLOTS). */
uint32_t namp_done_slots(void);
/* Turns IEN on for a running slot (before sleeping on it: its DONE will wake the core); the
 * NAMP_DONE handler marks it done. No effect if it has IEN already. */
void namp_slot_irq_on(unsigned slot);

const char *namp_error_name(uint32_t code);

/* Receive counter: messages that arrived and have not been acknowledged yet. */
uint32_t namp_rx_count(void);
void namp_rx_ack(uint32_t n);
/* Allocation requests the target refused for a full receive buffer or a paused endpoint
 * (NA_NAMP_REFUSED; wraps). */
uint32_t namp_refused(void);

/* Interrupt part, called by the MEIP handler with NA_IRQ_ACTIVE: handles NAMP_DONE (marks the
 * completed IEN slots, writes the acknowledge) and RX_COUNT (acknowledges the whole count and
 * returns it through *rx). Returns the sources handled. */
uint32_t namp_irq(uint32_t active, uint32_t *rx);

extern volatile namp_driver_stats_t namp_stats;

#ifdef __cplusplus
}
#endif
#endif
