#include "namp/noc_buffer.h"

namespace namp {

void noc_buffer::tx_begin(const noc::packet_header &h) {
    building_ = noc::packet{};
    building_.header = h;
    expected_ = h.length - 1;
    if (expected_ == 0) outgoing_ = std::move(building_);
}

bool noc_buffer::tx_add(uint32_t flit) {
    building_.payload.push_back(flit);
    if (--expected_ > 0) return false;
    outgoing_ = std::move(building_);
    return true;
}

noc::packet noc_buffer::tx_take() {
    noc::packet p = std::move(*outgoing_);
    outgoing_.reset();
    return p;
}

bool noc_buffer::rx_reserve(unsigned flits) {
    if (used_ + flits > capacity_) return false;
    used_ += flits;
    return true;
}

void noc_buffer::rx_deliver(noc::packet pkt) {
    rx_packet p;
    p.flits = pkt.to_flits();
    rx_.push_back(std::move(p));
}

unsigned noc_buffer::rx_flits_left() const {
    return rx_.empty() ? 0 : unsigned(rx_.front().flits.size() - rx_.front().next);
}

uint32_t noc_buffer::rx_next() {
    rx_packet &p = rx_.front();
    const uint32_t v = p.flits[p.next++];
    if (p.next == p.flits.size()) {
        rx_release(unsigned(p.flits.size()));
        rx_.pop_front();
    }
    return v;
}

void noc_buffer::rx_discard() {
    if (rx_.empty()) return;
    rx_release(unsigned(rx_.front().flits.size()));
    rx_.pop_front();
}

}  // namespace namp
