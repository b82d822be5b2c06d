#include "noc/network_port.h"

#include "wormhole_engine.h"

namespace noc {

network_port::network_port(detail::wormhole_engine &engine, unsigned tile_x, unsigned tile_y)
    : engine_(engine), x_(tile_x), y_(tile_y) {}

bool network_port::try_send(packet pkt) {
    const unsigned ch = index_of(pkt.header.ch);
    if (ch >= channel_count) SC_REPORT_ERROR("noc/port", "try_send: invalid channel");
    if (busy_[ch]) return false;
    engine_.inject(*this, std::move(pkt));  // reports bad destinations and lengths
    busy_[ch] = true;
    ++accepted_[ch];
    return true;
}

void network_port::send(packet pkt) {
    const channel ch = pkt.header.ch;
    const unsigned c = index_of(ch);
    if (c >= channel_count) SC_REPORT_ERROR("noc/port", "send: invalid channel");
    if (busy_[c]) {
        // Park the packet in the port while waiting: a packet left on the caller's thread stack
        // leaks if the simulation ends first (LeakSanitizer, docs/robustness.md).
        const auto mine = parked_.insert(parked_.end(), std::move(pkt));
        while (busy_[c]) sc_core::wait(ready_[c]);
        pkt = std::move(*mine);
        parked_.erase(mine);
    }
    try_send(std::move(pkt));
    const uint64_t mine = accepted_[c];
    while (completed_[c] < mine) sc_core::wait(ready_[c]);
}

void network_port::sink_ready(channel ch) { engine_.sink_ready(*this, ch); }

}  // namespace noc
