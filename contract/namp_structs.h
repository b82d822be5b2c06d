/* NAMP data structures in tile memory (thesis Fig. 3.3), fixed byte layout shared by the VP (C++)
 * and the firmware (C). All fields are little-endian 32-bit words, structures 4-byte aligned,
 * addresses are tile-local SRAM addresses. Buffers are mp_cbuffer (cbuffer_layout.h:
 * tagged 32-bit indices, size word = MP_CB_COMMITTED | bytes). docs/namp.md is the manual.
 * The slot registers are in na_registers.h. */
#ifndef NAMP_STRUCTS_H
#define NAMP_STRUCTS_H

#include <stdint.h>

#include "na_registers.h"

/* ---- Endpoint (Fig. 3.3a), 64 bytes, lives in the receiving tile ----
 * The NAMP target reads state, flags and rx_buffer when a message for this endpoint arrives, and
 * increments rx_messages on every message it completes into rx_buffer. The words from +0x18 are
 * named for the features that use them (HW-OSQM, PS, CC); software keeps them 0 until then.
 * Identity (namp.identity, docs/security.md "Endpoint identity"): ID is a non-zero number unique
 * on the tile and new at every creation of an endpoint in this memory (software writes it while
 * the state is not READY). Every allocation, FINAL and fast-path FINAL carries the ID the
 * sender's handle holds; the target refuses a mismatch (NO_ENDPOINT, nothing written): a handle
 * of a deleted endpoint never reaches the endpoint that reuses its memory. */
#define NAMP_EP_ID          0x00u /* identity of this endpoint (see above); 0: none */
#define NAMP_EP_STATE       0x04u /* NAMP_EP_STATE_* */
#define NAMP_EP_FLAGS       0x08u /* NAMP_EP_F_* */
#define NAMP_EP_RX_BUFFER   0x0Cu /* address of the receive mp_cbuffer (0: none) */
#define NAMP_EP_TX_BUFFER   0x10u /* address of the optional send mp_cbuffer (0: none) */
#define NAMP_EP_RX_MESSAGES 0x14u /* messages the NAMP completed into rx_buffer (wraps) */
#define NAMP_EP_OSQM_QUEUE  0x18u /* HW-OSQM: ready queue a waiting thread is put into (0: none) */
#define NAMP_EP_OSQM_THREAD 0x1Cu /* HW-OSQM: the thread waiting on this endpoint (0: none) */
/* PS: 0, or the address of the relocated endpoint's remote data
 * (namp_ps.h): allocations are answered NAK_RELOC */
#define NAMP_EP_RELOC       0x20u
/* SV guard (NAMP_EP_F_GUARDED): bytes of the receive window
 * [rx_buffer, rx_buffer + RX_WINDOW) the target may touch */
#define NAMP_EP_RX_WINDOW   0x24u
#define NAMP_EP_CC          0x28u /* CC: gather / reduction descriptor of the endpoint (0: none) */
/* SV guard: elements allocated and not yet finalized (the
 * target counts them; the kernel frees the window at 0) */
#define NAMP_EP_INFLIGHT    0x2Cu
/* 0x30..0x3F reserved (0); software keeps an endpoint's PS
 * relocation record here (namp_ps.h) */
#define NAMP_EP_RESERVED    0x30u
#define NAMP_EP_SIZE        0x40u

#define NAMP_EP_STATE_FREE    0u /* not an endpoint: messages are refused (NACK no-endpoint) */
#define NAMP_EP_STATE_READY   1u /* receives */
#define NAMP_EP_STATE_DELETED 2u /* refuses (NACK no-endpoint) */

#define NAMP_EP_F_NOTIFY  (1u << 0) /* completions into this endpoint count in NA_NAMP_RX_COUNT */
/* receiving side of a connected channel: the target refuses
 * connection-less messages (NACK NAMP_ERR_CHANNEL) */
#define NAMP_EP_F_CHANNEL (1u << 1)
/* the receive buffer lies in memory a task can write: every
 * address the target derives from its header must lie in
 * the RX_WINDOW (else NACK / drop NAMP_ERR_WINDOW), and the
 * target counts INFLIGHT (docs/namp.md "SV isolation") */
#define NAMP_EP_F_GUARDED (1u << 2)

/* ---- Remote-endpoint handle (Fig. 3.3c), 64 bytes, lives in the sending tile ----
 * PARAM1 of a slot is the address of a handle. For a channel (CON) the sender consumes `credits`
 * (the NAMP decrements it atomically before each packet); the receiver's CREDIT message adds to
 * it atomically. For a credit transfer (CoM) the handle names the sender's handle instead: its
 * `endpoint` field is the address, in `tile`, of the handle whose credit word is increased.
 * Channel fast path (thesis Fig. 3.19): when software sets NAMP_H_F_DIRECT at connect time, with
 * the remote receive buffer's data address (`rdata`), its geometry (flags[20:16] = capacity_log2,
 * flags[28:24] = max_msg_log2) and the next element index (`wr_idx`, tagged mp_cbuffer index, the
 * CONNECT_ACK wr_idx), a CON transfer sends no allocation request: the NAMP takes a credit, takes
 * element wr_idx (and increments the word), writes the data to rdata + (slot << max_msg_log2)
 * and the FINAL message (NAMP_FINAL_F_ADVANCE) commits it and advances the receiver's wr_idx.
 * Without NAMP_H_F_DIRECT a CON transfer allocates like a message (ALLOC_REQ/RESP). The words
 * from +0x20 are named for the features that use them; software keeps them 0 until then. */
/* identity of what `endpoint` names: the endpoint's NAMP_EP_ID;
 * for a credit path the ID of the receiving endpoint, which the
 * channel sender's handle holds in its own NAMP_H_ID (a CREDIT
 * carries it and the target compares) */
#define NAMP_H_ID       0x00u
#define NAMP_H_TILE     0x04u /* destination tile id */
#define NAMP_H_ENDPOINT 0x08u /* address of the endpoint (CoM: of the peer's handle) in `tile` */
#define NAMP_H_CREDITS  0x0Cu /* channel credits left (sender side) */
#define NAMP_H_FLAGS    0x10u /* NAMP_H_F_* */
#define NAMP_H_SENT     0x14u /* packets the NAMP completed through this handle (wraps) */
#define NAMP_H_RDATA    0x18u /* DIRECT: data address of the remote receive buffer */
#define NAMP_H_WR_IDX   0x1Cu /* DIRECT: next remote element index (the NAMP increments it) */
/* CC member handle (NAMP_ET_MEMBER): the contributor's key, the
 * tile and NAMP_EP_ID of its sending endpoint; a reduction or
 * gather root with a member table admits only keys it lists
 * (namp_cc.h NAMP_CC_RX_MEMBERS). Only the sender's kernel
 * writes it. */
#define NAMP_H_KEY_TILE 0x20u
#define NAMP_H_KEY_ID   0x24u
#define NAMP_H_DUALCAST 0x2Cu /* PS: the handle's reserved dualcast block (namp_ps.h) (0: none) */
#define NAMP_H_RESERVED 0x30u /* 0x30..0x3F reserved (0) */
#define NAMP_H_SIZE     0x40u

/* a connected channel's sending handle: the only handles a
 * CREDIT may name (the target refuses others, no write) */
#define NAMP_H_F_CONNECTED (1u << 0)
#define NAMP_H_F_DIRECT    (1u << 1) /* channel fast path: rdata, geometry and wr_idx are valid */
/* set by the NAMP when the receiving side revoked the channel
 * (CREDIT with NAMP_CREDIT_F_REVOKE): transfers fail CLOSED */
#define NAMP_H_F_REVOKED   (1u << 2)
#define NAMP_H_CAP_SHIFT   16u /* flags[20:16]: remote capacity_log2 */
#define NAMP_H_MSG_SHIFT   24u /* flags[28:24]: remote max_msg_log2 */
#define NAMP_H_GEOMETRY(cap_log2, msg_log2)               \
    ((((uint32_t)(cap_log2)&0x1Fu) << NAMP_H_CAP_SHIFT) | \
     (((uint32_t)(msg_log2)&0x1Fu) << NAMP_H_MSG_SHIFT))
#define NAMP_H_CAP_LOG2(flags) (((flags) >> NAMP_H_CAP_SHIFT) & 0x1Fu)
#define NAMP_H_MSG_LOG2(flags) (((flags) >> NAMP_H_MSG_SHIFT) & 0x1Fu)

#define NAMP_TUPLE(domain, node, port)                                        \
    ((((uint32_t)(domain)&0xFFu) << 24) | (((uint32_t)(node)&0xFFFu) << 12) | \
     ((uint32_t)(port)&0xFFFu))

#ifndef __cplusplus
_Static_assert(NAMP_EP_SIZE == 64u && NAMP_H_SIZE == 64u, "NAMP structure sizes");
#endif

typedef struct namp_endpoint {
    uint32_t id;
    volatile uint32_t state;
    volatile uint32_t flags;
    uint32_t rx_buffer;
    uint32_t tx_buffer;
    volatile uint32_t rx_messages;
    volatile uint32_t osqm_queue;
    volatile uint32_t osqm_thread;
    uint32_t reloc;
    uint32_t rx_window;
    uint32_t cc;
    volatile uint32_t inflight;
    uint32_t reserved[4];
} namp_endpoint_t;

typedef struct namp_handle {
    uint32_t id;
    uint32_t tile;
    uint32_t endpoint;
    volatile uint32_t credits;
    uint32_t flags;
    volatile uint32_t sent;
    uint32_t rdata;
    volatile uint32_t wr_idx;
    uint32_t key_tile, key_id;
    uint32_t reserved28;
    uint32_t dualcast;
    uint32_t reserved[4];
} namp_handle_t;

/* ---- Protocol messages (thesis 3.2.5.6) ----
 * One NoC header type on the control channels, NAMP_NOC_TYPE, is the NAMP's when it is enabled;
 * the first payload word says which message it is: NAMP_MSG_WORD(sub-type, flags, tag), with the
 * tag = NAMP_TAG(slot, destination) of the sending slot, echoed in responses. Further words per
 * sub-type below. Sub-types 5..255 are reserved for the features (CC, PS, ...). */
#define NAMP_NOC_TYPE 11u
#define NAMP_MSG_WORD(sub, flags, tag) \
    (((uint32_t)(sub)&0xFFu) | (((uint32_t)(flags)&0xFFu) << 8) | (((uint32_t)(tag)&0xFFFFu) << 16))
#define NAMP_MSG_SUB(w)     ((w)&0xFFu)
#define NAMP_MSG_FLAGS(w)   (((w) >> 8) & 0xFFu)
#define NAMP_MSG_TAG(w)     (((w) >> 16) & 0xFFFFu)
/* tag: slot [14:8], destination (multicast member) [7:0] */
#define NAMP_TAG(slot, dst) ((((uint32_t)(slot)&0x7Fu) << 8) | ((uint32_t)(dst)&0xFFu))
#define NAMP_TAG_SLOT(t)    (((t) >> 8) & 0x7Fu)
#define NAMP_TAG_DST(t)     ((t)&0xFFu)

#define NAMP_MSG_ALLOC_REQ   1u /* control request:  [w0][endpoint][size]; flags NAMP_ALLOC_F_* */
#define NAMP_MSG_ALLOC_RESP  2u /* control response: [w0][code][element][data addr]; flags ACK */
#define NAMP_MSG_CREDIT      3u /* control request:  [w0][handle address][credits] */
#define NAMP_MSG_FINAL       4u /* control request:  [w0][endpoint][element][size]; NAMP_FINAL_F_* */
/* With namp.identity ALLOC_REQ, FINAL and CREDIT carry one more word after these, the identity
 * the sender's handle (a credit path's for CREDIT) holds in NAMP_H_ID: [w0][endpoint][size][id],
 * [w0][endpoint][element][size][id], [w0][handle][credits][id]. */
/* control response: [w0][handle address][code]: a CREDIT the
 * target refused (no write: not a connected channel handle) */
#define NAMP_MSG_CREDIT_NACK 5u
/* sub-types 1..9 used (6..9: NAMP-PS, namp_ps.h); statistics
 * count 0..9 (0: unknown) */
#define NAMP_MSG_TYPES       10u

#define NAMP_ALLOC_F_CHANNEL (1u << 0) /* the transfer belongs to a channel (CON) */
/* CREDIT: revoke the handle (NAMP_H_F_REVOKED), no credits */
#define NAMP_CREDIT_F_REVOKE (1u << 0)
/* ALLOC_RESP: allocated (else NACK with the code word:
 * 0 = buffer full, retry; else a NAMP_ERR_* code) */
#define NAMP_RESP_F_ACK      (1u << 0)
/* FINAL flags: ADVANCE, channel fast path: the target also advances the receive buffer's wr_idx
 * by one (atomic fetch-and-add; no allocation reserved the element). VOID: the transfer failed
 * after it took the element; the target marks the element MP_CB_VOID (consumers skip it) so that
 * no element is reused while later ones are in flight. */
#define NAMP_FINAL_F_ADVANCE (1u << 0)
#define NAMP_FINAL_F_VOID    (1u << 1)
/* NAMP-CC reduction (namp_cc.h): ALLOC_REQ [w0][endpoint][size][id][op | type << 8] finds the
 * element combining reduction `id` or reserves and initialises a new one; FINAL counts the
 * contribution and commits the element when all have arrived. */
#define NAMP_ALLOC_F_REDUCE  (1u << 1)
#define NAMP_FINAL_F_REDUCE  (1u << 2)
/* NAMP-CC gather: ALLOC_REQ [w0][endpoint][size][id][part] finds the element collecting gather
 * `id` or reserves a new one and sets the part's allocated bit; FINAL's size word carries the part
 * in [31:24] and sets its finalized bit; the last part commits the element. */
#define NAMP_ALLOC_F_GATHER  (1u << 2)
#define NAMP_FINAL_F_GATHER  (1u << 3)
/* With namp.identity the identity word comes after [size], and a reduction's or gather's
 * ALLOC_REQ ends with the contributor's key from its member handle: [w0][endpoint][size][ident]
 * [id][op | type << 8 or part][key tile][key id] (namp_cc.h NAMP_CC_RX_MEMBERS). */

/* NAMP-SV endpoint table (kernel memory, one per task): entry vID at ET_BASE + 16 * vID.
 * [addr][kind][limit][0]: a remote-endpoint handle (slot PARAM1), a local send buffer (PARAM2,
 * BUF=1) with its window [addr, addr + limit) — every address the initiator derives from the
 * buffer's header (which the task can write) must lie in it — or a channel's credit path (a
 * handle the task may start credit mode on, CoM) or a collective area (CC through a vif: the
 * task's descriptors and data of its collectives lie in [addr, addr + limit); the members of a
 * descriptor are vIDs of handle entries). Everything in an entry is the kernel's. */
#define NAMP_ET_ENTRY_SIZE 16u
#define NAMP_ET_ADDR       0x00u
#define NAMP_ET_KIND       0x04u
#define NAMP_ET_LIMIT      0x08u /* SENDBUF, CCAREA: window bytes from addr */
#define NAMP_ET_EMPTY      0u
#define NAMP_ET_HANDLE     1u
#define NAMP_ET_SENDBUF    2u
#define NAMP_ET_CREDIT     3u /* a handle whose credit path (CoM, REVOKE) the task drives */
#define NAMP_ET_CCAREA     4u /* a collective area in the task's memory (PARAM1 of a CC start) */
/* a contributor's handle of a reduction or gather root (its key
 * words set by the kernel): the only member a reduction or
 * gather may name, and usable for nothing else */
#define NAMP_ET_MEMBER     5u

#endif
