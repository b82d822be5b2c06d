// NAMP initiator: arbitration, the egress steps per slot state, the ingress FSM, and what a
// failed transfer gives back.
#include "namp/initiator.h"

#include <algorithm>

#include "cbuffer_layout.h"
#include "namp/data_packet.h"
#include "namp/protocol.h"
#include "namp_structs.h"

namespace namp {

namespace {
// the handle words the set-up step needs: tile .. flags (+0x04..0x13; with namp.identity from the
// ID at +0x00), and for the channel fast path also rdata (+0x18); h[] is indexed by word offset
constexpr unsigned h_words = NAMP_H_FLAGS / 4 + 1, h_words_direct = NAMP_H_WR_IDX / 4 + 1,
                   h_words_ps = NAMP_H_DUALCAST / 4 + 1;  // PS: a channel's burst reaches DUALCAST
}

initiator::initiator(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                     std::vector<std::unique_ptr<slot>> &slots, dma_engine &dma, packet_out &out,
                     na_stats &stats, sc_core::sc_time clock_period,
                     std::function<void(const slot &)> finished)
    : sc_module(name),
      port("port"),
      cfg_(cfg),
      geo_(geo),
      slots_(slots),
      dma_(dma),
      out_(out),
      stats_(stats),
      period_(clock_period),
      finished_(std::move(finished)),
      rng_(0x9E3779B9u ^ (geo.tile_id * 0x85EBCA6Bu)),
      in_(cycles(cfg.namp.ingress_cycles)) {
    arbitration = cfg.namp.arbitration;
    SC_THREAD(egress_thread);
    SC_THREAD(ingress_thread);
}

// ---- software side ----

void initiator::start(slot &s) {
    s.order = ++order_;
    s.transition(slot_event::start, cycles(cfg_.namp.start_cycles));
    kick();
}

void initiator::leave_ccm(slot &s) {
    // Holding nothing between two transfers: finish now (the egress step would find the same).
    if (s.state() == slot_state::credit_wait || s.state() == slot_state::send_wait) {
        s.transition(slot_event::finished);
        complete(s);
    }
    kick();
}

// The kernel's abort (NAMP_SLOT_CTRL_ABORT): the transfer ends ABORTED at its next safe point,
// where the egress FSM owns the slot and the network holds nothing of it half-done. A persistent
// wait (credit, send buffer) or a back-off ends at once; a request or DMA waits for its response
// or completion first; a remote element already taken is committed VOID (fail gives back).
void initiator::abort(slot &s, bool keep) {
    if (!s.active()) return;
    s.abort_requested = true;
    s.abort_keep = keep;
    s.flags &= ~NAMP_FLAG_CCM;  // no further element of a CCM stream
    if (s.waits_for_timer() || s.state() == slot_state::credit_wait)
        s.set_due(sc_core::sc_time_stamp());
    kick();
}

void initiator::step_abort(slot &s) {
    if (s.state() == slot_state::members) return cc_abort(s);
    // the original is committed, only its dualcast copy is under way: skip the copy
    if (s.shadow_phase && (s.state() == slot_state::data || s.state() == slot_state::finalize)) {
        s.shadow_failed = true;
        if (s.state() == slot_state::data) s.transition(slot_event::empty);
        return step_finalize(s);
    }
    fail(s, NAMP_ERR_ABORTED);
}

void initiator::credit_update(uint32_t handle) {
    ++credit_updates_;
    for (auto &sp : slots_)
        if (sp->state() == slot_state::credit_wait && sp->p1 == handle)
            sp->transition(slot_event::credit_update);
    cc_credit_update(handle);
    kick();
}

// ---- arbitration ----

// Allocation order per destination: a slot that is about to allocate (or take a fast-path
// element) waits while an older slot with the same handle has not got its element yet. A CCM
// slot is a stream of its own (its send buffer keeps its order): it neither waits nor holds
// others back, so an idle CCM slot cannot block another sender's transfer to the same handle.
// An aborted slot takes no element: it waits for nobody (behind an older slot in a persistent
// credit wait it would otherwise stay READY, its abort unserved, until that one moved).
bool initiator::ordered_after(const slot &s) const {
    if (s.has(NAMP_FLAG_COM) || s.has(NAMP_FLAG_CCM) || s.abort_requested) return false;
    if (s.state() != slot_state::ready && s.state() != slot_state::retry) return false;
    for (const auto &op : slots_) {
        const slot &o = *op;
        if (&o == &s || o.p1 != s.p1 || o.order >= s.order || o.has(NAMP_FLAG_COM) ||
            o.has(NAMP_FLAG_CCM))
            continue;
        switch (o.state()) {
        case slot_state::ready:
        case slot_state::retry:
        case slot_state::request:
        case slot_state::credit_wait:
        case slot_state::send_wait: return true;
        default: break;
        }
    }
    return false;
}

// Per-state arbiters folded into one pass: LRS picks the least recently served slot; QoS the
// highest PRIORITY; MAP the most advanced state (FINALIZE > DATA > READY/RETRY/SEND_WAIT). Ties:
// LRS, then the lower slot number.
int initiator::arbitrate(sc_core::sc_time now) const {
    auto rank = [](slot_state st) {
        return st == slot_state::finalize ? 3u : st == slot_state::data ? 2u : 1u;
    };
    int best = -1;
    for (unsigned i = 0; i < slots_.size(); ++i) {
        const slot &s = *slots_[i];
        if (!s.step_due(now) || ordered_after(s)) continue;
        if (best < 0) {
            best = int(i);
            continue;
        }
        const slot &b = *slots_[best];
        bool better;
        if (arbitration == NAMP_ARB_QOS && s.priority != b.priority)
            better = s.priority > b.priority;
        else if (arbitration == NAMP_ARB_MAP && rank(s.state()) != rank(b.state()))
            better = rank(s.state()) > rank(b.state());
        else
            better = s.served < b.served;
        if (better) best = int(i);
    }
    return best;
}

void initiator::egress_thread() {
    static const std::array<step_fn, slot_state_count> steps = [] {
        std::array<step_fn, slot_state_count> t{};
        t[unsigned(slot_state::ready)] = &initiator::step_ready;
        t[unsigned(slot_state::retry)] = &initiator::step_retry;
        t[unsigned(slot_state::send_wait)] = &initiator::step_send_wait;
        t[unsigned(slot_state::data)] = &initiator::step_data;
        t[unsigned(slot_state::finalize)] = &initiator::step_finalize;
        t[unsigned(slot_state::members)] = &initiator::step_members;
        return t;
    }();
    for (;;) {
        if (!ps_jobs_.empty()) {  // PS: a handle update between two steps
            const noc::packet job = std::move(ps_jobs_.front());
            ps_jobs_.pop_front();
            serve_ps(job);
            continue;
        }
        port.wait_turn();  // inputs applied in this instant go first
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        const int pick = arbitrate(now);
        if (pick < 0) {
            // Sleep until kicked or until the earliest timer still in the future (slots due but
            // held back by the order wait for a kick: the older slot's progress).
            bool timed = false;
            sc_core::sc_time next;
            for (const auto &sp : slots_)
                if (sp->waits_for_timer() && sp->due() > now && (!timed || sp->due() < next)) {
                    next = sp->due();
                    timed = true;
                }
            if (timed)
                sc_core::wait(next - now, kick_);
            else
                sc_core::wait(kick_);
            continue;
        }
        slot &s = *slots_[pick];
        s.served = ++serial_;
        ++stats_.namp_egress_steps;
        if (s.abort_requested)
            step_abort(s);
        else if (s.has(NAMP_FLAG_PS))
            step_ps_slot(s);
        else
            (this->*steps[unsigned(s.state())])(s);
        if (!ps_replies_.empty()) flush_ps_replies();
    }
}

// ---- egress steps ----

// READY: read the handle; CoM sends the credit; otherwise peek the send buffer (BUF), take a
// credit (CON), take the send-buffer element (BUF), then either take the remote element from
// the handle (CON with a DIRECT handle: channel fast path, no round trip) or request it.
void initiator::step_ready(slot &s) {
    if (s.has(NAMP_FLAG_CC)) return cc_setup(s);
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    uint32_t h[h_words_ps] = {};
    s.shadow_pending = s.shadow_phase = s.shadow_failed = false;
    // a CREDIT served after this point must not be lost: the credit check below compares
    const uint64_t updates_at_read = credit_updates_;
    // a channel may take the fast path: read up to wr_idx at once (one burst), so the credit
    // and the remote element come from the burst, not from extra single-word reads
    const unsigned h_first = handle_first();
    const unsigned n_words =
        (s.has(NAMP_FLAG_CON) ? (cfg_.namp.ps ? h_words_ps : h_words_direct) : h_words) - h_first;
    if (!port.read(s.p1 + 4 * h_first, h + h_first, 4 * n_words))
        return fail(s, NAMP_ERR_LOCAL_BUS);
    slot_destination &d = s.dst();
    d.tile = h[NAMP_H_TILE / 4];
    d.endpoint = h[NAMP_H_ENDPOINT / 4];
    d.ident = h[NAMP_H_ID / 4];
    if (d.tile >= geo_.mesh_width * geo_.mesh_height || (d.endpoint & 3))
        return fail(s, NAMP_ERR_BAD_PARAM);
    if (s.has(NAMP_FLAG_COM)) {
        sc_core::wait(cycles(cfg_.namp.message_cycles));
        const bool revoke = s.p3 & NAMP_COM_F_REVOKE;
        // a credit path's ID is its receiving endpoint's: the sender's handle holds the same
        send(d.tile, NAMP_MSG_CREDIT, revoke ? NAMP_CREDIT_F_REVOKE : 0u, s,
             words({d.endpoint, revoke ? 0u : s.p2}, d.ident));
        ++s.stats().transfers;
        s.transition(slot_event::credit_sent);
        return complete(s);
    }
    if (s.leaving()) {  // CCM left between two transfers
        s.transition(slot_event::finished);
        return complete(s);
    }
    // a channel its receiving side revoked takes no more transfers
    if (s.has(NAMP_FLAG_CON) && (h[NAMP_H_FLAGS / 4] & NAMP_H_F_REVOKED))
        return fail(s, NAMP_ERR_CLOSED);
    const bool ccm = s.has(NAMP_FLAG_CCM);
    // send buffer: is there a committed element to take?
    uint32_t b[MP_CB_HEADER_SIZE / 4] = {};
    uint32_t idx = 0, sw = 0, size_addr = 0;
    if (s.has(NAMP_FLAG_BUF)) {
        if (!port.read(s.p2, b, sizeof b)) return fail(s, NAMP_ERR_LOCAL_BUS);
        const uint32_t n = b[MP_CB_OFF_CAPACITY / 4], m = b[MP_CB_OFF_MAXMSG / 4];
        if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2)
            return fail(s, NAMP_ERR_BAD_PARAM);
        const uint32_t wr = b[MP_CB_OFF_WR_IDX / 4], rd = b[MP_CB_OFF_RD_IDX / 4];
        idx = ccm ? rd : s.p3;
        size_addr = s.p2 + b[MP_CB_OFF_SIZE_OFS / 4] + 4 * (idx & ((1u << n) - 1u));
        // SV guard: the header is the task's; the size word must be in the granted window
        if (s.guarded()) {
            sc_core::wait(cycles(cfg_.namp.window_cycles));
            if (!s.in_window(size_addr, 4)) return fail(s, NAMP_ERR_WINDOW);
        }
        const bool committed = rd == idx && wr != rd && geo_.in_sram(size_addr, 4) &&
                               port.read_word(size_addr, sw) && (sw & MP_CB_COMMITTED);
        if (!committed) {
            if (!ccm) return fail(s, NAMP_ERR_SEND_EMPTY);
            // CCM, nothing to send: poll again after namp.retry_cycles
            s.transition(slot_event::send_empty, cycles(cfg_.namp.retry_cycles));
            return;
        }
        s.src = s.p2 + b[MP_CB_OFF_DATA_OFS / 4] + ((idx & ((1u << n) - 1u)) << m);
        s.size = sw & MP_CB_SIZE_MASK;
        // the data the DMA will read, checked with the size word's value as read (a later write
        // of the task changes nothing the engine uses)
        if (s.guarded() && !s.in_window(s.src, s.size)) return fail(s, NAMP_ERR_WINDOW);
    } else {
        s.src = s.p2;
        s.size = s.p3;
    }
    bool credit = false;
    if (s.has(NAMP_FLAG_CON)) {
        // Credit check and atomic decrement; none: persistent wait for a CREDIT update. A CREDIT
        // served while this step reads the word must not be lost: read again if one arrived. The
        // first try uses the burst's value; a failed compare-and-swap reads the word again.
        uint64_t updates = updates_at_read;
        uint32_t c = h[NAMP_H_CREDITS / 4];
        for (bool fresh = true;; fresh = false) {
            if (!fresh) {
                updates = credit_updates_;
                if (!port.read_word(s.p1 + NAMP_H_CREDITS, c)) return fail(s, NAMP_ERR_LOCAL_BUS);
            }
            if (c == 0) {
                if (updates != credit_updates_) continue;
                s.transition(slot_event::no_credit);
                return;
            }
            uint32_t old = 0;
            bool ok = false;
            if (!port.rmw(s.p1 + NAMP_H_CREDITS, true, c - 1, c, cfg_.namp.atomics, old, ok))
                return fail(s, NAMP_ERR_LOCAL_BUS);
            if (ok) break;
        }
        credit = true;
    }
    if (s.has(NAMP_FLAG_BUF)) {
        // the engine is the send buffer's consumer: move rd_idx over the committed element
        uint32_t old = 0;
        bool ok = false;
        if (!port.rmw(s.p2 + MP_CB_OFF_RD_IDX, true, idx + 1, idx, cfg_.namp.atomics, old, ok)) {
            give_back(s, credit, false);
            return fail(s, NAMP_ERR_LOCAL_BUS);
        }
        if (!ok) {  // someone else took it
            give_back(s, credit, false);
            if (!ccm) return fail(s, NAMP_ERR_SEND_EMPTY);
            s.transition(slot_event::send_empty, cycles(cfg_.namp.retry_cycles));
            return;
        }
        s.elem_index = idx;
        s.elem_size_addr = size_addr;
    }
    const uint32_t hf = h[NAMP_H_FLAGS / 4];
    s.direct = s.has(NAMP_FLAG_CON) && (hf & NAMP_H_F_DIRECT);
    if (s.direct) {
        // Channel fast path (thesis Fig. 3.19): the credit guarantees a free element and the
        // channel has one sender, so the element is the handle's wr_idx: no allocation request.
        const uint32_t n = NAMP_H_CAP_LOG2(hf), m = NAMP_H_MSG_LOG2(hf);
        uint32_t code = NAMP_ERR_NONE;
        if (n > MP_CB_MAX_CAP_LOG2 || m < MP_CB_MIN_MSG_LOG2 || m > MP_CB_MAX_MSG_LOG2)
            code = NAMP_ERR_BAD_PARAM;
        else if (s.size > (1u << m))
            code = NAMP_ERR_TOO_LARGE;
        // only this (sequential) egress FSM writes wr_idx once connected: the burst's value is
        // current
        const uint32_t wr = h[NAMP_H_WR_IDX / 4];
        if (code == NAMP_ERR_NONE && !port.write_word(s.p1 + NAMP_H_WR_IDX, wr + 1))
            code = NAMP_ERR_LOCAL_BUS;
        if (code != NAMP_ERR_NONE) {
            s.direct = false;
            give_back(s, credit, s.has(NAMP_FLAG_BUF));
            return fail(s, code);
        }
        d.element = wr;
        d.data = h[NAMP_H_RDATA / 4] + ((wr & ((1u << n) - 1u)) << m);
        if (cfg_.namp.ps && h[NAMP_H_DUALCAST / 4])
            dualcast_target(s, h[NAMP_H_DUALCAST / 4], n, m);
        s.transition(slot_event::direct);
        return;
    }
    send_request(s);
}

// RETRY (back-off expired): the credit and the element are kept, only the request is repeated.
void initiator::step_retry(slot &s) {
    ++s.stats().retries;
    send_request(s);
}

// The allocation request for the slot's destination (READY after the set-up, or RETRY).
void initiator::send_request(slot &s) {
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    send(s.dst().tile, NAMP_MSG_ALLOC_REQ, s.has(NAMP_FLAG_CON) ? NAMP_ALLOC_F_CHANNEL : 0u, s,
         words({s.dst().endpoint, s.size}, s.dst().ident));
    s.transition(slot_event::request_sent);
}

void initiator::step_send_wait(slot &s) {
    s.transition(slot_event::poll);
    step_ready(s);
}

// DATA: program a DMA context with the payload; the slot waits in DMA for its completion while
// the egress FSM serves other slots.
void initiator::step_data(slot &s) {
    sc_core::wait(cycles(cfg_.namp.data_setup_cycles));
    if (s.size == 0) {
        s.transition(slot_event::empty);
        return;
    }
    dma_job j;
    j.src = s.src;
    j.tile = s.dst().tile;
    j.dst = s.dst().data;
    j.size = s.size;
    j.tag = dma_tag_namp | NAMP_TAG(s.index(), 0);
    dma_.submit(j, *this);
    s.transition(slot_event::dma_started);
}

// FINALIZE: all data is written (DMA completion seen): commit the element remotely, count the
// transfer in the handle, free the send-buffer element; CCM goes on with the next element.
void initiator::step_finalize(slot &s) {
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    const slot_destination &d = s.dst();
    if (!s.shadow_phase)
        send(d.tile, NAMP_MSG_FINAL, s.direct ? NAMP_FINAL_F_ADVANCE : 0u, s,
             words({d.endpoint, d.element, s.size}, d.ident));
    else if (!s.shadow_failed)
        send(d.tile, NAMP_MSG_FINAL, NAMP_FINAL_F_SHADOW, s,
             words({d.endpoint, d.element, s.size}, d.ident));
    if (!s.shadow_phase && s.shadow_pending) {  // PS dualcast: now the copy, same element index
        s.shadow_phase = true;
        s.dst() = s.shadow;
        s.transition(slot_event::shadow);
        return;
    }
    if (s.shadow_phase && !s.shadow_failed) ++stats_.namp_shadow_transfers;
    sc_core::wait(cycles(cfg_.namp.finalize_cycles));
    uint32_t sent = 0;
    if (port.read_word(s.p1 + NAMP_H_SENT, sent)) port.write_word(s.p1 + NAMP_H_SENT, sent + 1);
    if (s.has(NAMP_FLAG_BUF)) port.write_word(s.elem_size_addr, 0);  // free the send-buffer element
    ++s.stats().transfers;
    s.stats().bytes += s.size;
    if (s.has(NAMP_FLAG_CCM) && !s.leaving()) {
        s.transition(slot_event::next);
        return;
    }
    s.transition(slot_event::finished);
    complete(s);
}

// ---- ingress FSM ----

void initiator::response(noc::packet pkt) {
    if (pkt.payload.empty()) return;
    in_.push({input_kind::response, NAMP_MSG_TAG(pkt.payload[0]), std::move(pkt.payload)});
}

void initiator::dma_completion(unsigned tag, bool error) {
    in_.push({error ? input_kind::dma_error : input_kind::dma_done, tag, {}});
}

void initiator::dma_read_failed(unsigned tag) { in_.push({input_kind::dma_read_error, tag, {}}); }

void initiator::ingress_thread() {
    for (;;) {
        in_.take(cur_);
        ++stats_.namp_ingress_steps;
        apply(cur_);
        if (!ps_replies_.empty()) flush_ps_replies();
        cur_.words.clear();
        cur_.words.shrink_to_fit();
        kick();
    }
}

void initiator::apply(const input &in) {
    // A CREDIT the remote target refused (posted: the credit slot has finished); counted, and
    // seen in the statistics and the trace of the refusing tile.
    if (in.kind == input_kind::response && NAMP_MSG_SUB(in.words[0]) == NAMP_MSG_CREDIT_NACK) {
        ++stats_.namp_credit_nacks;
        return;
    }
    const unsigned i = NAMP_TAG_SLOT(in.tag);
    if (i >= slots_.size()) return;
    slot &s = *slots_[i];
    if (s.state() == slot_state::members) return cc_apply(s, in);
    if (in.kind != input_kind::response) {
        if (s.state() != slot_state::dma) return;  // stale
        if (in.kind == input_kind::dma_done) {
            s.transition(slot_event::dma_done);
        } else if (s.shadow_phase) {  // a failed dualcast copy: the original stands
            ++stats_.namp_shadow_errors;
            s.shadow_failed = true;
            s.transition(slot_event::dma_done);
        } else {
            fail(s, in.kind == input_kind::dma_error ? NAMP_ERR_REMOTE : NAMP_ERR_LOCAL_BUS);
        }
        return;
    }
    if (NAMP_MSG_SUB(in.words[0]) == NAMP_MSG_NAK_RELOC) return apply_nak_reloc(s, in.words);
    const auto &w = in.words;
    if (NAMP_MSG_SUB(w[0]) != NAMP_MSG_ALLOC_RESP || w.size() < 4 ||
        s.state() != slot_state::request)
        return;
    if (NAMP_MSG_FLAGS(w[0]) & NAMP_RESP_F_ACK) {
        s.dst().element = w[2];
        s.dst().data = w[3];
        s.transition(slot_event::ack);
    } else if (w[1] == 0) {  // buffer full: back off, then ask again
        ++s.stats().nacks;
        ++s.retries;
        s.transition(slot_event::nack, s.abort_requested ? sc_core::SC_ZERO_TIME : backoff(s));
    } else {
        fail(s, w[1] & 0xFFu);
    }
}

// Exponential back-off with jitter (docs/namp.md, "Retries"): the k-th NACK of a transfer waits
// a time drawn from [d/2, d], d = min(retry_cycles * 2^(k-1), retry_max_cycles).
sc_core::sc_time initiator::backoff_after(unsigned retries) {
    const unsigned k = std::min(retries, 20u);
    const uint64_t base = uint64_t(cfg_.namp.retry_cycles) << (k ? k - 1 : 0);
    const uint64_t d = std::max<uint64_t>(1, std::min<uint64_t>(base, cfg_.namp.retry_max_cycles));
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 17;
    rng_ ^= rng_ << 5;
    return cycles(d / 2 + rng_ % (d - d / 2 + 1));
}

// ---- bookkeeping ----

void initiator::complete(slot &s) {
    s.flags |= NAMP_FLAG_DONE;
    if (s.has(NAMP_FLAG_BUF)) {
        // Buffered modes complete implicitly: the hardware frees the slot (VALID = 0), DONE stays
        // visible until software writes FLAGS again.
        s.flags &= ~NAMP_FLAG_VALID;
        s.transition(slot_event::release);
    }
    finished_(s);
}

// Gives back what a failed transfer holds (from its state), then ERROR + DONE. A remote element
// (allocated or taken on the fast path) cannot be handed back while later ones may be taken: it
// is committed VOID, and the receiver skips it (its credit returns when it is consumed).
void initiator::fail(slot &s, uint32_t code) {
    // an abort with KEEP gives the element back to the send buffer (rd_idx over it again, still
    // committed) for the transfer's restart; only this slot consumes it while the task is stopped
    bool drop = s.holds_element();
    if (drop && code == NAMP_ERR_ABORTED && s.abort_keep) {
        uint32_t old = 0;
        bool ok = false;
        drop = !(port.rmw(s.p2 + MP_CB_OFF_RD_IDX, true, s.elem_index, s.elem_index + 1,
                          cfg_.namp.atomics, old, ok) &&
                 ok);
    }
    if (s.holds_remote()) {
        const slot_destination &d = s.dst();
        send(d.tile, NAMP_MSG_FINAL, NAMP_FINAL_F_VOID | (s.direct ? NAMP_FINAL_F_ADVANCE : 0u), s,
             words({d.endpoint, d.element, 0}, d.ident));
        give_back(s, false, drop);
    } else {
        give_back(s, s.holds_credit(), drop);
    }
    s.code = code;
    s.transition(slot_event::fail);
    s.flags |= NAMP_FLAG_DONE;
    finished_(s);
}

void initiator::give_back(slot &s, bool credit, bool element) {
    if (credit) port.fetch_add(s.p1 + NAMP_H_CREDITS, 1, cfg_.namp.atomics);
    if (element) port.write_word(s.elem_size_addr, 0);  // the message is dropped
}

void initiator::send(unsigned tile, unsigned sub, unsigned flags, const slot &s,
                     std::initializer_list<uint32_t> args) {
    ++stats_.namp_msgs_sent[sub];
    out_.send_packet(make_message(geo_, tile, sub, flags, NAMP_TAG(s.index(), 0), args));
}

void initiator::send(unsigned tile, unsigned sub, unsigned flags, const slot &s,
                     const std::vector<uint32_t> &args) {
    ++stats_.namp_msgs_sent[sub];
    out_.send_packet(make_message(geo_, tile, sub, flags, NAMP_TAG(s.index(), 0), args));
}

std::vector<uint32_t> initiator::words(std::initializer_list<uint32_t> base, uint32_t ident,
                                       std::initializer_list<uint32_t> tail,
                                       const slot_destination *key) const {
    std::vector<uint32_t> w(base);
    if (cfg_.namp.identity) w.push_back(ident);
    w.insert(w.end(), tail);
    if (cfg_.namp.identity && key) {
        w.push_back(key->key_tile);
        w.push_back(key->key_id);
    }
    return w;
}

}  // namespace namp
