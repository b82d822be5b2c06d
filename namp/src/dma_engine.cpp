// RDMA put initiator: reads the local SRAM as a bus master and packetizes it on the data-request
// channel. Busy slots are served round-robin, one packet per turn, so concurrent transfers share
// the channel fairly. A slot is DONE when the remote adapter's completion arrives.
#include <algorithm>

#include "na_registers.h"
#include "namp/data_packet.h"
#include "namp/network_adapter.h"

namespace namp {

void network_adapter::dma_start(unsigned index) {
    dma_slot &s = slots_[index];
    ++stats_.dma_transfers;
    s.status = DMA_STAT_BUSY;
    const uint64_t local_end = uint64_t(s.local) + s.size;
    const bool local_ok = s.local >= geo_.sram_base && local_end <= uint64_t(geo_.sram_base) + geo_.sram_size;
    // Every tile has the same SRAM: the destination range is checked before anything is sent, so
    // a bad transfer writes nothing. The remote adapter checks every packet again.
    const uint64_t remote_end = uint64_t(s.remote) + s.size;
    const bool remote_ok =
        s.remote >= geo_.sram_base && remote_end <= uint64_t(geo_.sram_base) + geo_.sram_size;
    if (!local_ok || !remote_ok || !tile_exists(s.remote_tile)) {
        dma_finish(index, true);
        return;
    }
    if (s.size == 0) {
        dma_finish(index, false);
        return;
    }
    s.sent = 0;
    s.first = true;
    s.sending = true;
    dma_kick_.notify(sc_core::SC_ZERO_TIME);
}

void network_adapter::dma_finish(unsigned index, bool error) {
    dma_slot &s = slots_[index];
    s.sending = false;
    s.status = (s.status & ~DMA_STAT_BUSY) | (error ? DMA_STAT_ERROR : DMA_STAT_DONE);
    if (error) ++stats_.dma_errors;
    update_irq();
}

void network_adapter::dma_thread() {
    const unsigned max_bytes = (geo_.max_packet_flits - dma_overhead_flits) * 4;
    std::vector<uint8_t> &buf = dma_buf_;
    for (;;) {
        int pick = -1;
        for (unsigned k = 0; k < slots_.size(); ++k) {
            const unsigned i = (dma_rr_ + k) % slots_.size();
            if (slots_[i].sending) {
                pick = int(i);
                break;
            }
        }
        if (pick < 0) {
            sc_core::wait(dma_kick_);
            continue;
        }
        dma_rr_ = (unsigned(pick) + 1) % slots_.size();
        dma_slot &s = slots_[pick];
        if (s.first) sc_core::wait(cycles(cfg_.dma_setup_cycles));
        const uint32_t n = std::min<uint32_t>(max_bytes, s.size - s.sent);
        buf.assign((n + 3) & ~3u, 0);
        if (!bus_access(tlm::TLM_READ_COMMAND, s.local + s.sent, buf.data(), n)) {
            dma_finish(unsigned(pick), true);  // nothing more is sent; the remote state resets
            continue;                          // with the next transfer's first packet
        }
        sc_core::wait(cycles(cfg_.dma_packet_cycles));
        const bool last = s.sent + n == s.size;
        noc::packet &p = dma_packet_;
        p = noc::packet();
        p.header.dst_x = s.remote_tile % geo_.mesh_width;
        p.header.dst_y = s.remote_tile / geo_.mesh_width;
        p.header.type = pkt_dma_data;
        p.payload.push_back(s.remote + s.sent);
        p.payload.push_back(dma_ctrl(n, unsigned(pick), s.first, last));
        for (size_t w = 0; w < buf.size(); w += 4)
            p.payload.push_back(uint32_t(buf[w]) | uint32_t(buf[w + 1]) << 8 |
                                uint32_t(buf[w + 2]) << 16 | uint32_t(buf[w + 3]) << 24);
        s.first = false;
        s.sent += n;
        if (last) s.sending = false;  // BUSY until the completion comes back
        stats_.dma_bytes += n;
        send_data_request(std::move(p));
    }
}

}  // namespace namp
