// NAMP-CC in the initiator (thesis 3.3.2.1, Fig. 3.27b): the set-up of a collective slot from its
// descriptor and the per-member progress of a multicast. Each member runs the single-destination
// flow (allocation or channel fast path, credit, DMA, finalization) with its own state, timer and
// tag NAMP_TAG(slot, member); the egress FSM serves one due member of the slot per turn, so a
// member waiting for a response, a credit or a back-off never holds back the others. The slot
// stays in MEMBERS until every member is DONE or ERROR. docs/namp.md, "Collective communication".
#include <array>

#include "cbuffer_layout.h"
#include "namp/cc.h"
#include "namp/cc_reduce.h"
#include "namp/data_packet.h"
#include "namp/initiator.h"
#include "namp/protocol.h"
#include "namp_cc.h"
#include "namp_ps.h"
#include "namp_structs.h"

namespace namp {

namespace {
// bytes member m receives: its chunks (scatter) or the whole data
uint32_t member_bytes(const slot &s, const slot_destination &m) {
    return s.cc_kind == NAMP_CC_K_SCATTER ? m.chunk * s.cc_count : s.size;
}

constexpr unsigned h_words = NAMP_H_FLAGS / 4 + 1, h_words_direct = NAMP_H_RDATA / 4 + 1,
                   h_words_key = NAMP_H_KEY_ID / 4 + 1;  // a contribution's: up to its key

// a reduction or gather names its root through a contributor's member handle (NAMP_ET_MEMBER)
bool contribution(uint32_t kind) { return kind == NAMP_CC_K_REDUCE || kind == NAMP_CC_K_GATHER; }

// member states the egress FSM serves when their timer is due
bool member_steps(slot_state st) {
    return st == slot_state::ready || st == slot_state::retry || st == slot_state::data ||
           st == slot_state::finalize;
}
bool member_holds_remote(slot_state st) {
    return st == slot_state::data || st == slot_state::dma || st == slot_state::finalize;
}
}  // namespace

// READY of a collective slot: read and check the descriptor header, read the member table in one
// burst, write it back with the status words cleared (0 = running), start every member.
void initiator::cc_setup(slot &s) {
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    uint32_t hdr[NAMP_CC_HEADER / 4] = {};
    if (!port.read(s.p1, hdr, sizeof hdr)) return fail(s, NAMP_ERR_LOCAL_BUS);
    const uint32_t num = hdr[NAMP_CC_NUM / 4];
    const uint32_t kw = hdr[NAMP_CC_KIND / 4];
    const uint32_t code = cc::validate_header(cfg_.namp, geo_, s.p1, kw, num, s.mode, s.p3);
    if (code != NAMP_ERR_NONE) return fail(s, code);
    // SV guard: the whole descriptor (a gather's stride word too) lies in the collective area
    const uint32_t desc_bytes =
        (kw & 0xFFu) == NAMP_CC_K_GATHER ? NAMP_CC_GATHER_DESC_SIZE : NAMP_CC_SIZE(num);
    if (s.guarded() && !s.in_window(s.p1, desc_bytes)) return fail(s, NAMP_ERR_WINDOW);
    s.cc_kind = kw & 0xFFu;
    s.cc_optype = cc::reduce_word((kw >> 8) & 0xFFu, (kw >> 16) & 0xFFu);
    s.cc_id = hdr[NAMP_CC_ID / 4];
    s.cc_count = kw >> 16;
    s.cc_stride = hdr[NAMP_CC_STRIDE / 4];
    s.cc_part = (kw >> 8) & 0xFFu;
    if (s.cc_kind == NAMP_CC_K_GATHER && !port.read_word(s.p1 + NAMP_CC_GATHER_STRIDE, s.cc_stride))
        return fail(s, NAMP_ERR_LOCAL_BUS);
    std::array<uint32_t, 4 * NAMP_CC_MAX_MEMBERS> table{};
    const uint32_t bytes = NAMP_CC_SIZE(num) - NAMP_CC_HEADER;
    if (!port.read(s.p1 + NAMP_CC_HEADER, table.data(), bytes)) return fail(s, NAMP_ERR_LOCAL_BUS);
    for (unsigned i = 0; i < num; ++i) table[4 * i + NAMP_CC_M_STATUS / 4] = 0;
    if (!port.write(s.p1 + NAMP_CC_HEADER, table.data(), bytes) ||
        !port.write_word(s.p1 + NAMP_CC_RESULT, 0))
        return fail(s, NAMP_ERR_LOCAL_BUS);
    auto &ds = s.destinations();
    ds.assign(num, slot_destination{});
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (unsigned i = 0; i < num; ++i) {
        ds[i].handle = table[4 * i + NAMP_CC_M_HANDLE / 4];
        if (s.guarded()) ds[i].code = translate_member(s, ds[i].handle, contribution(s.cc_kind));
        ds[i].base = table[4 * i + NAMP_CC_M_BASE / 4];
        ds[i].chunk = table[4 * i + NAMP_CC_M_SIZE / 4];
        ds[i].state = slot::next(slot_state::idle, slot_event::start);
        ds[i].due = now;
    }
    s.src = s.p2;
    s.size = s.p3;
    s.transition(slot_event::members);
    cc_reschedule(s);
}

// A guarded collective (started through a vif) names its members by vID: the set-up reads entry
// vid of the slot's endpoint table (kernel memory; one 16-byte burst, the bound checked first)
// and keeps the handle address it holds. The descriptor is read once, so a task rewriting its
// members later changes nothing. Returns 0, or the vif's code for the member's status word.
// A reduction's or gather's member must be a contributor's member handle (NAMP_ET_MEMBER: its key is
// the kernel's), any other collective's a plain handle: a member handle reaches its root only as
// a contribution, a plain handle never contributes.
uint32_t initiator::translate_member(const slot &s, uint32_t &handle, bool contribution) {
    const uint32_t vid = handle;
    handle = 0;
    if (vid >= s.et_bound) return NAMP_ERR_VIF_BOUND;
    uint32_t entry[NAMP_ET_ENTRY_SIZE / 4] = {};
    if (!port.read(s.et_base + vid * NAMP_ET_ENTRY_SIZE, entry, sizeof entry))
        return NAMP_ERR_VIF_BUS;
    if (entry[NAMP_ET_KIND / 4] != (contribution ? NAMP_ET_MEMBER : NAMP_ET_HANDLE))
        return NAMP_ERR_VIF_ENTRY;
    handle = entry[NAMP_ET_ADDR / 4];
    return NAMP_ERR_NONE;
}

// MEMBERS: serve the member whose step has been due longest (lower index on ties).
void initiator::step_members(slot &s) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    auto &ds = s.destinations();
    int pick = -1;
    for (unsigned i = 0; i < ds.size(); ++i)
        if (member_steps(ds[i].state) && ds[i].due <= now && (pick < 0 || ds[i].due < ds[pick].due))
            pick = int(i);
    if (pick >= 0) {
        switch (ds[pick].state) {
        case slot_state::ready: cc_member_ready(s, unsigned(pick)); break;
        case slot_state::retry:
            ++s.stats().retries;
            cc_member_request(s, unsigned(pick));
            break;
        case slot_state::data: cc_member_data(s, unsigned(pick)); break;
        default: cc_member_finalize(s, unsigned(pick)); break;
        }
    }
    cc_reschedule(s);
}

// Abort of a collective: every member at a safe point fails ABORTED now (a credit wait too);
// members waiting for a response or a DMA completion fail when it has arrived.
void initiator::cc_abort(slot &s) {
    auto &ds = s.destinations();
    for (unsigned i = 0; i < ds.size() && s.state() == slot_state::members; ++i)
        if (member_steps(ds[i].state) || ds[i].state == slot_state::credit_wait)
            cc_member_fail(s, i, NAMP_ERR_ABORTED);
    cc_reschedule(s);
}

// The slot's timer is its earliest member step; none: the slot waits for an input (kick).
void initiator::cc_reschedule(slot &s) {
    if (s.state() != slot_state::members) return;
    bool any = false;
    sc_core::sc_time next = sc_core::sc_max_time();
    for (const auto &m : s.destinations())
        if (member_steps(m.state) && (!any || m.due < next)) {
            next = m.due;
            any = true;
        }
    s.set_due(next);
    kick();
}

void initiator::cc_member_event(slot &s, unsigned i, slot_event e, sc_core::sc_time delay) {
    slot_destination &m = s.destinations()[i];
    m.state = slot::next(m.state, e);
    m.due = sc_core::sc_time_stamp() + delay;
}

// Member READY: the single-destination set-up on the member's handle (no send buffer).
void initiator::cc_member_ready(slot &s, unsigned i) {
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    slot_destination &m = s.destinations()[i];
    if (m.code != NAMP_ERR_NONE) return cc_member_fail(s, i, m.code);  // its vID was refused
    if ((m.handle & 3) || !geo_.in_sram(m.handle, NAMP_H_SIZE))
        return cc_member_fail(s, i, NAMP_ERR_BAD_PARAM);
    const bool con = s.has(NAMP_FLAG_CON);
    // a contribution's key rides with its allocation (namp.identity): the burst reaches it
    const bool key = cfg_.namp.identity && contribution(s.cc_kind);
    uint32_t h[h_words_key] = {};
    const unsigned h_first = handle_first();
    const unsigned n_words = (key ? h_words_key : con ? h_words_direct : h_words) - h_first;
    if (!port.read(m.handle + 4 * h_first, h + h_first, 4 * n_words))
        return cc_member_fail(s, i, NAMP_ERR_LOCAL_BUS);
    m.tile = h[NAMP_H_TILE / 4];
    m.endpoint = h[NAMP_H_ENDPOINT / 4];
    m.ident = h[NAMP_H_ID / 4];
    m.key_tile = h[NAMP_H_KEY_TILE / 4];
    m.key_id = h[NAMP_H_KEY_ID / 4];
    if (m.tile >= geo_.mesh_width * geo_.mesh_height || (m.endpoint & 3))
        return cc_member_fail(s, i, NAMP_ERR_BAD_PARAM);
    if (s.cc_kind == NAMP_CC_K_SCATTER) {
        // the member's chunks must lie inside the data set [PARAM2, PARAM2 + PARAM3)
        const uint64_t end = uint64_t(m.base) + uint64_t(s.cc_count - 1) * s.cc_stride + m.chunk;
        if (m.chunk == 0 || end > s.size || uint64_t(m.chunk) * s.cc_count > 0xFFFFFFFFu)
            return cc_member_fail(s, i, NAMP_ERR_BAD_PARAM);
    }
    const uint32_t hf = h[NAMP_H_FLAGS / 4];
    if (s.cc_kind == NAMP_CC_K_GATHER) {
        // the part's chunks must lie inside the root's element (the handle's geometry) and the
        // data must be exactly count chunks
        const uint32_t mm = NAMP_H_MSG_LOG2(hf);
        const uint64_t end = uint64_t(m.base) + uint64_t(s.cc_count - 1) * s.cc_stride + m.chunk;
        if (m.chunk == 0 || uint64_t(m.chunk) * s.cc_count != s.size || mm < MP_CB_MIN_MSG_LOG2 ||
            mm > MP_CB_MAX_MSG_LOG2 || end > (1ull << mm))
            return cc_member_fail(s, i, NAMP_ERR_BAD_PARAM);
    }
    if (!con) return cc_member_request(s, i);
    if (hf & NAMP_H_F_REVOKED) return cc_member_fail(s, i, NAMP_ERR_CLOSED);
    // credit: check and atomic decrement; none: this member waits for a CREDIT update, the
    // others go on (a CREDIT served during the read must not be lost: read again)
    for (;;) {
        const uint64_t updates = credit_updates_;
        uint32_t c = 0, old = 0;
        bool ok = false;
        if (!port.read_word(m.handle + NAMP_H_CREDITS, c))
            return cc_member_fail(s, i, NAMP_ERR_LOCAL_BUS);
        if (c == 0) {
            if (updates != credit_updates_) continue;
            return cc_member_event(s, i, slot_event::no_credit);
        }
        if (!port.rmw(m.handle + NAMP_H_CREDITS, true, c - 1, c, cfg_.namp.atomics, old, ok))
            return cc_member_fail(s, i, NAMP_ERR_LOCAL_BUS);
        if (ok) break;
    }
    // several senders share a gather's element: it is always allocated (no fast path)
    if (!(hf & NAMP_H_F_DIRECT) || s.cc_kind == NAMP_CC_K_GATHER) return cc_member_request(s, i);
    // channel fast path: the element is the handle's wr_idx
    const uint32_t n = NAMP_H_CAP_LOG2(hf), mm = NAMP_H_MSG_LOG2(hf);
    uint32_t code = NAMP_ERR_NONE, wr = 0;
    if (n > MP_CB_MAX_CAP_LOG2 || mm < MP_CB_MIN_MSG_LOG2 || mm > MP_CB_MAX_MSG_LOG2)
        code = NAMP_ERR_BAD_PARAM;
    else if (member_bytes(s, m) > (1u << mm))
        code = NAMP_ERR_TOO_LARGE;
    else if (!port.read_word(m.handle + NAMP_H_WR_IDX, wr) ||
             !port.write_word(m.handle + NAMP_H_WR_IDX, wr + 1))
        code = NAMP_ERR_LOCAL_BUS;
    if (code != NAMP_ERR_NONE) {
        port.fetch_add(m.handle + NAMP_H_CREDITS, 1, cfg_.namp.atomics);  // the credit taken above
        m.code = code;
        cc_member_event(s, i, slot_event::fail);
        return cc_member_end(s, i);
    }
    m.direct = true;
    m.element = wr;
    m.data = h[NAMP_H_RDATA / 4] + ((wr & ((1u << n) - 1u)) << mm);
    cc_member_event(s, i, slot_event::direct);
}

// Member allocation request (after READY, or RETRY when the back-off expired).
void initiator::cc_member_request(slot &s, unsigned i) {
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    const slot_destination &m = s.destinations()[i];
    ++stats_.namp_msgs_sent[NAMP_MSG_ALLOC_REQ];
    if (s.cc_kind == NAMP_CC_K_REDUCE)  // the element of reduction `id`, initialised for op/type
        out_.send_packet(make_message(
            geo_, m.tile, NAMP_MSG_ALLOC_REQ, NAMP_ALLOC_F_REDUCE, NAMP_TAG(s.index(), i),
            words({m.endpoint, s.size}, m.ident, {s.cc_id, s.cc_optype}, &m)));
    else if (s.cc_kind == NAMP_CC_K_GATHER)  // the element collecting gather `id`, this part
        out_.send_packet(
            make_message(geo_, m.tile, NAMP_MSG_ALLOC_REQ,
                         NAMP_ALLOC_F_CHANNEL | NAMP_ALLOC_F_GATHER, NAMP_TAG(s.index(), i),
                         words({m.endpoint, s.size}, m.ident, {s.cc_id, s.cc_part}, &m)));
    else
        out_.send_packet(make_message(
            geo_, m.tile, NAMP_MSG_ALLOC_REQ, s.has(NAMP_FLAG_CON) ? NAMP_ALLOC_F_CHANNEL : 0u,
            NAMP_TAG(s.index(), i), words({m.endpoint, member_bytes(s, m)}, m.ident)));
    cc_member_event(s, i, slot_event::request_sent);
}

// Member DATA: a DMA context per member, tagged with the member; the data is read once per member.
void initiator::cc_member_data(slot &s, unsigned i) {
    sc_core::wait(cycles(cfg_.namp.data_setup_cycles));
    const slot_destination &m = s.destinations()[i];
    if (member_bytes(s, m) == 0) return cc_member_event(s, i, slot_event::empty);
    dma_job j;
    j.src = s.src;
    j.tile = m.tile;
    j.dst = m.data;
    j.size = member_bytes(s, m);
    if (s.cc_kind == NAMP_CC_K_SCATTER) {  // scatter-gather address generation in the DMA
        j.src = s.src + m.base;
        j.chunk = m.chunk;
        j.stride = s.cc_stride;
    }
    j.tag = dma_tag_namp | NAMP_TAG(s.index(), i);
    if (s.cc_kind == NAMP_CC_K_REDUCE)
        j.reduce = (1u << 16) | s.cc_optype;  // op/type in every packet
    if (s.cc_kind == NAMP_CC_K_GATHER) {      // the destination address generation
        j.dst = m.data + m.base;
        j.dst_chunk = m.chunk;
        j.dst_stride = s.cc_stride;
    }
    dma_.submit(j, *this);
    cc_member_event(s, i, slot_event::dma_started);
}

// Member FINALIZE: commit the member's element, count the transfer in its handle.
void initiator::cc_member_finalize(slot &s, unsigned i) {
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    const slot_destination &m = s.destinations()[i];
    ++stats_.namp_msgs_sent[NAMP_MSG_FINAL];
    const uint32_t red = s.cc_kind == NAMP_CC_K_REDUCE   ? NAMP_FINAL_F_REDUCE
                         : s.cc_kind == NAMP_CC_K_GATHER ? NAMP_FINAL_F_GATHER
                                                         : 0u;
    const uint32_t part = s.cc_kind == NAMP_CC_K_GATHER ? s.cc_part << 24 : 0u;
    out_.send_packet(
        make_message(geo_, m.tile, NAMP_MSG_FINAL, (m.direct ? NAMP_FINAL_F_ADVANCE : 0u) | red,
                     NAMP_TAG(s.index(), i),
                     words({m.endpoint, m.element, member_bytes(s, m) | part}, m.ident)));
    sc_core::wait(cycles(cfg_.namp.finalize_cycles));
    uint32_t sent = 0;
    if (port.read_word(m.handle + NAMP_H_SENT, sent))
        port.write_word(m.handle + NAMP_H_SENT, sent + 1);
    ++s.stats().transfers;
    s.stats().bytes += member_bytes(s, m);
    cc_member_event(s, i, slot_event::finished);
    cc_member_end(s, i);
}

// Ingress for a slot in MEMBERS: the tag's destination byte names the member.
void initiator::cc_apply(slot &s, const input &in) {
    const unsigned i = NAMP_TAG_DST(in.tag);
    auto &ds = s.destinations();
    if (i >= ds.size()) return;
    slot_destination &m = ds[i];
    if (in.kind != input_kind::response) {
        if (m.state != slot_state::dma) return;  // stale
        if (in.kind == input_kind::dma_done)
            cc_member_event(s, i, slot_event::dma_done);
        else
            cc_member_fail(s, i,
                           in.kind == input_kind::dma_error ? NAMP_ERR_REMOTE : NAMP_ERR_LOCAL_BUS);
        return cc_reschedule(s);
    }
    const auto &w = in.words;
    if (w.size() >= 3 && NAMP_MSG_SUB(w[0]) == NAMP_MSG_NAK_RELOC &&
        m.state == slot_state::request) {
        // PS: the member's handle takes the new location, the member asks there at once
        if (w[1] >= geo_.mesh_width * geo_.mesh_height || (w[2] & 3) ||
            (cfg_.namp.identity && w.size() < 4))
            cc_member_fail(s, i, NAMP_ERR_BAD_PARAM);
        else if (!write_location(m.handle, w))
            cc_member_fail(s, i, NAMP_ERR_LOCAL_BUS);
        else {
            m.tile = w[1];
            m.endpoint = w[2];
            m.ident = cfg_.namp.identity ? w[3] : 0u;
            ++stats_.namp_relocations;
            cc_member_event(s, i, slot_event::reloc);
        }
        return cc_reschedule(s);
    }
    if (w.size() < 4 || NAMP_MSG_SUB(w[0]) != NAMP_MSG_ALLOC_RESP || m.state != slot_state::request)
        return;
    if (NAMP_MSG_FLAGS(w[0]) & NAMP_RESP_F_ACK) {
        m.element = w[2];
        m.data = w[3];
        cc_member_event(s, i, slot_event::ack);
    } else if (w[1] == 0) {  // full: this member backs off, the others go on
        ++s.stats().nacks;
        ++s.retries;
        ++m.retries;
        cc_member_event(s, i, slot_event::nack,
                        s.abort_requested ? sc_core::SC_ZERO_TIME : backoff_after(m.retries));
    } else {
        cc_member_fail(s, i, w[1] & 0xFFu);
    }
    cc_reschedule(s);
}

void initiator::cc_credit_update(uint32_t handle) {
    for (auto &sp : slots_) {
        if (sp->state() != slot_state::members) continue;
        auto &ds = sp->destinations();
        for (unsigned i = 0; i < ds.size(); ++i)
            if (ds[i].state == slot_state::credit_wait && ds[i].handle == handle)
                cc_member_event(*sp, i, slot_event::credit_update);
        cc_reschedule(*sp);
    }
}

// A member fails: it gives back what its state holds (a remote element is committed VOID, a
// credit not yet used goes back to its handle), then it ends with ERROR.
void initiator::cc_member_fail(slot &s, unsigned i, uint32_t code) {
    slot_destination &m = s.destinations()[i];
    const bool con = s.has(NAMP_FLAG_CON);
    if (member_holds_remote(m.state)) {
        ++stats_.namp_msgs_sent[NAMP_MSG_FINAL];
        out_.send_packet(make_message(
            geo_, m.tile, NAMP_MSG_FINAL,
            NAMP_FINAL_F_VOID | (m.direct ? NAMP_FINAL_F_ADVANCE : 0u) |
                (s.cc_kind == NAMP_CC_K_REDUCE ? NAMP_FINAL_F_REDUCE : 0u) |
                (s.cc_kind == NAMP_CC_K_GATHER ? NAMP_FINAL_F_GATHER : 0u),
            NAMP_TAG(s.index(), i),
            words({m.endpoint, m.element, s.cc_kind == NAMP_CC_K_GATHER ? s.cc_part << 24 : 0u},
                  m.ident)));
    } else if (con && (m.state == slot_state::request || m.state == slot_state::retry)) {
        port.fetch_add(m.handle + NAMP_H_CREDITS, 1, cfg_.namp.atomics);
    }
    m.code = code;
    cc_member_event(s, i, slot_event::fail);
    cc_member_end(s, i);
}

// A member finished (DONE or ERROR): its status word; the last one writes the result word and
// finishes the slot (ERROR CC_MEMBER if any member failed). The count of ended members, not the
// member states, decides who is last: two members may end at once in the egress and ingress FSMs.
void initiator::cc_member_end(slot &s, unsigned i) {
    const slot_destination &m = s.destinations()[i];
    if (m.state == slot_state::error) ++s.cc_failed;
    port.write_word(s.p1 + NAMP_CC_MEMBER(i) + NAMP_CC_M_STATUS,
                    NAMP_CC_MSTAT(m.code, unsigned(m.state), m.retries));
    if (++s.cc_ended < s.destinations().size()) return;
    const uint32_t failed = s.cc_failed, ok = s.cc_ended - failed;
    port.write_word(s.p1 + NAMP_CC_RESULT, (ok & 0xFFu) | ((failed & 0xFFu) << 8));
    if (s.abort_requested) return fail(s, NAMP_ERR_ABORTED);
    if (failed) return fail(s, NAMP_ERR_CC_MEMBER);
    s.transition(slot_event::finished);
    complete(s);
}

}  // namespace namp
