// NAMP protocol messages on the NoC (namp_structs.h has the formats): building one, and what a
// received one says. Shared by the initiator and the target.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "namp/na_config.h"
#include "namp_ps.h"
#include "namp_structs.h"
#include "noc/packet.h"

namespace namp {

// A NAMP message to `tile`: header type NAMP_NOC_TYPE, word 0 = NAMP_MSG_WORD(sub, flags, tag),
// then `args`. ALLOC_RESP travels on the control-response channel, the others on control-request.
noc::packet make_message(const na_geometry &geo, unsigned tile, unsigned sub, unsigned flags,
                         unsigned tag, std::initializer_list<uint32_t> args);
// The same with the words in a vector (messages whose length depends on the configuration:
// namp.identity adds the identity word and a contributor's key).
noc::packet make_message(const na_geometry &geo, unsigned tile, unsigned sub, unsigned flags,
                         unsigned tag, const std::vector<uint32_t> &args);

// Responses (to the initiator that sent the request) travel on the control-response channel.
inline bool is_response(unsigned sub) {
    return sub == NAMP_MSG_ALLOC_RESP || sub == NAMP_MSG_CREDIT_NACK || sub == NAMP_MSG_NAK_RELOC;
}

// Sub-type of a received NAMP message (0 if it has no payload), for statistics and dispatch.
unsigned message_sub(const noc::packet &pkt);
// Source tile of a packet.
inline unsigned source_tile(const noc::packet &pkt, const na_geometry &geo) {
    return pkt.header.src_y * geo.mesh_width + pkt.header.src_x;
}

}  // namespace namp
