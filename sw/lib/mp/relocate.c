/* Endpoint relocation with NAMP-PS (thesis 3.6.4; docs/message-passing.md "Endpoint relocation"):
 * the library's half of protection switching, for bare-metal firmware that moves a receiving
 * endpoint to another tile and for the kernel's task migration (sw/kernel/kmig.c).
 *
 * A relocated endpoint becomes a tombstone: its hardware endpoint stays READY with its RELOC word
 * naming the new location (the record sits in the endpoint's own reserved words), so every sender
 * that still allocates there is answered NAK_RELOC and follows; its software handle becomes a
 * remote handle to the new location, so this tile's own senders follow too; lookups of its port
 * from other tiles answer with the tombstone. A tombstone is never reused (MP_EP_MOVED). */
#include <stddef.h>
#include <string.h>

#include "mcapi_core.h"
#include "mcapix_ps.h"
#include "mp_internal.h"
#include "na/na.h"
#include "namp/namp.h"
#include "namp_ps.h"
#include "namp_structs.h"
#include "tile_memory_map.h"

#include "transport_namp.h"
#include "transport_sw.h"

/* transport_namp.c: the credit path of a receiving channel endpoint */
void mp_tr_credit_path_init(struct mp_endpoint *ep);

/* the relocation record of an endpoint: its own reserved words (namp_ps.h NAMP_PS_R_*) */
#define RECORD(ep)        ((uint32_t)(uintptr_t)(ep)->hw + NAMP_EP_RESERVED)
#define RELOC_DRAIN_TRIES 100000u

static namp_endpoint_t *hw_ep(struct mp_endpoint *ep) { return (namp_endpoint_t *)ep->hw; }

static struct mp_endpoint *ready_ep(mcapi_endpoint_t e)
{
    struct mp_endpoint *ep = e ? e->local : NULL;
    return ep && ep->state == MP_EP_READY ? ep : NULL;
}

int mcapix_ps_available(void) { return (na_features() & NA_FEATURE_NAMP_PS) != 0; }

int mcapix_endpoint_inspect(mcapi_endpoint_t e, mcapix_endpoint_info_t *info)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep || !info)
        return -1;
    info->endpoint = (uint32_t)(uintptr_t)ep->hw;
    info->id = ep->id;
    info->rx = (uint32_t)(uintptr_t)ep->rx;
    info->capacity_log2 = ep->rx_n;
    info->max_msg_log2 = ep->rx_m;
    info->port = ep->h.port;
    info->channel_recv = (ep->flags & MP_EPF_CHAN_RECV) != 0;
    info->channel_send = (ep->flags & MP_EPF_CHAN_SEND) != 0;
    info->peer_node = ep->peer_node;
    info->peer_handle = ep->peer_ep;
    if (info->channel_recv)
        mp_tr_credit_path_init(ep);
    info->credit_path = (uint32_t)(uintptr_t)ep->peer_h.hw;
    info->send_handle = (uint32_t)(uintptr_t)ep->peer_h.hw;
    return 0;
}

mcapi_endpoint_t mcapix_endpoint_by_addr(uint32_t addr)
{
    struct mp_endpoint *ep = mp_ep_from_addr(addr);
    return ep && ep->state == MP_EP_READY ? &ep->h : NULL;
}

mcapi_status_t mcapix_endpoint_hold(mcapi_endpoint_t e, int held)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep)
        return MCAPI_ERR_ENDP_INVALID;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    hw_ep(ep)->state = held ? NAMP_EP_STATE_PAUSED : NAMP_EP_STATE_READY;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return MCAPI_SUCCESS;
}

uint32_t mcapix_endpoint_inflight(mcapi_endpoint_t e)
{
    struct mp_endpoint *ep = e ? e->local : NULL;
    return ep ? __atomic_load_n(&hw_ep(ep)->inflight, __ATOMIC_ACQUIRE) : 0u;
}

mcapi_status_t mcapix_endpoint_adopt_recv(mcapi_endpoint_t e, uint32_t peer_node,
                                          uint32_t peer_handle)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep)
        return MCAPI_ERR_ENDP_INVALID;
    if (ep->flags & (MP_EPF_CHAN_SEND | MP_EPF_CHAN_RECV))
        return MCAPI_ERR_CHAN_CONNECTED;
    ep->peer_node = peer_node;
    ep->peer_ep = peer_handle;
    ep->released = 0;
    ep->flags |= MP_EPF_CHAN_RECV | MP_EPF_OPEN;
    mp_namp_chan_accepted(ep);
    mp_tr_credit_path_init(ep);
    return MCAPI_SUCCESS;
}

mcapi_status_t mcapix_chan_credit_path_moved(mcapi_endpoint_t e, uint32_t node, uint32_t handle)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep || !(ep->flags & MP_EPF_CHAN_RECV))
        return MCAPI_ERR_ENDP_INVALID;
    /* the hardware handle was switched by RELOC; the library's own view follows */
    ep->peer_node = node;
    ep->peer_ep = handle;
    ep->peer_h.node = node;
    ep->peer_h.addr = handle;
    return MCAPI_SUCCESS;
}

void mcapix_chan_stopped(uint32_t node, uint32_t addr) { mp_sw_chan_stopped_to(node, addr); }

mcapi_status_t mcapix_endpoint_redirect(mcapi_endpoint_t e, uint32_t node, uint32_t addr,
                                        uint32_t id)
{
    struct mp_endpoint *ep = e ? e->local : NULL;
    if (!ep || (ep->state != MP_EP_READY && ep->state != MP_EP_MOVED))
        return MCAPI_ERR_ENDP_INVALID;
    if (!mcapix_ps_available())
        return MCAPI_ERR_NOT_SUPPORTED;
    volatile uint32_t *rec = (volatile uint32_t *)(uintptr_t)RECORD(ep);
    rec[NAMP_PS_R_TILE / 4] = node;
    rec[NAMP_PS_R_ENDPOINT / 4] = addr;
    rec[NAMP_PS_R_ID / 4] = id;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    hw_ep(ep)->reloc = RECORD(ep);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    hw_ep(ep)->state = NAMP_EP_STATE_READY; /* a held endpoint answers NAK_RELOC from now on */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* allocations granted before drain at this location: wait until none is in flight */
    uint32_t tries = 0;
    while (__atomic_load_n(&hw_ep(ep)->inflight, __ATOMIC_ACQUIRE) != 0 &&
           ++tries < RELOC_DRAIN_TRIES)
        (void)mmio_read32(TILE_INFO_BASE + TILEINFO_TILE_ID); /* a device access: time passes */
    if (hw_ep(ep)->inflight != 0)
        return MCAPI_TIMEOUT;
    /* nothing writes into the buffer any more: the tombstone forgets it (its memory may be given
     * to someone else; a tombstone answers NAK_RELOC from its record alone) */
    hw_ep(ep)->state = NAMP_EP_STATE_MOVED;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    hw_ep(ep)->rx_buffer = 0;
    hw_ep(ep)->rx_window = 0;
    if (ep->rx_given)
        ep->rx = NULL; /* a task's page: it goes with the task (bare metal copies from its own) */
    ep->state = MP_EP_MOVED;
    ep->h.local = NULL;
    ep->h.node = node;
    ep->h.addr = addr;
    ep->h.id = id;
    mp_tr_handle_init(&ep->h);
    return MCAPI_SUCCESS;
}

mcapi_status_t mcapix_endpoint_bury(mcapi_endpoint_t e)
{
    struct mp_endpoint *ep =
        e ? mp_ep_from_addr((uint32_t)(uintptr_t)e - (uint32_t)offsetof(struct mp_endpoint, h))
          : NULL;
    if (!ep || ep->state != MP_EP_MOVED)
        return MCAPI_ERR_ENDP_INVALID;
    hw_ep(ep)->reloc = 0;
    if (ep->rx_given)
        ep->rx = NULL; /* a task's page: never the library's to free */
    mp_ep_release(ep); /* DELETED: the entry (and a bare-metal endpoint's buffers) back */
    return MCAPI_SUCCESS;
}

mcapi_status_t mcapix_endpoint_retire(mcapi_endpoint_t e)
{
    /* a moved endpoint's own handle points elsewhere now: the endpoint is the one around it */
    struct mp_endpoint *ep =
        e ? mp_ep_from_addr((uint32_t)(uintptr_t)e - (uint32_t)offsetof(struct mp_endpoint, h))
          : NULL;
    /* MOVED: redirected (PS); READY: its sender was switched by its kernel (software PS) */
    if (!ep || (ep->state != MP_EP_MOVED && ep->state != MP_EP_READY) ||
        !(ep->flags & MP_EPF_CHAN_RECV))
        return MCAPI_ERR_ENDP_INVALID;
    hw_ep(ep)->state = NAMP_EP_STATE_DELETED;
    hw_ep(ep)->reloc = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    ep->rx = NULL; /* the task's page: never the library's to free */
    ep->state = MP_EP_DELETED;
    return MCAPI_SUCCESS;
}

void mcapix_endpoint_discard(mcapi_endpoint_t e, mcapi_status_t *status)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep) {
        SET(status, MCAPI_ERR_ENDP_INVALID);
        return;
    }
    /* no sender's handle points here: no revoke, no "stopped" to wait for or to send */
    ep->flags &= ~(MP_EPF_CHAN_RECV | MP_EPF_CHAN_SEND | MP_EPF_OPEN);
    hw_ep(ep)->flags &= ~NAMP_EP_F_CHANNEL;
    mcapi_endpoint_delete(e, status);
}

/* ---- bare metal: the whole move of a connection-less endpoint ---- */

mcapi_endpoint_t mcapix_endpoint_create_relocated(mcapi_port_t port,
                                                  const mcapix_endpoint_attributes_t *a,
                                                  mcapi_status_t *status)
{
    mcapi_endpoint_t e = mcapix_endpoint_create(port, a, status);
    if (e)
        (void)mcapix_endpoint_hold(e, 1); /* "full" until mcapix_endpoint_relocate fills it */
    return e;
}

/* One RDMA copy into another tile through the adapter's last user DMA slot (the NAMP transport
 * uses none), polled. */
int mp_rdma_put(uint32_t tile, uint32_t dst, const void *src, uint32_t size)
{
    const uint32_t slots = na_dma_slots();
    if (slots == 0)
        return -1;
    return na_dma_copy(slots - 1u, src, tile, dst, size);
}

static uint32_t rma_load(uint32_t tile, uint32_t addr)
{
    return *(volatile uint32_t *)(uintptr_t)RMA_ADDRESS(tile, addr - TILE_SRAM_BASE);
}
static void rma_store(uint32_t tile, uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)(uintptr_t)RMA_ADDRESS(tile, addr - TILE_SRAM_BASE) = v;
}
mcapi_status_t mcapix_endpoint_relocate(mcapi_endpoint_t e, mcapi_node_t node, mcapi_port_t port,
                                        mcapi_timeout_t timeout)
{
    struct mp_endpoint *ep = ready_ep(e);
    if (!ep)
        return MCAPI_ERR_ENDP_INVALID;
    if (ep->flags & (MP_EPF_CHAN_SEND | MP_EPF_CHAN_RECV))
        return MCAPI_ERR_CHAN_TYPE; /* channels move with the kernel's migration (RELOC) */
    if (!mcapix_ps_available())
        return MCAPI_ERR_NOT_SUPPORTED;
    if (node == ep->h.node)
        return MCAPI_ERR_PARAMETER;
    mcapi_status_t st;
    mcapi_endpoint_t to = mcapi_endpoint_get(MCAPI_DOMAIN, node, port, timeout, &st);
    if (st != MCAPI_SUCCESS)
        return st;
    /* the new endpoint: held, same geometry (RMA loads of its endpoint and buffer header) */
    const uint32_t nep = to->addr;
    const uint32_t nrx = rma_load(node, nep + NAMP_EP_RX_BUFFER);
    if (rma_load(node, nep + NAMP_EP_STATE) != NAMP_EP_STATE_PAUSED || !nrx ||
        rma_load(node, nrx + MP_CB_OFF_CAPACITY) != ep->rx_n ||
        rma_load(node, nrx + MP_CB_OFF_MAXMSG) != ep->rx_m)
        return MCAPI_ERR_PARAMETER;
    st = mcapix_endpoint_redirect(e, node, nep, to->id);
    if (st != MCAPI_SUCCESS)
        return st;
    /* the messages accepted here, in order, at the same indices of the new buffer */
    mp_cbuffer_t *b = ep->rx;
    const uint32_t n = ep->rx_n, m = ep->rx_m, mask = (1u << n) - 1u;
    const uint32_t rd = b->rd_idx, wr = b->wr_idx;
    const uint32_t nsizes = nrx + MP_CB_HEADER_SIZE, ndata = nsizes + (4u << n);
    for (uint32_t i = rd; i != wr; ++i) {
        const uint32_t k = i & mask, sw = mp_cbuffer_sizes(b)[k];
        if ((sw & MP_CB_COMMITTED) && !(sw & MP_CB_VOID) && (sw & MP_CB_SIZE_MASK) &&
            mp_rdma_put(node, ndata + (k << m), mp_cbuffer_data(b, i), sw & MP_CB_SIZE_MASK) != 0)
            return MCAPI_ERR_TRANSMISSION;
        rma_store(node, nsizes + 4u * k, sw);
    }
    rma_store(node, nrx + MP_CB_OFF_RD_IDX, rd);
    rma_store(node, nrx + MP_CB_OFF_WR_IDX, wr);
    (void)na_rma_drain();
    rma_store(node, nep + NAMP_EP_STATE, NAMP_EP_STATE_READY); /* the new location takes over */
    (void)na_rma_drain();
    return MCAPI_SUCCESS;
}
