// Where the adapter's components hand packets to the NoC: the network adapter implements it,
// counts the packet in its statistics and injects it through the tile's network port.
#pragma once
#include "noc/packet.h"

namespace namp {

class packet_out {
public:
    virtual ~packet_out() = default;
    // SC_THREAD only: returns when the packet's tail is in the router (one packet per channel).
    virtual void send_packet(noc::packet pkt) = 0;
};

}  // namespace namp
