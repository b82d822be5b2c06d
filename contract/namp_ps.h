/* NAMP-PS: protection switching for task migration (thesis 3.6.4, Figs. 3.38, 3.39): the contract
 * between the hardware (namp/src/ps_initiator.cpp, ps_target.cpp) and the software that migrates
 * (sw/kernel migration runtime, the MCAPI library's endpoint relocation). Present with namp.ps
 * (NA_FEATURE_NAMP_PS); without it the words below are ignored and PS starts and messages are
 * refused. docs/namp.md "NAMP-PS" is the manual. */
#ifndef NAMP_PS_H
#define NAMP_PS_H

#include <stdint.h>

#include "namp_structs.h"

#define NA_FEATURE_NAMP_PS (1u << 17) /* ENABLE_PS */

/* ---- Connection-less relocation (Fig. 3.38a) ----
 * NAMP_EP_RELOC of an endpoint: 0, or the address (in the endpoint's tile, 4-byte aligned) of a
 * relocation record naming the new remote-endpoint data. An allocation request to an endpoint
 * whose RELOC is set is answered NAK_RELOC with the record; the sender's NAMP writes the record into
 * its handle (tile, endpoint: one burst) and restarts the transfer there. Allocations granted
 * before RELOC was set complete at the old location: the target counts them per endpoint in
 * NAMP_EP_INFLIGHT (with PS, for every endpoint), so software that sets RELOC and then sees
 * INFLIGHT == 0 knows that no transfer will write into the old buffer any more. */
#define NAMP_PS_R_TILE     0x00u
#define NAMP_PS_R_ENDPOINT 0x04u
/* namp.identity: the new endpoint's NAMP_EP_ID (NAK_RELOC
 * carries it; the sender's handle takes it with the location) */
#define NAMP_PS_R_ID       0x08u
#define NAMP_PS_R_SIZE     0x0Cu

/* Endpoint state: allocations are answered "full" (the sender backs off and retries), FINALs of
 * allocations granted before still commit. The pausing baseline of migration; needs no PS. */
#define NAMP_EP_STATE_PAUSED 3u
/* Endpoint state of a tombstone (with PS): it has no buffer any more (rx_buffer 0; the memory it
 * had may belong to someone else); an allocation is answered NAK_RELOC from its RELOC record, a
 * FINAL is dropped. Software sets it once INFLIGHT is 0 after setting RELOC. */
#define NAMP_EP_STATE_MOVED  4u

/* ---- Control messages of the OS (Fig. 3.38b, 3.39) ----
 * A slot started with FLAGS = NAMP_FLAG_PS | VALID (no other mode flag) sends one control message
 * described by the request block at PARAM1 (local SRAM, 4-byte aligned) and finishes DONE (the
 * message is posted; its effect is reported by RELOC_CREDIT into the reply block). Only physical
 * slots: a virtual interface refuses PS (its task could name any handle). */
#define NAMP_FLAG_PS         (1u << 8)
#define NAMP_PS_Q_OP         0x00u /* NAMP_PS_OP_* */
#define NAMP_PS_Q_TILE       0x04u /* tile of the sender whose handle changes */
#define NAMP_PS_Q_HANDLE     0x08u /* the handle's address there */
#define NAMP_PS_Q_NEW_TILE   0x0Cu /* the new location: tile, */
#define NAMP_PS_Q_NEW_EP     0x10u /*   endpoint address there, */
#define NAMP_PS_Q_NEW_RDATA  0x14u /*   receive-buffer data address (fast path; 0: keep) */
#define NAMP_PS_Q_REPLY_TILE 0x18u /* where RELOC_CREDIT reports: tile, */
#define NAMP_PS_Q_REPLY      0x1Cu /*   reply block address there (0: no report) */
#define NAMP_PS_Q_NEW_ID     0x20u /* namp.identity: the new location's endpoint ID (NAMP_EP_ID) */
#define NAMP_PS_Q_SIZE       0x24u
#define NAMP_PS_OP_RELOC     1u /* switch the handle to the new location (dualcast ends) */
#define NAMP_PS_OP_MIGRATE   2u /* start dualcasting to the new location as well */

/* Reply block (8 words, written by the target that receives RELOC_CREDIT; STATE last). WR_IDX is
 * the handle's next element index when the request took effect: elements below it went (or go)
 * to the old location; with RELOC, those from it on go to the new one; with MIGRATE, those from
 * it on go to both. */
#define NAMP_PS_A_STATE   0x00u /* software writes 0; NAMP_PS_DONE | code when reported */
#define NAMP_PS_A_WR_IDX  0x04u
#define NAMP_PS_A_CREDITS 0x08u /* the handle's credits at that moment */
#define NAMP_PS_A_SENT    0x0Cu /* transfers completed through the handle */
#define NAMP_PS_A_HANDLE  0x10u
#define NAMP_PS_A_FROM    0x14u /* the tile that applied it */
#define NAMP_PS_A_SIZE    0x20u
#define NAMP_PS_DONE      (1u << 31)

/* ---- Dualcast (Fig. 3.39) ----
 * NAMP_H_DUALCAST of a channel's sending handle (a DIRECT one): 0, or the address of the handle's
 * reserved dualcast block (4 words, in the sender's tile). MIGRATE fills in the new location and
 * sets STATE; from then on every transfer through the handle also writes its element, with the
 * same element index, into the new location's buffer (fast path) and commits it there with a
 * SHADOW FINAL: no wr_idx advance, no receive count. Flow control (credits) stays with the
 * original location; a shadow element overwrites the copy 2^n elements older, which the original
 * receiver has consumed (its credit came back) — the new endpoint "drops on overflow". RELOC ends
 * dualcasting (STATE 0) when it switches the handle. The original target is the handle itself. */
/* 0 off, else dualcasting; with namp.identity the new
 * endpoint's ID (its SHADOW FINALs carry it) */
#define NAMP_PS_D_STATE    0x00u
#define NAMP_PS_D_TILE     0x04u
#define NAMP_PS_D_ENDPOINT 0x08u
#define NAMP_PS_D_RDATA    0x0Cu
#define NAMP_PS_D_SIZE     0x10u

/* ---- Protocol messages (namp_structs.h NAMP_MSG_*; sub-types above those) ---- */
/* control response: [w0][new tile][new endpoint] (identity: [new id]) */
#define NAMP_MSG_NAK_RELOC    6u
/* control request:  [w0][handle][new tile][new ep][new rdata][reply tile][reply]
 * (identity: [new id]) */
#define NAMP_MSG_RELOC        7u
#define NAMP_MSG_MIGRATE      8u /* control request:  the same words as RELOC */
/* control request:  [w0][reply][code][wr_idx][credits][sent][handle] */
#define NAMP_MSG_RELOC_CREDIT 9u
#define NAMP_FINAL_F_SHADOW   (1u << 4) /* FINAL of a dualcast copy: commit only */

#endif
