// NAMP target: allocation, credits, finalization.
#include "namp/namp_target.h"

#include "cbuffer_layout.h"
#include "namp/protocol.h"
#include "namp_ps.h"
#include "namp_structs.h"

namespace namp {

namespace {
// what the target reads: endpoint state, flags, rx_buffer (+0x04..0x0F; with namp.identity from
// the ID at +0x00) and the buffer descriptor up to data_offset (+0x00..0x17); fewer words,
// shorter bursts on the tile bus
constexpr unsigned ep_words = 4;  // e[] indexed by word offset
constexpr unsigned cb_words = MP_CB_OFF_DATA_OFS / 4 + 1;
}

namp_target::namp_target(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                         packet_out &out, na_stats &stats, target_events &events,
                         sc_core::sc_time clock_period)
    : sc_module(name),
      port("port"),
      cfg_(cfg),
      geo_(geo),
      out_(out),
      stats_(stats),
      events_(events),
      period_(clock_period),
      queue_(cycles(cfg.namp.target_cycles)) {
    SC_THREAD(thread);
}

void namp_target::request(noc::packet pkt) { queue_.push(std::move(pkt)); }

void namp_target::thread() {
    for (;;) {
        queue_.take(cur_);
        ++stats_.namp_target_steps;
        switch (message_sub(cur_)) {
        case NAMP_MSG_ALLOC_REQ: serve_alloc(cur_); break;
        case NAMP_MSG_CREDIT: serve_credit(cur_); break;
        case NAMP_MSG_FINAL: serve_final(cur_); break;
        case NAMP_MSG_RELOC:
        case NAMP_MSG_MIGRATE: serve_ps_request(cur_); break;
        case NAMP_MSG_RELOC_CREDIT: serve_reloc_credit(cur_); break;
        default: ++stats_.namp_dropped; break;  // reserved sub-types
        }
        cur_ = noc::packet{};
    }
}

// Reads the endpoint and its receive-buffer descriptor and sets the window every derived address
// must lie in: the SRAM, or for a GUARDED endpoint (its buffer in task memory) [rx, rx + RX_WINDOW)
// from the endpoint, which only the kernel writes. NAMP_ERR_NONE, NO_ENDPOINT or WINDOW. A PAUSED
// endpoint receives (FINALs of earlier allocations commit); its allocations are refused "full".
// With namp.identity the endpoint's ID must be `ident`, the one the sender's handle holds: an
// endpoint deleted and created again in the same memory is another endpoint (docs/security.md).
// A MOVED endpoint (a tombstone) has no buffer: moved_code, for the caller's NAK_RELOC.
uint32_t namp_target::receiving_endpoint(uint32_t ep, uint32_t ident, uint32_t *e, uint32_t *b) {
    win_lo_ = geo_.sram_base;
    win_hi_ = uint64_t(geo_.sram_base) + geo_.sram_size;
    const unsigned first = cfg_.namp.identity ? NAMP_EP_ID / 4 : NAMP_EP_STATE / 4;
    if ((ep & 3) || !geo_.in_sram(ep, NAMP_EP_SIZE) ||
        !port.read(ep + 4 * first, e + first, 4 * (ep_words - first)))
        return NAMP_ERR_NO_ENDPOINT;
    if (cfg_.namp.identity) {
        sc_core::wait(cycles(cfg_.namp.identity_cycles));
        if (e[NAMP_EP_ID / 4] != ident) {
            ++stats_.namp_identity_refusals;
            return NAMP_ERR_NO_ENDPOINT;
        }
    }
    if (e[NAMP_EP_STATE / 4] == NAMP_EP_STATE_MOVED && cfg_.namp.ps) return moved_code;
    if (e[NAMP_EP_STATE / 4] != NAMP_EP_STATE_READY && e[NAMP_EP_STATE / 4] != NAMP_EP_STATE_PAUSED)
        return NAMP_ERR_NO_ENDPOINT;
    const uint32_t buf = e[NAMP_EP_RX_BUFFER / 4];
    if (!buf || (buf & 3) || !geo_.in_sram(buf, MP_CB_HEADER_SIZE)) return NAMP_ERR_NO_ENDPOINT;
    if (e[NAMP_EP_FLAGS / 4] & NAMP_EP_F_GUARDED) {
        uint32_t w = 0;
        if (!port.read_word(ep + NAMP_EP_RX_WINDOW, w)) return NAMP_ERR_NO_ENDPOINT;
        sc_core::wait(cycles(cfg_.namp.window_cycles));
        if (w < MP_CB_HEADER_SIZE || !geo_.in_sram(buf, w)) {
            // software makes a tombstone (MOVED, then buffer and window 0) between the two reads:
            // the state read again tells that from a bad window (the sender is sent on, not failed)
            uint32_t st = 0;
            if (cfg_.namp.ps && port.read_word(ep + NAMP_EP_STATE, st) && st == NAMP_EP_STATE_MOVED)
                return moved_code;
            return window_refused();
        }
        win_lo_ = buf;
        win_hi_ = uint64_t(buf) + w;
    }
    return port.read(buf, b, 4 * cb_words) && b[0] <= MP_CB_MAX_CAP_LOG2 &&
                   b[1] >= MP_CB_MIN_MSG_LOG2 && b[1] <= MP_CB_MAX_MSG_LOG2
               ? NAMP_ERR_NONE
               : NAMP_ERR_NO_ENDPOINT;
}

uint32_t namp_target::window_refused() {
    ++stats_.namp_window_refusals;
    return NAMP_ERR_WINDOW;
}

// Element k of buffer b (descriptor d): its size word and its 2^m data bytes lie in the window.
bool namp_target::element_in_window(uint32_t b, const uint32_t *d, uint32_t k) const {
    const uint64_t size_word = uint64_t(b) + d[MP_CB_OFF_SIZE_OFS / 4] + 4ull * k;
    const uint64_t data = uint64_t(b) + d[MP_CB_OFF_DATA_OFS / 4] + (uint64_t(k) << d[1]);
    return in_window(size_word, 4) && in_window(data, 1ull << d[1]);
}

// A guarded endpoint (and with PS every endpoint) counts its allocations in flight
// (NAMP_EP_INFLIGHT) so that software can tell when no DMA will write into the buffer any more:
// the count goes up before the state and the relocation word are read again (software writes
// those, then reads the count: one of the two sees the other). NAMP_ERR_NONE: counted, go on;
// NO_ENDPOINT; 0xFF: paused; 0xFE: relocating (reloc[] = the record).
uint32_t namp_target::enter_counted(uint32_t ep, uint32_t *reloc) {
    uint32_t st = 0, r = 0;
    if (!port.fetch_add(ep + NAMP_EP_INFLIGHT, 1, cfg_.namp.atomics)) return NAMP_ERR_NO_ENDPOINT;
    uint32_t code = NAMP_ERR_NONE;
    if (!port.read_word(ep + NAMP_EP_STATE, st))
        code = NAMP_ERR_NO_ENDPOINT;
    else if (st == NAMP_EP_STATE_MOVED && cfg_.namp.ps)  // a tombstone since it was read: sent on
        code = moved_record(ep, reloc) ? relocating_code : NAMP_ERR_NO_ENDPOINT;
    else if (st != NAMP_EP_STATE_READY && st != NAMP_EP_STATE_PAUSED)
        code = NAMP_ERR_NO_ENDPOINT;
    else if (st == NAMP_EP_STATE_PAUSED)
        code = paused_code;
    else if (cfg_.namp.ps && port.read_word(ep + NAMP_EP_RELOC, r) && r)
        code = (r & 3) || !geo_.in_sram(r, NAMP_PS_R_SIZE) ||
                       !port.read(r, reloc, cfg_.namp.identity ? NAMP_PS_R_SIZE : NAMP_PS_R_ID)
                   ? NAMP_ERR_NO_ENDPOINT
                   : relocating_code;
    if (code != NAMP_ERR_NONE)
        port.fetch_add(ep + NAMP_EP_INFLIGHT, uint32_t(-1), cfg_.namp.atomics);
    return code;
}

// [w0][endpoint][size] (namp.identity: [ident]) [id][x] (namp.identity: [key tile][key id])
// -> ALLOC_RESP [w0: ACK?][code][element][data address]
void namp_target::serve_alloc(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    const unsigned x = cfg_.namp.identity ? 4 : 3;  // first word after [size] (and [ident])
    if (pl.size() < x) return;
    const uint32_t ep = pl[1], size = pl[2], ident = cfg_.namp.identity ? pl[3] : 0u;
    const uint32_t flags = NAMP_MSG_FLAGS(pl[0]);
    const bool channel = flags & NAMP_ALLOC_F_CHANNEL;
    const bool cc = flags & (NAMP_ALLOC_F_GATHER | NAMP_ALLOC_F_REDUCE);
    uint32_t elem = 0, data = 0;
    bool ack = false;
    uint32_t e[ep_words] = {}, d[cb_words];
    uint32_t code = receiving_endpoint(ep, ident, e, d), reloc[NAMP_PS_R_SIZE / 4] = {};
    if (code == moved_code) code = moved_record(ep, reloc) ? relocating_code : NAMP_ERR_NO_ENDPOINT;
    const bool counted =
        code == NAMP_ERR_NONE && (cfg_.namp.ps || (e[NAMP_EP_FLAGS / 4] & NAMP_EP_F_GUARDED));
    if (counted)
        code = enter_counted(ep, reloc);
    else if (code == NAMP_ERR_NONE && e[NAMP_EP_STATE / 4] == NAMP_EP_STATE_PAUSED)
        code = paused_code;
    if (code == relocating_code) return nak_reloc(pkt, reloc);
    if (code == paused_code)
        code = 0;  // "full": the sender backs off and asks again
    else if (code == NAMP_ERR_NONE) {
        const uint32_t b = e[NAMP_EP_RX_BUFFER / 4], m = d[1];
        const bool chan_ep = e[NAMP_EP_FLAGS / 4] & NAMP_EP_F_CHANNEL;
        if (chan_ep && !channel) {
            code = NAMP_ERR_CHANNEL;  // a connected channel's endpoint takes no messages
        } else if (cfg_.namp.identity && channel && !cc && !chan_ep) {
            code = NAMP_ERR_NOT_CHANNEL;  // a channel's packet only to a channel's endpoint
        } else if (size > (1u << m)) {
            code = NAMP_ERR_TOO_LARGE;
        } else if (cc && pl.size() < x + (cfg_.namp.identity ? 4u : 2u)) {
            code = NAMP_ERR_BAD_PARAM;
        } else if (flags & NAMP_ALLOC_F_GATHER) {
            code = gather_alloc(ep, b, d, pl[x], pl[x + 1], key_of(pkt, x + 2), elem, data, ack);
        } else if (flags & NAMP_ALLOC_F_REDUCE) {
            code =
                reduce_alloc(ep, b, d, size, pl[x], pl[x + 1], key_of(pkt, x + 2), elem, data, ack);
        } else {
            code = reserve(b, d, elem, data, ack);  // 0 without ACK: "buffer full"
        }
        if (counted && !ack) port.fetch_add(ep + NAMP_EP_INFLIGHT, uint32_t(-1), cfg_.namp.atomics);
    }
    if (!ack) ++stats_.namp_nacks_sent;
    if (!ack && code == 0) events_.allocation_refused();
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    ++stats_.namp_msgs_sent[NAMP_MSG_ALLOC_RESP];
    out_.send_packet(make_message(geo_, source_tile(pkt, geo_), NAMP_MSG_ALLOC_RESP,
                                  ack ? NAMP_RESP_F_ACK : 0u, NAMP_MSG_TAG(pl[0]),
                                  {ack ? 0u : code, elem, data}));
}

// The contributor's key of a reduction or gather allocation (namp.identity): [key tile][key id]
// from word i on; without identity none (every contributor is admitted).
namp_target::member_key namp_target::key_of(const noc::packet &pkt, unsigned i) const {
    if (!cfg_.namp.identity || pkt.payload.size() < i + 2) return {};
    return {true, pkt.payload[i], pkt.payload[i + 1]};
}

// A tombstone's relocation record (NAMP_EP_RELOC of a MOVED endpoint): 1 with reloc[] filled.
bool namp_target::moved_record(uint32_t ep, uint32_t *reloc) {
    uint32_t r = 0;
    const unsigned words = (cfg_.namp.identity ? NAMP_PS_R_ID / 4 + 1 : NAMP_PS_R_ENDPOINT / 4 + 1);
    return port.read_word(ep + NAMP_EP_RELOC, r) && r && !(r & 3) &&
           geo_.in_sram(r, NAMP_PS_R_SIZE) && port.read(r, reloc, 4 * words);
}

// Reserves the element at wr_idx (Listing 4.2): no ACK if the buffer is full or the element is
// still held by a consumer (code 0), WINDOW if the header names an element outside the window;
// a lost compare-and-swap is retried up to 4 times.
uint32_t namp_target::reserve(uint32_t b, const uint32_t *d, uint32_t &elem, uint32_t &data,
                              bool &ack) {
    const uint32_t n = d[0], m = d[1];
    ack = false;
    for (unsigned attempt = 0; attempt < 4; ++attempt) {
        uint32_t idx[2];
        if (!port.read(b + MP_CB_OFF_WR_IDX, idx, 8)) return 0;
        const uint32_t wr = idx[0], rd = idx[1];
        if (wr - rd >= (1u << n)) return 0;  // full
        const uint32_t k = wr & ((1u << n) - 1u);
        if (!element_in_window(b, d, k)) return window_refused();
        uint32_t sw = 0;
        if (!port.read_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, sw) || sw != 0) return 0;
        uint32_t old = 0;
        bool ok = false;
        if (!port.rmw(b + MP_CB_OFF_WR_IDX, true, wr + 1, wr, cfg_.namp.atomics, old, ok)) return 0;
        if (ok) {
            elem = wr;
            data = b + d[MP_CB_OFF_DATA_OFS / 4] + (k << m);
            ack = true;
            return NAMP_ERR_NONE;
        }
    }
    return 0;
}

// [w0][handle][credits] (namp.identity: [ident]): credits += n atomically; the initiator wakes
// the slots waiting on it. REVOKE: the handle's REVOKED flag is set instead (compare-and-swap:
// software may own other flag bits), and the waiting slots wake up to fail CLOSED.
void namp_target::serve_credit(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < (cfg_.namp.identity ? 4u : 3u)) return;
    const uint32_t h = pl[1];
    // Only a connected channel's sending handle takes credits (SV isolation: a CREDIT naming an
    // endpoint or any other word would otherwise add to it): refused without a write, NACKed.
    // With namp.identity also only the handle of this channel: connected to the endpoint whose ID
    // the CREDIT carries, on the tile it comes from (a handle deleted and made again for another
    // channel in the same memory takes none of the old channel's credits).
    uint32_t f = 0, hw[NAMP_H_FLAGS / 4 + 1] = {};
    bool ok = !(h & 3) && geo_.in_sram(h, NAMP_H_SIZE);
    if (ok && cfg_.namp.identity) {
        ok = port.read(h, hw, sizeof hw);
        f = hw[NAMP_H_FLAGS / 4];
        sc_core::wait(cycles(cfg_.namp.identity_cycles));
        if (ok && (f & NAMP_H_F_CONNECTED) &&
            (hw[NAMP_H_ID / 4] != pl[3] || hw[NAMP_H_TILE / 4] != source_tile(pkt, geo_))) {
            ++stats_.namp_identity_refusals;
            ok = false;
        }
    } else if (ok) {
        ok = port.read_word(h + NAMP_H_FLAGS, f);
    }
    if (!ok || !(f & NAMP_H_F_CONNECTED)) {
        ++stats_.namp_credit_refused;
        ++stats_.namp_msgs_sent[NAMP_MSG_CREDIT_NACK];
        sc_core::wait(cycles(cfg_.namp.message_cycles));
        out_.send_packet(make_message(geo_, source_tile(pkt, geo_), NAMP_MSG_CREDIT_NACK, 0u,
                                      NAMP_MSG_TAG(pl[0]), {h, NAMP_ERR_NOT_CHANNEL}));
        return;
    }
    if (NAMP_MSG_FLAGS(pl[0]) & NAMP_CREDIT_F_REVOKE) {
        for (unsigned attempt = 0; attempt < 4; ++attempt) {
            uint32_t old = 0;
            bool done = false;
            if (attempt > 0 && !port.read_word(h + NAMP_H_FLAGS, f)) return;
            if (f & NAMP_H_F_REVOKED) break;
            if (!port.rmw(h + NAMP_H_FLAGS, true, f | NAMP_H_F_REVOKED, f, cfg_.namp.atomics, old,
                          done))
                return;
            if (done) break;
        }
    } else if (!port.fetch_add(h + NAMP_H_CREDITS, pl[2], cfg_.namp.atomics)) {
        return;
    }
    events_.credit_added(h);
}

// [w0][endpoint][element][size] (namp.identity: [ident]): commit the element (VOID: mark it skipped; ADVANCE: then advance
// wr_idx), count the message. Nothing is written for an endpoint that no longer receives: its
// buffer may have been freed.
void namp_target::serve_final(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < (cfg_.namp.identity ? 5u : 4u)) return;
    const uint32_t ep = pl[1], elem = pl[2], size = pl[3], flags = NAMP_MSG_FLAGS(pl[0]);
    uint32_t e[ep_words] = {}, d[cb_words];
    const uint32_t code = receiving_endpoint(ep, cfg_.namp.identity ? pl[4] : 0u, e, d);
    // another endpoint (identity) or a tombstone: its counts are not this transfer's
    if (code == moved_code ||
        (code == NAMP_ERR_NO_ENDPOINT && cfg_.namp.identity && e[NAMP_EP_ID / 4] != pl[4])) {
        ++stats_.namp_dropped;
        return;
    }
    // a counted allocation ends here, also when the endpoint no longer receives (software waits
    // for the count before it frees the buffer); the fast path and dualcast copies allocated nothing
    const bool counted = (cfg_.namp.ps || (e[NAMP_EP_FLAGS / 4] & NAMP_EP_F_GUARDED)) &&
                         !(flags & (NAMP_FINAL_F_ADVANCE | NAMP_FINAL_F_SHADOW));
    if (code == NAMP_ERR_NONE)
        commit(ep, e, d, elem, size, flags);
    else
        ++stats_.namp_dropped;
    if (counted) port.fetch_add(ep + NAMP_EP_INFLIGHT, uint32_t(-1), cfg_.namp.atomics);
}

// The FINAL's commit into a receiving endpoint (window checked).
void namp_target::commit(uint32_t ep, const uint32_t *e, const uint32_t *d, uint32_t elem,
                         uint32_t size, uint32_t flags) {
    const uint32_t b = e[NAMP_EP_RX_BUFFER / 4];
    const uint32_t k = elem & ((1u << d[0]) - 1u);
    if (!element_in_window(b, d, k)) {
        window_refused();
        return;
    }
    const bool void_elem = flags & NAMP_FINAL_F_VOID;
    if (flags & NAMP_FINAL_F_REDUCE) return reduce_final(ep, e, b, d, k, size, void_elem);
    if (flags & NAMP_FINAL_F_GATHER) return gather_final(ep, e, b, d, k, size >> 24, void_elem);
    if (flags & NAMP_FINAL_F_SHADOW) {  // PS dualcast copy: committed in place, nothing counted
        if (!void_elem)
            port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k,
                            MP_CB_COMMITTED | (size & MP_CB_SIZE_MASK));
        return;
    }
    const uint32_t word = MP_CB_COMMITTED | (void_elem ? MP_CB_VOID : (size & MP_CB_SIZE_MASK));
    if (!port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, word)) return;
    // channel fast path: no allocation advanced wr_idx; one producer per channel, so a
    // fetch-and-add after the commit (consumers wait for COMMITTED of every element below wr_idx)
    if (flags & NAMP_FINAL_F_ADVANCE) port.fetch_add(b + MP_CB_OFF_WR_IDX, 1, cfg_.namp.atomics);
    if (void_elem) {
        ++stats_.namp_voided;
        return;
    }
    port.fetch_add(ep + NAMP_EP_RX_MESSAGES, 1, cfg_.namp.atomics);
    ++stats_.namp_rx_completed;
    events_.message_delivered(ep, e[NAMP_EP_FLAGS / 4]);
}

}  // namespace namp
