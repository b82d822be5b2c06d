// NAMP-PS in the target (thesis 3.6.4, Figs. 3.38, 3.39): the NAK_RELOC answer for a relocating
// endpoint, RELOC and MIGRATE handed to the initiator (which owns the handles' updates), refused
// with a report where the tile has no PS, and RELOC_CREDIT reports written into the OS's reply
// block. docs/namp.md, "NAMP-PS".
#include "namp/namp_target.h"
#include "namp/protocol.h"
#include "namp_ps.h"
#include "namp_structs.h"

namespace namp {

// An allocation request to an endpoint whose RELOC is set: NAK_RELOC [w0][new tile][new endpoint]
// (identity: [new id]) with the tag of the request (its slot and member).
void namp_target::nak_reloc(const noc::packet &pkt, const uint32_t *reloc) {
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    ++stats_.namp_nacks_sent;
    ++stats_.namp_msgs_sent[NAMP_MSG_NAK_RELOC];
    std::vector<uint32_t> w = {reloc[NAMP_PS_R_TILE / 4], reloc[NAMP_PS_R_ENDPOINT / 4]};
    if (cfg_.namp.identity) w.push_back(reloc[NAMP_PS_R_ID / 4]);
    out_.send_packet(make_message(geo_, source_tile(pkt, geo_), NAMP_MSG_NAK_RELOC, 0u,
                                  NAMP_MSG_TAG(pkt.payload[0]), w));
}

// RELOC / MIGRATE [w0][handle][new tile][new ep][new rdata][reply tile][reply]. The initiator
// applies it between two of its steps; a tile without PS reports MODE_UNSUPPORTED.
void namp_target::serve_ps_request(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    if (pl.size() < 7) {
        ++stats_.namp_dropped;
        return;
    }
    if (cfg_.namp.ps) return events_.ps_request(pkt);
    ++stats_.namp_ps_refused;
    if (!pl[6] || pl[5] >= geo_.mesh_width * geo_.mesh_height) return;
    sc_core::wait(cycles(cfg_.namp.message_cycles));
    ++stats_.namp_msgs_sent[NAMP_MSG_RELOC_CREDIT];
    out_.send_packet(make_message(geo_, pl[5], NAMP_MSG_RELOC_CREDIT, 0u, NAMP_MSG_TAG(pl[0]),
                                  {pl[6], NAMP_ERR_MODE_UNSUPPORTED, 0u, 0u, 0u, pl[1]}));
}

// RELOC_CREDIT [w0][reply][code][wr_idx][credits][sent][handle]: the reply block's words, then
// its STATE (DONE | code), so that software polling STATE sees the words complete.
void namp_target::serve_reloc_credit(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    const uint32_t reply = pl.size() >= 7 ? pl[1] : 0u;
    if (!reply || (reply & 3) || !geo_.in_sram(reply, NAMP_PS_A_SIZE)) {
        ++stats_.namp_dropped;
        return;
    }
    const uint32_t words[5] = {pl[3], pl[4], pl[5], pl[6], source_tile(pkt, geo_)};
    if (port.write(reply + NAMP_PS_A_WR_IDX, words, sizeof words))
        port.write_word(reply + NAMP_PS_A_STATE, NAMP_PS_DONE | (pl[2] & 0xFFu));
}

}  // namespace namp
