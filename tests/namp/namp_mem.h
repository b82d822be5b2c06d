// Tile memory as the NAMP module tests see it (backdoor into the SRAM models): NAMP structures,
// circular buffers, the slot registers. Shared by the NAMP-PS and isolation tests.
#pragma once
#include <cstring>
#include <utility>
#include <vector>

#include "cbuffer_layout.h"
#include "na_test_support.h"
#include "namp_structs.h"

namespace na_test {

inline uint32_t slot_reg(unsigned i, uint32_t reg) { return na(NA_NAMP_SLOT_BASE(i) + reg); }
// a vif's configuration page (the kernel's) and interface page (the task's)
inline uint32_t vif_cfg_reg(unsigned s, uint32_t reg) {
    return na(NA_NAMP_SLOT_BASE(s) + NAMP_VIF_CONFIG_PAGE + reg);
}
inline uint32_t vif_reg(unsigned s, uint32_t reg) {
    return na(NA_NAMP_SLOT_BASE(s) + NAMP_VIF_PAGE + reg);
}

struct namp_mem {
    bench &b;
    void put(unsigned tile, uint32_t addr, uint32_t v) {
        std::memcpy(b.mem(tile) + (addr - TILE_SRAM_BASE), &v, 4);
    }
    uint32_t get(unsigned tile, uint32_t addr) {
        uint32_t v;
        std::memcpy(&v, b.mem(tile) + (addr - TILE_SRAM_BASE), 4);
        return v;
    }
    void zero(unsigned tile, uint32_t addr, uint32_t bytes) {
        for (uint32_t o = 0; o < bytes; o += 4) put(tile, addr + o, 0);
    }
    void cbuffer(unsigned tile, uint32_t addr, uint32_t n, uint32_t m, uint32_t idx = 0) {
        zero(tile, addr, MP_CB_HEADER_SIZE + (4u << n));
        put(tile, addr + MP_CB_OFF_CAPACITY, n);
        put(tile, addr + MP_CB_OFF_MAXMSG, m);
        put(tile, addr + MP_CB_OFF_WR_IDX, idx);
        put(tile, addr + MP_CB_OFF_RD_IDX, idx);
        put(tile, addr + MP_CB_OFF_SIZE_OFS, MP_CB_HEADER_SIZE);
        put(tile, addr + MP_CB_OFF_DATA_OFS, MP_CB_HEADER_SIZE + (4u << n));
    }
    uint32_t elem_size(unsigned tile, uint32_t buf, uint32_t idx) {
        return get(tile, buf + MP_CB_HEADER_SIZE + 4 * (idx & ((1u << get(tile, buf)) - 1u)));
    }
    uint32_t elem_data(unsigned tile, uint32_t buf, uint32_t idx) {
        const uint32_t n = get(tile, buf), m = get(tile, buf + 4);
        return buf + MP_CB_HEADER_SIZE + (4u << n) + ((idx & ((1u << n) - 1u)) << m);
    }
    void endpoint(unsigned tile, uint32_t ep, uint32_t rxbuf, uint32_t flags = NAMP_EP_F_NOTIFY,
                  uint32_t state = NAMP_EP_STATE_READY) {
        zero(tile, ep, NAMP_EP_SIZE);
        put(tile, ep + NAMP_EP_STATE, state);
        put(tile, ep + NAMP_EP_FLAGS, flags);
        put(tile, ep + NAMP_EP_RX_BUFFER, rxbuf);
    }
    void handle(unsigned tile, uint32_t h, uint32_t dst_tile, uint32_t ep, uint32_t credits = 0,
                uint32_t flags = NAMP_H_F_CONNECTED) {
        zero(tile, h, NAMP_H_SIZE);
        put(tile, h + NAMP_H_TILE, dst_tile);
        put(tile, h + NAMP_H_ENDPOINT, ep);
        put(tile, h + NAMP_H_CREDITS, credits);
        put(tile, h + NAMP_H_FLAGS, flags);
    }
    // entry vid of the endpoint table at et in tile 0 (the kernel's)
    void et_entry(uint32_t et, uint32_t vid, uint32_t addr, uint32_t kind, uint32_t limit) {
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_ADDR, addr);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_KIND, kind);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + NAMP_ET_LIMIT, limit);
        put(0, et + vid * NAMP_ET_ENTRY_SIZE + 12, 0);
    }
    // Words of tile t (its first MiB) outside the allowed [lo, hi) ranges that are no longer
    // `secret`: what an isolation test's adversary changed where it must not.
    unsigned changed_outside(unsigned t, uint32_t secret,
                             const std::vector<std::pair<uint32_t, uint32_t>> &allowed) {
        unsigned n = 0;
        for (uint32_t o = 0; o < (1u << 20); o += 4) {
            const uint32_t a = TILE_SRAM_BASE + o;
            bool ok = false;
            for (const auto &r : allowed) ok = ok || (a >= r.first && a < r.second);
            if (!ok && get(t, a) != secret) ++n;
        }
        return n;
    }
    // channel fast path (what software fills in at connect time)
    void direct(unsigned tile, uint32_t h, unsigned rx_tile, uint32_t rxbuf) {
        const uint32_t n = get(rx_tile, rxbuf), mm = get(rx_tile, rxbuf + 4);
        put(tile, h + NAMP_H_FLAGS, NAMP_H_F_CONNECTED | NAMP_H_F_DIRECT | NAMP_H_GEOMETRY(n, mm));
        put(tile, h + NAMP_H_RDATA, elem_data(rx_tile, rxbuf, 0));
        put(tile, h + NAMP_H_WR_IDX, get(rx_tile, rxbuf + MP_CB_OFF_WR_IDX));
    }
};

inline void start_slot(driver &d, unsigned i, uint32_t flags, uint32_t p1, uint32_t p2,
                       uint32_t p3) {
    d.wr(slot_reg(i, NAMP_SLOT_PARAM1), p1);
    d.wr(slot_reg(i, NAMP_SLOT_PARAM2), p2);
    d.wr(slot_reg(i, NAMP_SLOT_PARAM3), p3);
    d.wr(slot_reg(i, NAMP_SLOT_FLAGS), flags | NAMP_FLAG_VALID);
}

// Waits for DONE, returns STATUS and frees the slot.
inline uint32_t finish_slot(bench &b, unsigned tile, unsigned i) {
    poll(b, tile, slot_reg(i, NAMP_SLOT_FLAGS), NAMP_FLAG_DONE, NAMP_FLAG_DONE);
    const uint32_t st = b.d(tile).rd(slot_reg(i, NAMP_SLOT_STATUS));
    b.d(tile).wr(slot_reg(i, NAMP_SLOT_FLAGS), 0);
    return st;
}

inline uint32_t error_code(uint32_t status) {
    return status & NAMP_STATUS_ERROR ? NAMP_STATUS_CODE(status) : 0u;
}

}  // namespace na_test
