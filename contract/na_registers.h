/* Network adapter registers, as seen from a tile (offsets inside the 4 MiB window at TILE_NA_BASE,
 * layout of thesis Table 4.1), and the remote-memory-access window. Shared by the VP (C++) and the
 * firmware (C). docs/network-adapter.md describes the behaviour of every register.
 * Any address in the window that is not listed (or belongs to an absent DMA slot) is a bus error. */
#ifndef NA_REGISTERS_H
#define NA_REGISTERS_H

#include <stdint.h>

/* ---- Basic status & configuration: 0x000000 - 0x001fff ---- */
#define NA_STATUS_BASE      0x000000u
#define NA_VERSION          0x000u /* R: (major << 16) | minor */
#define NA_FEATURES         0x004u /* R: NA_FEATURE_* bits of this instance */
#define NA_DMA_SLOTS        0x008u /* R: number of user DMA slots */
#define NA_NAMP_SLOTS       0x00Cu /* R: number of NAMP slots (0: no NAMP) */
#define NA_TILE_ID          0x010u /* R: this tile's id (y * width + x) */
#define NA_MAX_PACKET_FLITS 0x014u /* R: longest NoC packet, header flit included */
#define NA_RX_BUFFER_FLITS  0x018u /* R: capacity of each NoC receive buffer, in flits */
#define NA_RMA_OUTSTANDING  0x01Cu /* R: RMA stores sent but not yet acknowledged */
#define NA_RMA_ERRORS       0x020u /* R: RMA stores the remote tile refused; W: any value clears */
#define NA_MESH_SIZE        0x024u /* R: (height << 16) | width */
/* last baseline register: every higher offset of this page
 * is a bus error, except the NAMP registers below when the
 * instance has a NAMP */
#define NA_STATUS_LAST      0x024u
/* NAMP status registers (bus errors when the instance has no NAMP, namp.enabled = false) */
#define NA_NAMP_RX_COUNT    0x028u /* R: receive counter; W: subtract the value (saturates at 0) */
#define NA_NAMP_ARBITRATION 0x02Cu /* R/W: NAMP_ARB_* egress arbitration policy */
#define NA_NAMP_ATOMICS     0x030u /* R: 1 = the target uses atomic read-modify-write on its bus */
#define NA_NAMP_DONE_SLOTS  0x034u /* R: bit s = slot s (< 32) has DONE: one read polls them all */
#define NA_NAMP_SLOTS_VIRT  0x038u /* R: SLOTS_VIRT: the highest this many slots have a vif */
/* R: allocation requests the target refused for a full receive
 * buffer or a paused endpoint (the sender backs off and asks
 * again; wraps); W: subtract the value (saturates at 0) */
#define NA_NAMP_REFUSED     0x03Cu
#define NA_NAMP_STATUS_LAST 0x03Cu /* every higher offset of this page is a bus error */

#define NA_FEATURE_NOC_BUFFERS   (1u << 0)
#define NA_FEATURE_DMA           (1u << 1)
#define NA_FEATURE_RMA           (1u << 2)
/* NAMP features (bits 8..): a clear bit means that mode is absent (refused with an error STATUS). */
#define NA_FEATURE_NAMP_MSG      (1u << 8)  /* connection-less messages */
#define NA_FEATURE_NAMP_CHAN     (1u << 9)  /* connection-oriented channels (credits, CoM) */
#define NA_FEATURE_NAMP_BUF      (1u << 10) /* buffered sends from a local send buffer */
#define NA_FEATURE_NAMP_CCM      (1u << 11) /* continuous channel mode */
/* collective communication (NAMP-CC, namp_cc.h; docs/namp.md "Collective communication") */
#define NA_FEATURE_NAMP_CC_MCAST (1u << 12) /* multicast (connection-less and channels) */
#define NA_FEATURE_NAMP_CC_SG    (1u << 13) /* scatter and gather */
#define NA_FEATURE_NAMP_CC_RED   (1u << 14) /* reduction */
/* bits 15.. reserved: self-virtualization, OSQM, protection switching */

/* Egress arbitration policies (NA_NAMP_ARBITRATION) */
#define NAMP_ARB_LRS 0u /* least recently served ready slot */
#define NAMP_ARB_QOS 1u /* highest PRIORITY first, LRS among equals */
#define NAMP_ARB_MAP 2u /* most advanced transfer first (state order), LRS among equals */

/* ---- Interrupt controller: 0x002000 - 0x003fff ---- */
#define NA_IRQ_BASE    0x002000u
#define NA_IRQ_PENDING 0x000u /* R: sources that are active (level); see NA_IRQ_SRC_* */
#define NA_IRQ_MASK    0x004u /* R/W: 1 = source enabled; the line is (PENDING & MASK) != 0 */
#define NA_IRQ_ACTIVE  0x008u /* R: PENDING & MASK */
/* R/W: core of the tile whose MEIP the line drives (reset
 * na.irq_core); a core number >= the tile's cores is refused */
#define NA_IRQ_TARGET  0x00Cu

#define NA_IRQ_SRC_RX0       (1u << 0) /* NoC buffer 0 holds a received packet */
#define NA_IRQ_SRC_RX1       (1u << 1) /* NoC buffer 1 holds a received packet */
#define NA_IRQ_SRC_DMA       (1u << 2) /* a DMA slot with IEN set is DONE or ERROR */
#define NA_IRQ_SRC_RMA_ERROR (1u << 3) /* NA_RMA_ERRORS is non-zero */
#define NA_IRQ_SRC_NAMP_DONE (1u << 4) /* a NAMP slot with IEN has DONE set (level) */
#define NA_IRQ_SRC_RX_COUNT  (1u << 5) /* NA_NAMP_RX_COUNT is non-zero (level) */

/* ---- NoC buffers: buffer 0 at 0x010000 (control request channel), buffer 1 at 0x012000
 *      (control response channel) ---- */
#define NA_NOCBUF_BASE(n) (0x010000u + 0x2000u * (n))
#define NA_NOCBUF_COUNT   2u
#define NOCBUF_TX_FLIT    0x00u /* W: next flit of the packet being sent (header flit first) */
#define NOCBUF_TX_STATUS  0x04u /* R: bit 0 = ready for a new packet; [15:8] flits still expected */
/* R: next flit of the oldest received packet (header first);
 * bus error when no packet is waiting */
#define NOCBUF_RX_FLIT    0x08u
/* R: bit 0 = a packet is waiting; [15:8] flits left of it;
 * [31:16] packets waiting */
#define NOCBUF_RX_STATUS  0x0Cu
#define NOCBUF_RX_DISCARD 0x10u /* W: drop the rest of the oldest received packet */

/* Header flit (docs/noc.md): fields the software sets when sending through a NoC buffer. The
 * adapter fills in the source and forces the channel of the buffer. */
#define NOC_HDR_DST_X_SHIFT   27u /* 5 bits */
#define NOC_HDR_DST_Y_SHIFT   22u /* 5 bits */
#define NOC_HDR_SRC_X_SHIFT   17u /* 5 bits */
#define NOC_HDR_SRC_Y_SHIFT   12u /* 5 bits */
#define NOC_HDR_CHANNEL_SHIFT 10u /* 2 bits */
#define NOC_HDR_LENGTH_SHIFT  4u  /* 6 bits: length - 1, length counts the header flit */
#define NOC_HDR_TYPE_SHIFT    0u  /* 4 bits: free for software (protocol message type) */
#define NOC_HEADER(dst_x, dst_y, type, length)                                                 \
    (((uint32_t)(dst_x) << NOC_HDR_DST_X_SHIFT) | ((uint32_t)(dst_y) << NOC_HDR_DST_Y_SHIFT) | \
     ((uint32_t)((length)-1u) << NOC_HDR_LENGTH_SHIFT) | ((uint32_t)(type) << NOC_HDR_TYPE_SHIFT))

/* ---- DMA slots: slot n at 0x100000 + 0x2000 * n (n < NA_DMA_SLOTS) ---- */
#define NA_DMA_BASE(n)   (0x100000u + 0x2000u * (n))
#define NA_DMA_MAX_SLOTS 128u
#define DMA_LOCAL_ADDR   0x00u /* R/W: source address in this tile's SRAM (any alignment) */
#define DMA_REMOTE_TILE  0x04u /* R/W: destination tile id */
#define DMA_REMOTE_ADDR  0x08u /* R/W: destination address in that tile's SRAM (any alignment) */
#define DMA_SIZE         0x0Cu /* R/W: bytes to copy (0 completes at once) */
#define DMA_CONTROL      0x10u /* W: DMA_CTRL_* ; R: last value written */
#define DMA_STATUS       0x14u /* R: DMA_STAT_* ; W: 1s clear DONE and ERROR */

#define DMA_CTRL_START (1u << 0) /* start the transfer (ignored -> ERROR if busy) */
#define DMA_CTRL_IEN   (1u << 2) /* raise NA_IRQ_SRC_DMA when it completes */
#define DMA_STAT_BUSY  (1u << 0)
#define DMA_STAT_DONE  (1u << 1) /* completion acknowledged by the remote tile */
#define DMA_STAT_ERROR (1u << 2) /* bad parameters, local read failed or remote refused */

/* ---- NAMP slots: 0x200000 + 0x4000 * n (thesis Table 4.1), n < NA_NAMP_SLOTS ----
 * Each slot: base interface page +0x0000 (registers below; other offsets of the page are bus
 * errors), virtual-interface configuration page +0x1000 and virtual-interface pages +0x2000..
 * (bus errors: physical slots only). docs/namp.md is the manual. */
#define NA_NAMP_SLOT_BASE(n) (0x200000u + 0x4000u * (n))
#define NA_NAMP_MAX_SLOTS    128u
#define NAMP_SLOT_FLAGS      0x00u /* R/W: NAMP_FLAG_* (DONE read-only) */
#define NAMP_SLOT_PARAM1     0x04u /* R/W: address of the remote-endpoint handle (local SRAM) */
#define NAMP_SLOT_PARAM2     0x08u /* R/W: CoM: credits; BUF=0: data address; BUF=1: send buffer */
/* R/W: BUF=0: size in bytes; BUF=1 (no CCM): element index;
 * CoM: NAMP_COM_F_* */
#define NAMP_SLOT_PARAM3     0x0Cu
#define NAMP_SLOT_STATUS     0x10u /* R: NAMP_STATUS_* */
#define NAMP_SLOT_PRIORITY   0x14u /* R/W: QoS class 0..255 (higher first under NAMP_ARB_QOS) */
#define NAMP_SLOT_WIN_BASE   0x18u /* R/W: guard window of the send buffer (SV; the vif writes it) */
#define NAMP_SLOT_WIN_SIZE   0x1Cu /* R/W: its bytes; 0 = unguarded (bare metal) */
#define NAMP_SLOT_CTRL       0x20u /* W: NAMP_SLOT_CTRL_ABORT [| _KEEP]; R: 0 */
/* R/W: a guarded collective's member table (the vif writes it):
 * each member's HANDLE word is a vID of this endpoint table */
#define NAMP_SLOT_ET_BASE    0x24u
#define NAMP_SLOT_ET_BOUND   0x28u /* R/W: its entries (vIDs 0..bound-1) */
#define NAMP_SLOT_MEMBERS    16u   /* CC: member registers of a slot (NAMP_CC_MAX_MEMBERS) */
/* R: CC: the handle address member i of the
 * collective runs on while it can still write to its receiver
 * (READY..FINALIZE; the vif's translation, not the task's
 * descriptor), else 0; 0 outside MEMBERS. The kernel learns
 * from them which channels a running collective holds. */
#define NAMP_SLOT_MEMBER(i)  (0x40u + 4u * (i))
/* end the transfer (ERROR ABORTED) at its next safe point:
 * persistent waits at once, CCM left, nothing left half-done */
#define NAMP_SLOT_CTRL_ABORT (1u << 0)
/* with ABORT: a buffered send's element stays committed in
 * the send buffer (the kernel starts the transfer again,
 * e.g. after a task migration); without: it is dropped */
#define NAMP_SLOT_CTRL_KEEP  (1u << 1)

#define NAMP_FLAG_COM      (1u << 0) /* credit mode: send PARAM2 credits to the handle */
#define NAMP_FLAG_CON      (1u << 1) /* connection-oriented (channel, consumes credits) */
#define NAMP_FLAG_BUF      (1u << 2) /* buffered: data from the local send buffer PARAM2 */
/* continuous mode (needs BUF; CON or connection-less); 1->0 = leave */
#define NAMP_FLAG_CCM      (1u << 3)
#define NAMP_FLAG_IEN      (1u << 4) /* raise NA_IRQ_SRC_NAMP_DONE while DONE */
#define NAMP_FLAG_VALID    (1u << 5) /* 0->1 starts the slot; 1->0 after DONE frees it */
#define NAMP_FLAG_DONE     (1u << 6) /* R: transfer finished (with or without ERROR) */
#define NAMP_FLAG_CC       (1u << 7) /* collective: PARAM1 = address of a CC descriptor (namp_cc.h) */
/* bits 9..: future modes; set = refused (bit 8:
 * NAMP_FLAG_PS, namp_ps.h) */
#define NAMP_FLAG_RESERVED 0xFFFFFE00u

/* PARAM3 of a credit transfer (CoM) */
/* revoke the channel: the receiving side's endpoint is gone;
 * the sender's handle refuses further transfers (CLOSED) */
#define NAMP_COM_F_REVOKE (1u << 0)

/* STATUS */
#define NAMP_STATUS_ERROR        (1u << 31) /* the slot finished with an error (code in [7:0]) */
#define NAMP_STATUS_PERSISTENT   (1u << 30) /* waiting persistently (credit, send-buffer element) */
#define NAMP_STATUS_CODE(s)      ((s)&0xFFu)
#define NAMP_STATUS_STATE(s)     (((s) >> 8) & 0xFFu)  /* NAMP_STATE_* */
#define NAMP_STATUS_RETRIES(s)   (((s) >> 16) & 0xFFu) /* NACK retries (saturating) */
#define NAMP_STATUS_CC_FAILED(s) (((s) >> 24) & 0x3Fu) /* CC: members failed (saturating) */

/* Slot states (STATUS[15:8]); docs/namp.md has the transition table */
#define NAMP_STATE_IDLE        0u  /* VALID = 0 */
#define NAMP_STATE_READY       1u  /* set-up step due (credit, send-buffer element, request) */
#define NAMP_STATE_REQUEST     2u  /* allocation request sent, waits for ACK/NACK */
#define NAMP_STATE_RETRY       3u  /* NACK received, back-off timer running */
#define NAMP_STATE_CREDIT_WAIT 4u  /* persistent: no credit, waits for a CREDIT update */
#define NAMP_STATE_DATA        5u  /* data step due: the egress FSM programs a DMA context */
#define NAMP_STATE_FINALIZE    6u  /* DMA complete, finalization due */
#define NAMP_STATE_DONE        7u  /* DONE (software clears VALID) */
#define NAMP_STATE_ERROR       8u  /* refused or failed: DONE + STATUS ERROR */
#define NAMP_STATE_SEND_WAIT   9u  /* CCM: send buffer empty, poll timer running */
#define NAMP_STATE_DMA         10u /* DMA context running, waits for the remote completion */
#define NAMP_STATE_MEMBERS     11u /* CC: the members of the collective progress (namp_cc.h) */
#define NAMP_STATE_COUNT       12u

/* Error codes (STATUS[7:0]) */
#define NAMP_ERR_NONE             0u
#define NAMP_ERR_MODE_UNSUPPORTED 1u /* feature disabled in this instance, or reserved flag */
#define NAMP_ERR_INVALID_FLAGS    2u /* invalid flag combination */
#define NAMP_ERR_BAD_PARAM        3u /* handle/buffer address outside SRAM or unaligned, bad tile */
#define NAMP_ERR_TOO_LARGE        4u /* message larger than the remote element size */
#define NAMP_ERR_NO_ENDPOINT      5u /* remote endpoint not ready / has no receive buffer */
#define NAMP_ERR_LOCAL_BUS        6u /* local memory access failed */
#define NAMP_ERR_REMOTE           7u /* remote side refused a write (DMA error) */
#define NAMP_ERR_SEND_EMPTY       8u /* buffered send: the element is not committed */
#define NAMP_ERR_CHANNEL          9u /* connection-less message to a channel's receive endpoint */
#define NAMP_ERR_CLOSED           10u /* the channel was revoked by its receiving side */
#define NAMP_ERR_CC_MEMBER        11u /* CC: at least one member failed (codes in the descriptor) */
/* an address derived from task-writable memory (a buffer
 * header) lies outside the window the kernel granted */
#define NAMP_ERR_WINDOW           12u
#define NAMP_ERR_ABORTED          13u /* the kernel aborted the transfer (NAMP_SLOT_CTRL_ABORT) */
#define NAMP_ERR_NOT_CHANNEL      14u /* CREDIT_NACK: the CREDIT named no connected channel handle */
/* CC: the root's member table does not admit the contributor
 * (or it contributed to this reduction or part already) */
#define NAMP_ERR_NOT_MEMBER       15u
#define NAMP_ERROR_NAMES                                                                        \
    {                                                                                           \
        "ok", "mode unsupported", "invalid flags", "bad parameter", "too large", "no endpoint", \
            "local bus error", "remote error", "send buffer empty", "endpoint is a channel",    \
            "channel closed", "collective member failed", "outside window", "aborted",          \
            "not a channel handle", "not a member"                                              \
    }

/* ---- NAMP-SV virtual interfaces (thesis 3.4, 4.2.3.3; docs/namp.md "NAMP-SV") ----
 * With namp.slots_virt = V > 0 the highest V slots (n >= NA_NAMP_SLOTS - V) have a virtual
 * interface (vif). Its configuration page (slot +0x1000) belongs to the kernel, its interface page
 * (slot +0x2000) is mapped into one task. Both pages are bus errors for slots without vif. */
#define NA_FEATURE_NAMP_SV     (1u << 15) /* self-virtualization: virtual interfaces */
#define NA_FEATURE_NAMP_OSQM   (1u << 16) /* hardware OS queue manipulation */
/* namp.identity: endpoint identity and collective
 * membership checks (namp_structs.h NAMP_EP_ID) */
#define NA_FEATURE_NAMP_ID     (1u << 18)
#define NAMP_VIF_CONFIG_PAGE   0x1000u /* offset in the slot */
#define NAMP_VIF_PAGE          0x2000u
/* configuration page (kernel) */
#define NAMP_VIFC_ET_BASE      0x00u /* R/W: endpoint table address (SRAM, 8-byte aligned) */
#define NAMP_VIFC_ET_BOUND     0x04u /* R/W: entries in the table (vIDs 0..bound-1), <= 4096 */
#define NAMP_VIFC_CTRL         0x08u /* R/W: NAMP_VIFC_* */
#define NAMP_VIFC_TRANSLATIONS 0x0Cu /* R: vIDs translated since reset (statistics) */
/* R/W: a finished STATUS the task reads (FLAGS VALID|DONE)
 * until it clears VALID; written by the kernel on an idle
 * interface to restore a migrated task's view; 0: none */
#define NAMP_VIFC_PARK         0x10u
#define NAMP_VIFC_IEN          (1u << 0) /* the slot starts with IEN (interrupt on DONE) */
/* the vif accepts starts from its task; 1 -> 0 resets the
 * task's registers (flags, params, refusal) and drops a
 * start being translated */
#define NAMP_VIFC_READY        (1u << 1)
#define NAMP_VIF_ET_MAX        4096u
/* interface page (task): the slot interface with vIDs instead of addresses (Table 3.32d) */
#define NAMP_VIF_FLAGS         0x00u /* R/W: COM CON BUF CCM VALID, DONE (R); IEN ignored */
/* R/W: vID of the remote endpoint (a handle entry); CC:
 * NAMP_VIF_CC_PARAM1(vID of a collective area, descriptor
 * offset in the area) */
#define NAMP_VIF_PARAM1        0x04u
/* R/W: BUF: vID of the send buffer; CoM: credits; CC: offset of
 * the data in the area */
#define NAMP_VIF_PARAM2        0x08u
#define NAMP_VIF_PARAM3        0x0Cu /* R/W: copied (element index, CoM flags, CC data size) */
/* A collective through a vif (FLAGS CC [| CON]): PARAM1 [11:0] the area's vID, [31:12] the byte
 * offset of the descriptor in the area (4-byte aligned); descriptor and data must lie in the area,
 * the descriptor's members are vIDs of handle entries. docs/namp.md "Collectives through a vif". */
#define NAMP_VIF_CC_PARAM1(vid, desc_offset) \
    (((uint32_t)(vid)&0xFFFu) | ((uint32_t)(desc_offset) << 12))
#define NAMP_VIF_CC_VID(p1)    ((p1)&0xFFFu)
#define NAMP_VIF_CC_OFFSET(p1) ((p1) >> 12)
#define NAMP_VIF_STATUS        0x10u /* R: the slot's STATUS, or ERROR with a NAMP_ERR_VIF_* code */
/* W: NAMP_SLOT_CTRL_ABORT of the vif's slot (the task may end its
 * own transfer, e.g. a credit wait); R: 0 */
#define NAMP_VIF_CTRL          0x14u
/* vif error codes (STATUS[7:0]; above the slot's codes) */
#define NAMP_ERR_VIF_DISABLED  0x20u /* the kernel has not set READY */
/* BUF=0 data transfer (not a collective): not possible through
 * a vif */
#define NAMP_ERR_VIF_MODE      0x21u
#define NAMP_ERR_VIF_BOUND     0x22u /* a vID >= ET_BOUND (the table is not read) */
#define NAMP_ERR_VIF_ENTRY     0x23u /* the entry is empty or of the wrong kind */
#define NAMP_ERR_VIF_BUS       0x24u /* reading the table failed */
/* the send buffer entry's window is outside SRAM or smaller
 * than a buffer header; a collective area outside SRAM, or
 * the descriptor or data not inside its area */
#define NAMP_ERR_VIF_WINDOW    0x25u

/* ---- HW-OSQM (thesis 3.5, 4.2.3.4; docs/namp.md "HW-OSQM"): page 0x004000 - 0x005fff ----
 * Inserts a thread's list element into an OS queue in tile memory when a transfer completes
 * (per-slot QUEUE/THREAD below) or a message is delivered (the endpoint's NAMP_EP_OSQM_QUEUE /
 * _THREAD words), under the OS's own lock (LOCK_*). Present with namp.osqm (NA_FEATURE_NAMP_OSQM). */
#define NA_OSQM_BASE         0x004000u
#define OSQM_TYPE            0x00u /* R/W: 0 single linked, 1 double linked */
#define OSQM_DIR             0x04u /* R/W: 0 append at the back (tail), 1 insert at the front (head) */
#define OSQM_Q_LAYOUT        0x08u /* R/W: [15:0] head offset, [31:16] tail offset in the queue */
#define OSQM_E_LAYOUT        0x0Cu /* R/W: [15:0] next offset, [31:16] prev offset in the element */
#define OSQM_MODE            0x10u /* R/W: OSQM_MODE_* */
#define OSQM_BITMAP_ADDR     0x14u /* R/W: bitmap word (OSQM_MODE_BITMAP) */
#define OSQM_BITMAP_QBASE    0x18u /* R/W: bit = (QUEUE - QBASE) / QSTRIDE */
#define OSQM_BITMAP_QSTRIDE  0x1Cu /* R/W: bytes between the queues of consecutive bits (> 0) */
#define OSQM_WAKEUP_QUEUE    0x20u /* R/W: the separate wake-up queue (OSQM_MODE_WAKEUP) */
#define OSQM_LOCK_ADDR       0x24u /* R/W: the OS lock word(s); 0 = no lock */
#define OSQM_LOCK_KIND       0x28u /* R/W: OSQM_LOCK_* */
#define OSQM_INSERTIONS      0x2Cu /* R: threads inserted since reset */
#define OSQM_IRQ             0x30u /* R/W: demand interrupts pending (count); a write subtracts */
/* R: 1 = TYPE, DIR, layouts, BITMAP/WAKEUP/READY_FLAG fixed
 * (namp.osqm_static) */
#define OSQM_STATIC          0x34u
/* R: pops the oldest critical event's THREAD (and counts it
 * off OSQM_IRQ); OSQM_IRQ_NONE when the FIFO is empty */
#define OSQM_IRQ_THREAD      0x38u
/* R/W: per slot: queue to insert into, 0 = none;
 * | OSQM_Q_CRITICAL: a critical event */
#define OSQM_SLOT_QUEUE(n)   (0x100u + 8u * (n))
/* R/W: per slot: the thread's list element
 * (READY_FLAG: its bit offset) */
#define OSQM_SLOT_THREAD(n)  (0x104u + 8u * (n))
#define OSQM_MODE_BITMAP     (1u << 0) /* list insertion plus the queue's bit in the bitmap word */
#define OSQM_MODE_WAKEUP     (1u << 1) /* insert into OSQM_WAKEUP_QUEUE instead of QUEUE */
/* every event critical (raise NA_IRQ_SRC_OSQM after each
 * insertion); per event: OSQM_Q_CRITICAL */
#define OSQM_MODE_DEMAND_IRQ (1u << 2)
/* bitmap scheduler (thesis 3.5.2.2 "signaling with ready
 * flag"): QUEUE is the address of a bit field, THREAD a bit
 * offset into it (< OSQM_READY_FLAG_BITS); the OSQM sets
 * bit THREAD%32 of word QUEUE + 4*(THREAD/32) with an atomic
 * compare-and-swap, no list at all. With WAKEUP the field
 * at OSQM_WAKEUP_QUEUE instead. */
#define OSQM_MODE_READY_FLAG (1u << 3)
#define OSQM_READY_FLAG_BITS 4096u
/* in a QUEUE (slot register or NAMP_EP_OSQM_QUEUE word):
 * the event is critical: after the insertion the OSQM raises
 * its demand interrupt and queues THREAD for OSQM_IRQ_THREAD */
#define OSQM_Q_CRITICAL      (1u << 0)
/* critical THREADs held for OSQM_IRQ_THREAD; beyond it an
 * event still counts in OSQM_IRQ, its THREAD is dropped and
 * OSQM_IRQ_OVERFLOW set until OSQM_IRQ is written */
#define OSQM_IRQ_FIFO_DEPTH  16u
#define OSQM_IRQ_OVERFLOW    (1u << 31) /* in OSQM_IRQ: a critical THREAD was dropped */
#define OSQM_IRQ_NONE        0xFFFFFFFFu
#define OSQM_LOCK_WORD       0u /* test-and-set word: CAS 0 -> 1, released by writing 0 */
/* ticket lock {next, serving}: CAS next s -> s+1 when next ==
 * serving == s, released by serving += 1 */
#define OSQM_LOCK_TICKET     1u
#define NA_IRQ_SRC_OSQM      (1u << 6) /* OSQM_IRQ is non-zero (demand interrupt) */

/* ---- Remote memory access window (in the tile address map, outside the 4 MiB NA window) ----
 * A load or store at RMA_BASE + (tile << 20) + offset reaches byte `offset` of that tile's SRAM
 * (the first 1 MiB of it), one NoC packet per access. Stores are posted (NA_RMA_OUTSTANDING counts
 * them until acknowledged), loads wait for the reply; an access the remote tile refuses is a bus
 * error for loads and counts in NA_RMA_ERRORS for stores. */
#define RMA_BASE       0x60000000u
#define RMA_SIZE       0x10000000u
#define RMA_TILE_SHIFT 20u
#define RMA_ADDRESS(tile, sram_offset) \
    (RMA_BASE + ((uint32_t)(tile) << RMA_TILE_SHIFT) + (sram_offset))

#endif
