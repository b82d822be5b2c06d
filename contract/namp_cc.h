/* NAMP collective communication (NAMP-CC, thesis 3.3, Fig. 3.27): the collective descriptor in
 * the sending tile's memory. Shared by the VP (C++) and the firmware (C); little-endian 32-bit
 * words, 4-byte aligned, tile-local SRAM addresses. docs/namp.md "Collective communication (CC)".
 *
 * A slot started with NAMP_FLAG_CC (optionally with NAMP_FLAG_CON) takes PARAM1 = address of a
 * descriptor instead of a remote-endpoint handle; PARAM2/PARAM3 are the data address and size as
 * for an unbuffered send. The descriptor lists `num` members, each naming the remote-endpoint
 * handle of one destination (a channel's handle with CON). The hardware writes each member's
 * status word when that member finishes and the result word when the slot finishes. */
#ifndef NAMP_CC_H
#define NAMP_CC_H

#include <stdint.h>

#include "na_registers.h"

/* ---- descriptor header ---- */
/* [7:0] NAMP_CC_K_*; reduction: [15:8] op, [23:16] type;
 * scatter: [31:16] count (chunks per member) */
#define NAMP_CC_KIND   0x00u
#define NAMP_CC_NUM    0x04u /* members, 1..NAMP_CC_MAX_MEMBERS */
#define NAMP_CC_RESULT 0x08u /* hardware, at the end: [7:0] members done, [15:8] members failed */
/* reduction: identifier of this reduction at the receiver (the
 * contributions of one reduction carry the same id); else 0 */
#define NAMP_CC_ID     0x0Cu
#define NAMP_CC_STRIDE 0x0Cu /* scatter: bytes from one chunk to the next (the same word as ID) */
#define NAMP_CC_HEADER 0x10u

/* ---- member i at NAMP_CC_MEMBER(i) ---- */
#define NAMP_CC_MEMBER(i) (NAMP_CC_HEADER + 16u * (uint32_t)(i))
#define NAMP_CC_M_HANDLE  0x00u /* address of the member's remote-endpoint handle */
#define NAMP_CC_M_STATUS  0x04u /* hardware: 0 while running; at its end NAMP_CC_MSTAT(...) */
#define NAMP_CC_M_BASE    0x08u /* scatter: offset of the member's first chunk in the data */
/* scatter: bytes per chunk of the member; it receives
 * count x size bytes, contiguous */
#define NAMP_CC_M_SIZE    0x0Cu
#define NAMP_CC_SIZE(num) NAMP_CC_MEMBER(num) /* bytes of a descriptor with num members */

/* Limit of members per descriptor (one NoC's worth of destinations on a 4x4 mesh plus one; the
 * slot keeps one progress entry per member). More: BAD_PARAM. */
#define NAMP_CC_MAX_MEMBERS 16u

/* member status word: [7:0] NAMP_ERR_* code, [15:8] final state (NAMP_STATE_DONE / _ERROR),
 * [23:16] NACK retries of the member (saturating) */
#define NAMP_CC_MSTAT(code, state, retries)                        \
    (((uint32_t)(code)&0xFFu) | (((uint32_t)(state)&0xFFu) << 8) | \
     (((uint32_t)(retries) > 255u ? 255u : (uint32_t)(retries)) << 16))
#define NAMP_CC_MSTAT_CODE(w)    ((w)&0xFFu)
#define NAMP_CC_MSTAT_STATE(w)   (((w) >> 8) & 0xFFu)
#define NAMP_CC_MSTAT_RETRIES(w) (((w) >> 16) & 0xFFu)
#define NAMP_CC_RESULT_DONE(w)   ((w)&0xFFu)
#define NAMP_CC_RESULT_FAILED(w) (((w) >> 8) & 0xFFu)

/* kinds */
#define NAMP_CC_K_MULTICAST         1u /* the same data to every member (ENABLE_CC_MULTICAST) */
#define NAMP_CC_K_SCATTER           2u /* ENABLE_CC_SCATTERGATHER, connection-oriented (CON) */
#define NAMP_CC_K_GATHER            3u /* ENABLE_CC_SCATTERGATHER: one part of a gather (CON) */
#define NAMP_CC_K_REDUCE            4u /* ENABLE_CC_REDUCTION: one contribution to a reduction */
#define NAMP_CC_SCATTER_WORD(count) (NAMP_CC_K_SCATTER | (((uint32_t)(count)&0xFFFFu) << 16))
#define NAMP_CC_KIND_WORD(kind, op, type) \
    (((uint32_t)(kind)&0xFFu) | (((uint32_t)(op)&0xFFu) << 8) | (((uint32_t)(type)&0xFFu) << 16))

/* ---- gather (thesis 3.3.1.3, 3.3.3.1, Fig. 3.27d, 3.29) ----
 * Sender (one part): KIND = NAMP_CC_GATHER_WORD(count, part), +0x0C ID of the gather, NUM = 1,
 * member 0: HANDLE (the root endpoint's channel handle, with its geometry), BASE (offset of the
 * part's first chunk in the root's message), SIZE (bytes per chunk); the word after the member
 * (NAMP_CC_GATHER_STRIDE) is the stride of the chunks in the root's message. The part's data is
 * count x SIZE contiguous bytes at PARAM2 (PARAM3 = count x SIZE). */
#define NAMP_CC_GATHER_WORD(count, part) \
    (NAMP_CC_K_GATHER | (((uint32_t)(part)&0xFFu) << 8) | (((uint32_t)(count)&0xFFFFu) << 16))
#define NAMP_CC_GATHER_STRIDE     NAMP_CC_MEMBER(1)
#define NAMP_CC_GATHER_DESC_SIZE  (NAMP_CC_MEMBER(1) + 4u)
#define NAMP_CC_MAX_PARTS         15u
/* Receive side (root endpoint's NAMP_EP_CC): +0x00 NAMP_CC_K_GATHER, +0x04 parts (1..15),
 * +0x08 message size (bytes the receiver sees), entries NAMP_CC_RX_ENTRY(k): [id][state],
 * state [14:0] parts finalized, bit 15 POISONED (a part failed), [30:16] parts allocated. */
#define NAMP_CC_RX_MSGSIZE        0x08u
#define NAMP_CC_RX_G_FINISHED(s)  ((s)&0x7FFFu)
#define NAMP_CC_RX_G_POISONED     (1u << 15)
#define NAMP_CC_RX_G_ALLOCATED(s) (((s) >> 16) & 0x7FFFu)

/* ---- reduction (thesis 3.3.2.4, Table 3.28b): ops and element types ---- */
#define NAMP_CC_OP_SUM   0u
#define NAMP_CC_OP_MIN   1u
#define NAMP_CC_OP_MAX   2u
#define NAMP_CC_OP_BAND  3u /* bitwise and */
#define NAMP_CC_OP_BOR   4u
#define NAMP_CC_OP_BXOR  5u
#define NAMP_CC_OP_LAND  6u /* logical and: 1 if both elements are non-zero, else 0 */
#define NAMP_CC_OP_LOR   7u
#define NAMP_CC_OPS      8u
#define NAMP_CC_T_INT8   0u
#define NAMP_CC_T_INT16  1u
#define NAMP_CC_T_INT32  2u
#define NAMP_CC_T_UINT8  3u
#define NAMP_CC_T_UINT16 4u
#define NAMP_CC_T_UINT32 5u
#define NAMP_CC_TYPES    6u
#define NAMP_CC_TYPE_BYTES(t)                                 \
    ((t) == NAMP_CC_T_INT8 || (t) == NAMP_CC_T_UINT8     ? 1u \
     : (t) == NAMP_CC_T_INT16 || (t) == NAMP_CC_T_UINT16 ? 2u \
                                                         : 4u)

/* Receive side of a reduction: the endpoint's NAMP_EP_CC word points to this descriptor in the
 * receiving tile. The target keeps one entry per element of the endpoint's receive buffer (at
 * most NAMP_CC_RX_MAX_CAP_LOG2 = 6: 64 elements) for the reduction being combined in it. */
#define NAMP_CC_RX_KIND           0x00u /* NAMP_CC_K_REDUCE */
#define NAMP_CC_RX_CONTRIB        0x04u /* contributions per reduction, 1..65535 */
/* Members (namp.identity; reduction and gather roots alike; docs/security.md "Collective
 * membership"): 0, every sender may contribute (bare metal, where no task sends); else the address
 * (root's tile, 4-byte aligned) of the member table the root's software wrote:
 * [n][tile 0][id 0]..[tile n-1][id n-1], the keys (tile, NAMP_EP_ID of the sending endpoint) of
 * the members. A contribution's ALLOC_REQ carries its member handle's key (NAMP_H_KEY_*); the
 * target refuses one whose key is not listed (NACK NOT_MEMBER, nothing written), for a gather one
 * whose key is not that of member `part` (member p sends part p, n = parts), for a reduction a
 * second one of the same member to the same reduction (bit i of the entry's state). */
#define NAMP_CC_RX_MEMBERS        0x0Cu
#define NAMP_CC_RX_MAX_MEMBERS    14u /* reduction: the member bits [29:16] of an entry's state */
#define NAMP_CC_RX_MEMBER_BIT(i)  (1u << (16u + (uint32_t)(i)))
#define NAMP_CC_RX_ENTRY(k)       (0x10u + 8u * (uint32_t)(k)) /* element k: [id][state] */
#define NAMP_CC_RX_SIZE(cap_log2) NAMP_CC_RX_ENTRY(1u << (cap_log2))
#define NAMP_CC_RX_MAX_CAP_LOG2   6u
#define NAMP_CC_RX_VALID          (1u << 31) /* state: the element combines reduction `id` */
#define NAMP_CC_RX_POISONED       (1u << 30) /* state: a contribution failed: committed VOID at the end */
#define NAMP_CC_RX_ARRIVED(s)     ((s)&0xFFFFu) /* state: contributions finalized so far */
/* state [29:16]: with a member table, member i has contributed (allocated) to this reduction */

#endif
