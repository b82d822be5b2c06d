// NAMP-PS in the initiator (thesis 3.6.4, Figs. 3.38, 3.39): the OS's control slot that sends a
// RELOC or MIGRATE, applying a RELOC or MIGRATE to a local channel handle between two egress steps
// and reporting it (RELOC_CREDIT), the handle update and restart on a NAK_RELOC, and the dualcast
// copy's target. docs/namp.md, "NAMP-PS".
#include "cbuffer_layout.h"
#include "namp/initiator.h"
#include "namp/protocol.h"
#include "namp_ps.h"
#include "namp_structs.h"

namespace namp {

namespace {
constexpr unsigned h_words = NAMP_H_DUALCAST / 4 + 1;  // a handle up to its DUALCAST word
}

// READY of a PS slot (FLAGS.PS): the request block names the sender's tile and handle, the new
// location and where the report goes; the message is posted, the slot is DONE when it is sent.
void initiator::step_ps_slot(slot &s) {
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    uint32_t q[NAMP_PS_Q_SIZE / 4] = {};
    if (!port.read(s.p1, q, cfg_.namp.identity ? NAMP_PS_Q_SIZE : NAMP_PS_Q_NEW_ID))
        return fail(s, NAMP_ERR_LOCAL_BUS);
    const unsigned tiles = geo_.mesh_width * geo_.mesh_height;
    const uint32_t op = q[NAMP_PS_Q_OP / 4], reply = q[NAMP_PS_Q_REPLY / 4];
    if ((op != NAMP_PS_OP_RELOC && op != NAMP_PS_OP_MIGRATE) || q[NAMP_PS_Q_TILE / 4] >= tiles ||
        q[NAMP_PS_Q_NEW_TILE / 4] >= tiles || (q[NAMP_PS_Q_HANDLE / 4] & 3) ||
        (q[NAMP_PS_Q_NEW_EP / 4] & 3) ||
        (reply && (q[NAMP_PS_Q_REPLY_TILE / 4] >= tiles || (reply & 3))))
        return fail(s, NAMP_ERR_BAD_PARAM);
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    std::vector<uint32_t> w = {q[NAMP_PS_Q_HANDLE / 4],     q[NAMP_PS_Q_NEW_TILE / 4],
                               q[NAMP_PS_Q_NEW_EP / 4],     q[NAMP_PS_Q_NEW_RDATA / 4],
                               q[NAMP_PS_Q_REPLY_TILE / 4], reply};
    if (cfg_.namp.identity) w.push_back(q[NAMP_PS_Q_NEW_ID / 4]);
    send(q[NAMP_PS_Q_TILE / 4], op == NAMP_PS_OP_RELOC ? NAMP_MSG_RELOC : NAMP_MSG_MIGRATE, 0u, s,
         w);
    ++s.stats().transfers;
    s.transition(slot_event::ps_sent);
    complete(s);
}

void initiator::ps_request(noc::packet pkt) {
    ps_jobs_.push_back(std::move(pkt));
    kick();
}

// RELOC / MIGRATE for a local handle [w0][handle][new tile][new ep][new rdata][reply tile][reply]
// (identity: [new id]): only a connected channel's sending handle; RELOC writes the new location
// (ID, tile and endpoint in one burst, rdata if given) and ends dualcasting, MIGRATE (a DIRECT
// handle with a dualcast block) fills in the block (its STATE: the new endpoint's ID). Transfers past their set-up finish where they were going; the next set-up
// reads the new words. The report carries the handle's wr_idx, credits and sent count as they are
// now: the element index from which on the change applies.
void initiator::serve_ps(const noc::packet &pkt) {
    const auto &w = pkt.payload;
    const unsigned sub = NAMP_MSG_SUB(w[0]);
    const uint32_t h = w[1], tiles = geo_.mesh_width * geo_.mesh_height;
    sc_core::wait(cycles(cfg_.namp.setup_cycles));
    uint32_t hw[h_words] = {}, code = NAMP_ERR_NONE;
    const uint32_t new_id = cfg_.namp.identity && w.size() >= 8 ? w[7] : 1u;  // dualcasting: != 0
    if ((h & 3) || !geo_.in_sram(h, NAMP_H_SIZE) || w[2] >= tiles || (w[3] & 3) ||
        (cfg_.namp.identity && w.size() < 8))
        code = NAMP_ERR_BAD_PARAM;
    else if (!port.read(h + NAMP_H_TILE, hw + 1, 4 * (h_words - 1)))
        code = NAMP_ERR_LOCAL_BUS;
    else if (!(hw[NAMP_H_FLAGS / 4] & NAMP_H_F_CONNECTED))
        code = NAMP_ERR_NOT_CHANNEL;
    const uint32_t dc = hw[NAMP_H_DUALCAST / 4];
    const bool dc_ok = dc && !(dc & 3) && geo_.in_sram(dc, NAMP_PS_D_SIZE);
    if (code == NAMP_ERR_NONE && sub == NAMP_MSG_MIGRATE) {
        const uint32_t block[NAMP_PS_D_SIZE / 4] = {new_id, w[2], w[3], w[4]};
        if (!(hw[NAMP_H_FLAGS / 4] & NAMP_H_F_DIRECT) || !dc_ok)
            code = NAMP_ERR_MODE_UNSUPPORTED;  // dualcast needs the fast path and its block
        else if (!port.write(dc, block, sizeof block))
            code = NAMP_ERR_LOCAL_BUS;
    } else if (code == NAMP_ERR_NONE) {
        const uint32_t loc[3] = {new_id, w[2], w[3]};
        const unsigned first = cfg_.namp.identity ? 0 : 1;
        if (!port.write(h + 4 * first, loc + first, 4 * (3 - first)) ||
            (w[4] && !port.write_word(h + NAMP_H_RDATA, w[4])) ||
            (dc_ok && !port.write_word(dc, 0)))
            code = NAMP_ERR_LOCAL_BUS;
    }
    if (code == NAMP_ERR_NONE)
        ++stats_.namp_ps_applied;
    else
        ++stats_.namp_ps_refused;
    if (!w[6]) return;
    // The report waits until every transfer that had read the handle before the change has
    // finished (its FINALs sent: they reach their tile before a report to the same tile).
    ps_replies_.push_back(
        {h, make_message(geo_, w[5], NAMP_MSG_RELOC_CREDIT, 0u, NAMP_MSG_TAG(w[0]),
                         {w[6], code, hw[NAMP_H_WR_IDX / 4], hw[NAMP_H_CREDITS / 4],
                          hw[NAMP_H_SENT / 4], h})});
    flush_ps_replies();
}

// A transfer on handle h is past its set-up: it goes to the location it read.
bool initiator::handle_in_flight(uint32_t h) const {
    for (const auto &sp : slots_) {
        const slot &s = *sp;
        switch (s.state()) {
        case slot_state::request:
        case slot_state::retry:
        case slot_state::data:
        case slot_state::dma:
        case slot_state::finalize:
            if (s.p1 == h) return true;
            break;
        case slot_state::members:
            for (const auto &m : const_cast<slot &>(s).destinations())
                if (m.handle == h && m.state != slot_state::ready &&
                    m.state != slot_state::credit_wait && m.state != slot_state::done &&
                    m.state != slot_state::error)
                    return true;
            break;
        default: break;
        }
    }
    return false;
}

void initiator::flush_ps_replies() {
    // taken out before it is sent: sending may wait, and the other thread that flushes (or a
    // RELOC served meanwhile) changes the queue under an iterator held across it
    for (size_t i = 0; i < ps_replies_.size();) {
        if (handle_in_flight(ps_replies_[i].first)) {
            ++i;
            continue;
        }
        noc::packet pkt = std::move(ps_replies_[i].second);
        ps_replies_.erase(ps_replies_.begin() + static_cast<std::ptrdiff_t>(i));
        ++stats_.namp_msgs_sent[NAMP_MSG_RELOC_CREDIT];
        out_.send_packet(std::move(pkt));
    }
}

bool initiator::write_location(uint32_t h, const std::vector<uint32_t> &w) {
    const uint32_t loc[3] = {cfg_.namp.identity ? w[3] : 0u, w[1], w[2]};
    const unsigned first = cfg_.namp.identity ? 0 : 1;
    return port.write(h + 4 * first, loc + first, 4 * (3 - first));
}

// NAK_RELOC [w0][new tile][new endpoint] (identity: [new id]) for a slot waiting for its
// allocation: the handle takes the new location (one burst: atomic for the slots and software
// that read it), the transfer asks there at once, keeping its credit and send-buffer element.
void initiator::apply_nak_reloc(slot &s, const std::vector<uint32_t> &w) {
    if (w.size() < 3 || s.state() != slot_state::request) return;
    if (w[1] >= geo_.mesh_width * geo_.mesh_height || (w[2] & 3) ||
        (cfg_.namp.identity && w.size() < 4))
        return fail(s, NAMP_ERR_BAD_PARAM);
    if (!write_location(s.p1, w)) return fail(s, NAMP_ERR_LOCAL_BUS);
    s.dst().tile = w[1];
    s.dst().endpoint = w[2];
    s.dst().ident = cfg_.namp.identity ? w[3] : 0u;
    ++stats_.namp_relocations;
    s.transition(slot_event::reloc);
}

// The fast-path element of a handle that is dualcasting also goes to the new location, at the
// same index (its buffer has the original's geometry; the block names its data address).
void initiator::dualcast_target(slot &s, uint32_t block, uint32_t n, uint32_t m) {
    uint32_t b[NAMP_PS_D_SIZE / 4] = {};
    if ((block & 3) || !geo_.in_sram(block, NAMP_PS_D_SIZE) || !port.read(block, b, sizeof b) ||
        b[NAMP_PS_D_STATE / 4] == 0 || b[NAMP_PS_D_TILE / 4] >= geo_.mesh_width * geo_.mesh_height)
        return;
    slot_destination &d = s.dst();
    s.shadow = slot_destination{};
    s.shadow.tile = b[NAMP_PS_D_TILE / 4];
    s.shadow.endpoint = b[NAMP_PS_D_ENDPOINT / 4];
    s.shadow.ident = b[NAMP_PS_D_STATE / 4];
    s.shadow.element = d.element;
    s.shadow.data = b[NAMP_PS_D_RDATA / 4] + ((d.element & ((1u << n) - 1u)) << m);
    s.shadow_pending = true;
}

}  // namespace namp
