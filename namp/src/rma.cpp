// RMA initiator: a load or store in the RMA window becomes one data-request packet to the tile
// addressed by bits [27:20]. Stores are posted, loads block the issuing core until the reply.
#include <cstring>

#include "na_registers.h"
#include "namp/data_packet.h"
#include "namp/network_adapter.h"
#include "tiles/initiator_id.h"

namespace namp {

void network_adapter::b_transport_rma(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    tiles::sync_to_initiator(trans, delay);
    const uint32_t off = uint32_t(trans.get_address());  // relative to RMA_BASE
    const unsigned len = trans.get_data_length();
    const unsigned tile = off >> RMA_TILE_SHIFT;
    const uint32_t sram_off = off & ((1u << RMA_TILE_SHIFT) - 1);
    const bool shape_ok = (len == 1 || len == 2 || len == 4) && (sram_off % len) == 0 &&
                          !trans.get_byte_enable_ptr() && trans.get_streaming_width() >= len;
    if (!shape_ok || !tile_exists(tile) || !(trans.is_read() || trans.is_write())) {
        ++stats_.bus_errors;
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    sc_core::wait(cycles(cfg_.rma_issue_cycles));
    wait_request_channel();  // before the packet exists: no wait from here to the send
    const unsigned tag = ++rma_tag_;
    noc::packet p;
    p.header.dst_x = tile % geo_.mesh_width;
    p.header.dst_y = tile / geo_.mesh_width;
    p.payload.push_back(geo_.sram_base + sram_off);
    p.payload.push_back(rma_ctrl(len, tag));
    if (trans.is_write()) {
        uint32_t data = 0;
        std::memcpy(&data, trans.get_data_ptr(), len);
        p.header.type = pkt_rma_store;
        p.payload.push_back(data);
        ++stats_.rma_stores;
        ++rma_outstanding_;
        send_data_request(std::move(p));  // posted: the core goes on once the network took it
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    p.header.type = pkt_rma_load;
    ++stats_.rma_loads;
    pending_load &load = loads_[tag];
    send_data_request(std::move(p));
    while (!load.done) sc_core::wait(load.ev);
    const bool error = load.error;
    const uint32_t data = load.data;
    loads_.erase(tag);
    if (error) {
        ++stats_.bus_errors;
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    std::memcpy(trans.get_data_ptr(), &data, len);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Called for data-response packets that are not DMA completions.
void network_adapter::rma_response(const noc::packet &pkt) {
    if (pkt.payload.empty()) return;
    const unsigned tag = resp_ctrl_tag(pkt.payload[0]);
    const bool error = resp_ctrl_error(pkt.payload[0]);
    if (pkt.header.type == pkt_rma_load_reply) {
        auto it = loads_.find(tag);
        if (it == loads_.end()) return;
        it->second.error = error || pkt.payload.size() < 2;
        if (pkt.payload.size() >= 2) it->second.data = pkt.payload[1];
        it->second.done = true;
        it->second.ev.notify(sc_core::SC_ZERO_TIME);
    } else if (pkt.header.type == pkt_rma_store_ack) {
        if (rma_outstanding_) --rma_outstanding_;
        if (error) {
            ++rma_errors_;
            ++stats_.rma_errors;
            update_irq();
        }
    }
}

}  // namespace namp
