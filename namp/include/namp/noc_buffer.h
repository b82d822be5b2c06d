// One NoC buffer of the adapter (thesis 3.2.1, buffer-based adapter): assembles the packet software
// writes flit by flit, and queues the packets received on its channel. Pure bookkeeping: the adapter
// does the sending, the flow control towards the network and the interrupts.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>

#include "noc/packet.h"

namespace namp {

class noc_buffer {
public:
    noc_buffer(noc::channel ch, unsigned rx_capacity_flits)
        : ch_(ch), capacity_(rx_capacity_flits) {}

    noc::channel channel() const { return ch_; }

    // ---- transmit ----
    bool tx_ready() const { return !outgoing_ && expected_ == 0; }
    bool tx_idle() const { return !outgoing_; }
    unsigned tx_expected() const { return expected_; }
    // Starts a packet from its header flit (already checked by the adapter).
    void tx_begin(const noc::packet_header &h);
    // Adds a payload flit; returns true when the packet is complete (then take it with tx_take()).
    bool tx_add(uint32_t flit);
    std::optional<noc::packet> &outgoing() { return outgoing_; }
    noc::packet tx_take();

    // ---- receive ----
    // Reserves space for a packet whose head arrived; false if it does not fit now.
    bool rx_reserve(unsigned flits);
    void rx_deliver(noc::packet pkt);
    bool rx_waiting() const { return !rx_.empty(); }
    unsigned rx_packets() const { return unsigned(rx_.size()); }
    unsigned rx_flits_left() const;  // of the oldest packet
    uint32_t rx_next();              // precondition: rx_waiting()
    void rx_discard();               // drops the rest of the oldest packet
    unsigned rx_used() const { return used_; }
    unsigned rx_capacity() const { return capacity_; }

private:
    void rx_release(unsigned flits) { used_ -= flits; }

    noc::channel ch_;
    // transmit
    noc::packet building_;
    unsigned expected_ = 0;  // payload flits still to be written
    std::optional<noc::packet> outgoing_;
    // receive
    struct rx_packet {
        std::vector<uint32_t> flits;
        unsigned next = 0;
    };
    std::deque<rx_packet> rx_;
    unsigned capacity_, used_ = 0;  // used_ counts reserved and stored flits
};

}  // namespace namp
