#include "namp/protocol.h"

#include "namp_structs.h"

namespace namp {

namespace {
template <typename Words>
noc::packet build(const na_geometry &geo, unsigned tile, unsigned sub, unsigned flags, unsigned tag,
                  const Words &args) {
    noc::packet p;
    p.header.dst_x = tile % geo.mesh_width;
    p.header.dst_y = tile / geo.mesh_width;
    p.header.type = NAMP_NOC_TYPE;
    p.header.ch = is_response(sub) ? noc::channel::control_response : noc::channel::control_request;
    p.payload.reserve(1 + args.size());
    p.payload.push_back(NAMP_MSG_WORD(sub, flags, tag));
    p.payload.insert(p.payload.end(), args.begin(), args.end());
    return p;
}
}  // namespace

noc::packet make_message(const na_geometry &geo, unsigned tile, unsigned sub, unsigned flags,
                         unsigned tag, std::initializer_list<uint32_t> args) {
    return build(geo, tile, sub, flags, tag, args);
}

noc::packet make_message(const na_geometry &geo, unsigned tile, unsigned sub, unsigned flags,
                         unsigned tag, const std::vector<uint32_t> &args) {
    return build(geo, tile, sub, flags, tag, args);
}

unsigned message_sub(const noc::packet &pkt) {
    if (pkt.payload.empty()) return 0;
    const unsigned sub = NAMP_MSG_SUB(pkt.payload[0]);
    return sub < NAMP_MSG_TYPES ? sub : 0;
}

}  // namespace namp
