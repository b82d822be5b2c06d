/* Register-level part of the NAMP driver: the accesses of firmware that owns a slot outside the
 * driver's allocator (namp.h) — the kernel's system-call slot, the slots it gives to tasks'
 * virtual interfaces and their configuration pages, its HW-OSQM set-up — and of a task, through
 * the vif interface page mapped into it. Registers: contract/na_registers.h; behaviour:
 * docs/namp.md. No state, nothing to link: every call is static inline, one register access or a
 * fixed sequence of them (the order a sequence writes in is part of what it does). */
#ifndef NAMP_REGS_H
#define NAMP_REGS_H

#include <stdint.h>

#include "hal/mmio.h"
#include "na_registers.h"
#include "tile_memory_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With NAMP-SV: the highest this many slots have a virtual interface (NA_NAMP_SLOTS_VIRT). */
static inline uint32_t namp_reg_slots_virt(void)
{
    return mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS_VIRT);
}

/* The receive counter (messages completed into NOTIFY endpoints, NA_NAMP_RX_COUNT) and its
 * acknowledgement (subtracts n) without the driver's bookkeeping (namp_rx_count / namp_rx_ack). */
static inline uint32_t namp_reg_rx_count(void)
{
    return mmio_read32(TILE_NA_BASE + NA_NAMP_RX_COUNT);
}
static inline void namp_reg_rx_ack(uint32_t n) { mmio_write32(TILE_NA_BASE + NA_NAMP_RX_COUNT, n); }

/* ---- a physical slot's base interface page ---- */

static inline uintptr_t namp_reg_slot(unsigned s) { return TILE_NA_BASE + NA_NAMP_SLOT_BASE(s); }
static inline uint32_t namp_reg_slot_flags(unsigned s)
{
    return mmio_read32(namp_reg_slot(s) + NAMP_SLOT_FLAGS);
}
static inline uint32_t namp_reg_slot_status(unsigned s)
{
    return mmio_read32(namp_reg_slot(s) + NAMP_SLOT_STATUS);
}
static inline uint32_t namp_reg_slot_param1(unsigned s)
{
    return mmio_read32(namp_reg_slot(s) + NAMP_SLOT_PARAM1);
}
static inline uint32_t namp_reg_slot_param2(unsigned s)
{
    return mmio_read32(namp_reg_slot(s) + NAMP_SLOT_PARAM2);
}
/* Member i of the collective slot s runs on: its handle while it can still write to its
 * receiver, else 0 (NAMP_SLOT_MEMBER). */
static inline uint32_t namp_reg_slot_member(unsigned s, unsigned i)
{
    return mmio_read32(namp_reg_slot(s) + NAMP_SLOT_MEMBER(i));
}
/* 1 while a transfer of this tile can still write over `handle`: a slot in READY..FINALIZE whose
 * PARAM1 is the handle, or a collective's member on it. Adapter registers only, no task memory:
 * the kernel's test before it tells a channel's receiver that nothing more comes. */
static inline int namp_reg_writing_on(uint32_t handle)
{
    const uint32_t n = mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS);
    for (unsigned s = 0; s < n && s < NA_NAMP_MAX_SLOTS; ++s) {
        const uint32_t st = NAMP_STATUS_STATE(namp_reg_slot_status(s));
        if (st == NAMP_STATE_MEMBERS) {
            for (unsigned i = 0; i < NAMP_SLOT_MEMBERS; ++i)
                if (namp_reg_slot_member(s, i) == handle)
                    return 1;
        } else if ((st == NAMP_STATE_READY || st == NAMP_STATE_REQUEST || st == NAMP_STATE_RETRY ||
                    st == NAMP_STATE_DATA || st == NAMP_STATE_DMA || st == NAMP_STATE_FINALIZE) &&
                   namp_reg_slot_param1(s) == handle) {
            return 1;
        }
    }
    return 0;
}
/* 1 while a slot of this tile has a transfer with PARAM1 = p1 in any state but IDLE, DONE and
 * ERROR (a credit path's transfers: a credit wait too). */
static inline int namp_reg_slot_using(uint32_t p1)
{
    const uint32_t n = mmio_read32(TILE_NA_BASE + NA_NAMP_SLOTS);
    for (unsigned s = 0; s < n && s < NA_NAMP_MAX_SLOTS; ++s) {
        const uint32_t st = NAMP_STATUS_STATE(namp_reg_slot_status(s));
        if (namp_reg_slot_param1(s) == p1 && st != NAMP_STATE_IDLE && st != NAMP_STATE_DONE &&
            st != NAMP_STATE_ERROR)
            return 1;
    }
    return 0;
}
/* 1 while the slot has a transfer under way (VALID without DONE). */
static inline int namp_reg_slot_busy(unsigned s)
{
    const uint32_t f = namp_reg_slot_flags(s);
    return (f & NAMP_FLAG_VALID) && !(f & NAMP_FLAG_DONE);
}
/* Programs PARAM1..3, then FLAGS = flags | VALID: starts the transfer (flags: NAMP_FLAG_*). */
static inline void namp_reg_slot_start(unsigned s, uint32_t flags, uint32_t p1, uint32_t p2,
                                       uint32_t p3)
{
    const uintptr_t b = namp_reg_slot(s);
    mmio_write32(b + NAMP_SLOT_PARAM1, p1);
    mmio_write32(b + NAMP_SLOT_PARAM2, p2);
    mmio_write32(b + NAMP_SLOT_PARAM3, p3);
    /* the doorbell: what the transfer reads is stored before it (docs/kernel.md "A payload
     * stored after its doorbell") */
    mmio_write32_release(b + NAMP_SLOT_FLAGS, flags | NAMP_FLAG_VALID);
}
/* Writes FLAGS: 0 acknowledges a finished transfer (VALID 1 -> 0: the slot is idle again); a
 * running CCM slot written without CCM leaves continuous mode. */
static inline void namp_reg_slot_set_flags(unsigned s, uint32_t flags)
{
    mmio_write32_release(namp_reg_slot(s) + NAMP_SLOT_FLAGS, flags); /* VALID is a doorbell */
}
/* Ends the transfer at its next safe point (ERROR ABORTED); keep != 0: a buffered send's element
 * stays committed in the send buffer (NAMP_SLOT_CTRL_KEEP). */
static inline void namp_reg_slot_abort(unsigned s, int keep)
{
    mmio_write32(namp_reg_slot(s) + NAMP_SLOT_CTRL,
                 keep ? NAMP_SLOT_CTRL_ABORT | NAMP_SLOT_CTRL_KEEP : NAMP_SLOT_CTRL_ABORT);
}
/* The send buffer's guard window (size 0: unguarded). Size first: half written, it is empty. */
static inline void namp_reg_slot_set_window(unsigned s, uint32_t base, uint32_t size)
{
    mmio_write32(namp_reg_slot(s) + NAMP_SLOT_WIN_SIZE, size);
    mmio_write32(namp_reg_slot(s) + NAMP_SLOT_WIN_BASE, base);
}
/* QoS class 0..255 (higher first under NAMP_ARB_QOS). */
static inline void namp_reg_slot_set_priority(unsigned s, uint32_t prio)
{
    mmio_write32(namp_reg_slot(s) + NAMP_SLOT_PRIORITY, prio);
}

/* ---- a virtual interface's configuration page (the kernel's) ---- */

static inline uintptr_t namp_reg_vifc(unsigned s)
{
    return namp_reg_slot(s) + NAMP_VIF_CONFIG_PAGE;
}
/* NAMP_VIFC_READY | NAMP_VIFC_IEN; READY 1 -> 0 resets what the task wrote. */
static inline void namp_reg_vif_set_ctrl(unsigned s, uint32_t ctrl)
{
    mmio_write32(namp_reg_vifc(s) + NAMP_VIFC_CTRL, ctrl);
}
/* Entries of the endpoint table the vif translates (0: none). */
static inline void namp_reg_vif_set_bound(unsigned s, uint32_t bound)
{
    mmio_write32(namp_reg_vifc(s) + NAMP_VIFC_ET_BOUND, bound);
}
/* The endpoint table: its address, then its bound (call with the bound at 0 and READY clear). */
static inline void namp_reg_vif_set_table(unsigned s, uint32_t base, uint32_t bound)
{
    mmio_write32(namp_reg_vifc(s) + NAMP_VIFC_ET_BASE, base);
    mmio_write32(namp_reg_vifc(s) + NAMP_VIFC_ET_BOUND, bound);
}
/* A finished STATUS the task reads until it clears VALID (a migrated task's view); 0: none. */
static inline void namp_reg_vif_park(unsigned s, uint32_t status)
{
    mmio_write32(namp_reg_vifc(s) + NAMP_VIFC_PARK, status);
}

/* ---- a virtual interface page: a task's slot interface with vIDs (page: its address, the task's
 * mapping or the kernel's namp_reg_vif_page) ---- */

static inline uintptr_t namp_reg_vif_page(unsigned s) { return namp_reg_slot(s) + NAMP_VIF_PAGE; }
static inline uint32_t namp_vif_flags(uintptr_t page) { return mmio_read32(page + NAMP_VIF_FLAGS); }
static inline uint32_t namp_vif_status(uintptr_t page)
{
    return mmio_read32(page + NAMP_VIF_STATUS);
}
/* PARAMi, i = 1..3, as the task wrote it. */
static inline uint32_t namp_vif_param(uintptr_t page, unsigned i)
{
    return mmio_read32(page + NAMP_VIF_PARAM1 + 4u * (i - 1u));
}
/* PARAM1..3 without starting anything. */
static inline void namp_vif_set_params(uintptr_t page, uint32_t p1, uint32_t p2, uint32_t p3)
{
    mmio_write32(page + NAMP_VIF_PARAM1, p1);
    mmio_write32(page + NAMP_VIF_PARAM2, p2);
    mmio_write32(page + NAMP_VIF_PARAM3, p3);
}
/* Writes FLAGS: with VALID it starts what PARAM1..3 describe; without, it acknowledges. */
static inline void namp_vif_set_flags(uintptr_t page, uint32_t flags)
{
    mmio_write32_release(page + NAMP_VIF_FLAGS, flags); /* VALID is a doorbell */
}
/* PARAM1..3, then FLAGS = flags | VALID. */
static inline void namp_vif_start(uintptr_t page, uint32_t flags, uint32_t p1, uint32_t p2,
                                  uint32_t p3)
{
    namp_vif_set_params(page, p1, p2, p3);
    namp_vif_set_flags(page, flags | NAMP_FLAG_VALID);
}

/* ---- HW-OSQM (page NA_OSQM_BASE; OSQM_* registers) ---- */

static inline uint32_t namp_reg_osqm(uint32_t reg)
{
    return mmio_read32(TILE_NA_BASE + NA_OSQM_BASE + reg);
}
/* Writes one OSQM register (reg: OSQM_TYPE ... OSQM_SLOT_THREAD(n)); OSQM_IRQ subtracts. */
static inline void namp_reg_osqm_set(uint32_t reg, uint32_t v)
{
    mmio_write32(TILE_NA_BASE + NA_OSQM_BASE + reg, v);
}

#ifdef __cplusplus
}
#endif
#endif
