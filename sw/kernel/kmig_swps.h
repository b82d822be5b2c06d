/* Protection switching in software (thesis 3.6.3; K_MIGRATE_SOFTWARE; sw/kernel/kmig_swps.c):
 * what the kernels of the tiles do for a migration when the adapters have no NAMP-PS. kmig.c
 * calls these from its phases and its service; docs/kernel.md "Task migration" describes the
 * method. */
#ifndef KMIG_SWPS_H
#define KMIG_SWPS_H

#include <stdint.h>

#include "mcapi.h"

/* ---- the source: the forwarder (a kernel thread, started with the migration service) ---- */

/* Starts forwarding the incoming channel whose receive buffer (the task's page, geometry
 * MP_TASK_RX_N/M) is at rx: every element committed there from index `from` on is copied to the
 * buffer at dst_rx on `tile`, at the same index (data and size word). A handle (>= 0), or -1 when
 * every forwarding entry is taken. */
int kswps_forward(uint32_t rx, uint32_t from, uint32_t tile, uint32_t dst_rx);
/* The task has stopped (switch-over): the receive buffer is synchronised with the destination's
 * (what the task still holds from before `from` is copied, what it took after `from` is cleared
 * there), and from now on the forwarder also frees each element it forwards. Returns the index up
 * to which the destination's buffer is complete (its write index at the switch). */
uint32_t kswps_sync(int f);
/* The task runs at the destination: the forwarder moves the destination's write index along. */
void kswps_live(int f);
/* The sender has been switched, its stream at the old location ends at `end`: forwards up to it,
 * sets the destination's write index there and ends the entry. K_OK or K_ETIMEDOUT. */
int kswps_finish(int f, uint32_t end);
/* A migration that did not happen: the entry ends, nothing more is forwarded. */
void kswps_cancel(int f);

/* ---- a sender's tile, the receiver's tile (the migration service's requests) ---- */

/* w = {handle, tile, endpoint, rdata, id, new_id}: switches the sending handle at `handle` (this
 * tile), connected to the endpoint of identity id, to (tile, endpoint, rdata, new_id): its credits
 * taken, its transfers finished, its words rewritten. *end: the stream's end at the old location
 * (the handle's wr_idx), *taken: the credits taken (the destination gives them back). */
int kswps_redirect(const uint32_t *w, uint32_t *end, uint32_t *taken);
/* The destination (phase II): the adopted receiving side e's credit path names a sink of this
 * tile until its sender is switched (K_ENOMEM: no entry free). */
int kswps_sink(mcapi_endpoint_t e);
/* w = {ep_addr, id, taken}: the destination's receiving endpoint (this tile, of identity id) whose
 * sender was switched to it: its credit path names the sender again, which gets what the sink
 * took plus taken. */
int kswps_give_credits(const uint32_t *w);
/* w = {ep_addr, tile, handle, -, id, old_handle}: the receiving side (endpoint at ep_addr, this
 * tile, of identity id, whose sender is old_handle on tile `from`) of a channel whose sender
 * moves: its credit path to the sender's new handle (tile, handle), rewritten once no credit
 * transfer of it runs. */
int kswps_move_credit_path(const uint32_t *w, uint32_t from);

/* The forwarder's priority (k_migrate_service_start; the thread starts with the first entry), and
 * its end once idle (k_migrate_service_stop). */
int kswps_start(uint32_t prio);
void kswps_stop(void);

/* kmig.c's, used here too: a sender's handle suspended (credits taken, its transfers done; *w its
 * wr_idx). */
int kmig_suspend_sender(uint32_t handle, uint32_t id, uint32_t *w, uint32_t *taken);
void kmig_give_credits(uint32_t credit_path, uint32_t n);
/* A handle's ID word names the endpoint of identity ep_id (always true without namp.identity,
 * whose adapters do not keep that word across a relocation). */
int kmig_same_id(uint32_t handle_id, uint32_t ep_id);
/* The migration's waits: a short spin, then a tick of sleep per look, over after `ticks` (no
 * kernel work for a migration holds lower-priority threads off the core, docs/security.md). */
struct kwait {
    uint64_t until;
    uint32_t looks;
};
struct kwait kwait_for(uint32_t ticks);
int kwait_more(struct kwait *w);

#endif
