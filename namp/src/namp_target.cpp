// NAMP target FSM (thesis 3.2.5.6, 4.2.3; docs/namp.md): serves the protocol messages other tiles
// send to this tile without the CPU and without per-transfer state. It reserves receive-buffer
// elements with a tagged compare-and-swap on wr_idx (Listing 4.2), commits them on finalization
// (size word = MP_CB_COMMITTED | size, receive counter) and adds credits to a handle atomically,
// waking the slots waiting for them.
#include "na_registers.h"
#include "namp/network_adapter.h"
#include "namp_structs.h"
#include "mp/cbuffer.h"

namespace namp {

void network_adapter::namp_target_thread() {
    for (;;) {
        while (namp_req_.empty()) sc_core::wait(namp_req_event_);
        noc::packet pkt = std::move(namp_req_.front());
        namp_req_.pop_front();
        sc_core::wait(cycles(cfg_.namp.target_cycles));
        ++stats_.namp_target_steps;
        switch (pkt.header.type) {
        case NAMP_MSG_ALLOC_REQ: namp_serve_alloc(pkt); break;
        case NAMP_MSG_CREDIT: namp_serve_credit(pkt); break;
        case NAMP_MSG_FINAL: namp_serve_final(pkt); break;
        default: break;
        }
    }
}

// [endpoint][size][tag] -> ALLOC_RESP [tag | ACK | code << 16][element][data address]
void network_adapter::namp_serve_alloc(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < 3) return;
    const uint32_t ep = pl[0], size = pl[1], tag = pl[2] & 0xFFFFu;
    const unsigned src = pkt.header.src_y * geo_.mesh_width + pkt.header.src_x;
    uint32_t code = NAMP_ERR_NO_ENDPOINT, elem = 0, data = 0;
    bool ack = false;
    uint32_t e[NAMP_EP_SIZE / 4], d[MP_CB_HEADER_SIZE / 4];
    if (!(ep & 3) && in_local_sram(ep, NAMP_EP_SIZE) && read_words(ep, e, NAMP_EP_SIZE / 4) &&
        e[NAMP_EP_STATE / 4] == NAMP_EP_STATE_READY) {
        const uint32_t b = e[NAMP_EP_RX_BUFFER / 4];
        if (b && !(b & 3) && in_local_sram(b, MP_CB_HEADER_SIZE) &&
            read_words(b, d, MP_CB_HEADER_SIZE / 4) && d[0] <= MP_CB_MAX_CAP_LOG2 &&
            d[1] >= MP_CB_MIN_MSG_LOG2 && d[1] <= MP_CB_MAX_MSG_LOG2) {
            const uint32_t n = d[0], m = d[1];
            if (size > (1u << m)) {
                code = NAMP_ERR_TOO_LARGE;
            } else {
                code = 0;  // NACK "buffer full" unless a reservation succeeds
                for (unsigned attempt = 0; attempt < 4; ++attempt) {
                    uint32_t idx[2];
                    if (!read_words(b + MP_CB_OFF_WR_IDX, idx, 2)) break;
                    const uint32_t wr = idx[0], rd = idx[1];
                    if (wr - rd >= (1u << n)) break;  // full
                    const uint32_t slot = wr & ((1u << n) - 1u);
                    uint32_t sw = 0;
                    if (!read_words(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * slot, &sw, 1) || sw != 0)
                        break;  // still held by a consumer
                    uint32_t old = 0;
                    bool ok = false;
                    if (!namp_atomic(b + MP_CB_OFF_WR_IDX, true, wr + 1, wr, old, ok)) break;
                    if (ok) {
                        ack = true;
                        elem = wr;
                        data = b + d[MP_CB_OFF_DATA_OFS / 4] + (slot << m);
                        break;
                    }
                }
            }
        }
    }
    if (!ack) ++stats_.namp_nacks_sent;
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    namp_send(src, NAMP_MSG_ALLOC_RESP,
              {tag | (ack ? NAMP_RESP_ACK : ((code & 0xFFu) << 16)), elem, data});
}

// [handle][credits][tag]: credits += n atomically, wake the slots waiting on that handle.
void network_adapter::namp_serve_credit(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < 2) return;
    const uint32_t h = pl[0];
    if ((h & 3) || !in_local_sram(h, NAMP_H_SIZE)) return;
    uint32_t old = 0;
    bool ok = false;
    if (!namp_atomic(h + NAMP_H_CREDITS, false, pl[1], 0, old, ok)) return;
    ++namp_credit_updates_;
    for (unsigned i = 0; i < nslots_.size(); ++i) {
        namp_slot &s = nslots_[i];
        if (s.state == NAMP_STATE_CREDIT_WAIT && s.p1 == h) {
            namp_set_state(i, NAMP_STATE_READY);
            s.armed = true;
            s.not_before = sc_core::sc_time_stamp();
        }
    }
    namp_kick();
}

// [endpoint][element][size][tag | ADVANCE]: commit the element (ADVANCE: and advance wr_idx),
// count the message.
void network_adapter::namp_serve_final(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < 3) return;
    const uint32_t ep = pl[0], elem = pl[1], size = pl[2];
    uint32_t e[NAMP_EP_SIZE / 4], d[MP_CB_HEADER_SIZE / 4];
    if ((ep & 3) || !in_local_sram(ep, NAMP_EP_SIZE) || !read_words(ep, e, NAMP_EP_SIZE / 4)) return;
    const uint32_t b = e[NAMP_EP_RX_BUFFER / 4];
    if (!b || (b & 3) || !in_local_sram(b, MP_CB_HEADER_SIZE) ||
        !read_words(b, d, MP_CB_HEADER_SIZE / 4) || d[0] > MP_CB_MAX_CAP_LOG2)
        return;
    const uint32_t slot = elem & ((1u << d[0]) - 1u);
    if (!write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * slot, MP_CB_COMMITTED | size)) return;
    uint32_t old = 0;
    bool ok = false;
    // channel fast path: no allocation advanced wr_idx; single producer per channel, so a
    // fetch-and-add after the commit (consumers wait for COMMITTED of every element below wr_idx)
    if (pl.size() >= 4 && (pl[3] & NAMP_FINAL_F_ADVANCE))
        namp_atomic(b + MP_CB_OFF_WR_IDX, false, 1, 0, old, ok);
    namp_atomic(ep + NAMP_EP_RX_MESSAGES, false, 1, 0, old, ok);
    ++stats_.namp_rx_completed;
    if (!cfg_.namp.rx_count_gating || (e[NAMP_EP_FLAGS / 4] & NAMP_EP_F_NOTIFY)) {
        ++rx_count_;
        update_irq();
    }
}

}  // namespace namp
