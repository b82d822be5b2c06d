// Target side: data-request packets of other tiles (RDMA data, RMA accesses) are served by the
// adapter without the CPU, one after the other, each costing na.packet_cycles plus its bus access.
// Responses go back on the data-response channel.
#include <cstring>

#include "na_registers.h"
#include "namp/cc_reduce.h"
#include "namp/data_packet.h"
#include "namp_cc.h"
#include "namp/network_adapter.h"

namespace namp {

bool network_adapter::in_local_sram(uint32_t addr, uint32_t len) const {
    return geo_.in_sram(addr, len);
}

void network_adapter::target_thread() {
    for (;;) {
        requests_.take(request_);
        serve(request_);
        request_flits_ -= request_.flits();
        request_ = noc::packet{};
        const unsigned c = noc::index_of(noc::channel::data_request);
        if (refused_[c]) {
            refused_[c] = false;
            port_.sink_ready(noc::channel::data_request);
        }
    }
}

void network_adapter::serve(const noc::packet &pkt) {
    const auto &pl = pkt.payload;
    noc::packet reply;
    reply.header.dst_x = pkt.header.src_x;
    reply.header.dst_y = pkt.header.src_y;
    reply.header.ch = noc::channel::data_response;
    const unsigned src = pkt.header.src_y * geo_.mesh_width + pkt.header.src_x;
    switch (pkt.header.type) {
    case pkt_dma_data: {
        if (pl.size() < 2) return;
        const uint32_t addr = pl[0], ctrl = pl[1];
        const unsigned n = dma_ctrl_bytes(ctrl), slot = dma_ctrl_tag(ctrl);
        bool &err = dma_remote_error_[{src, slot}];
        if (dma_ctrl_first(ctrl)) err = false;
        // fault injection (na.fault_dma_every): as if the bus write had failed
        const bool fault =
            cfg_.fault_dma_every && ++dma_packets_served_ % cfg_.fault_dma_every == 0;
        if (fault) ++stats_.dma_faults_injected;
        const bool reduce = ctrl & dma_ctrl_reduce, gather = ctrl & dma_ctrl_gather;
        const size_t first_data = reduce ? 3 : gather ? 4 : 2;
        if (fault || pl.size() < first_data || n > 4 * (pl.size() - first_data) ||
            (!gather && !in_local_sram(addr, n))) {
            err = true;
        } else if (gather) {
            if (!err && !gather_into(addr, pl[2], pl[3], pl.data() + 4, n)) err = true;
        } else if (reduce) {
            if (!err && !reduce_into(addr, pl[2], pl.data() + 3, n)) err = true;
        } else if (!err) {
            std::vector<uint8_t> bytes(4 * (pl.size() - 2));
            std::memcpy(bytes.data(), pl.data() + 2, bytes.size());  // little-endian host
            if (master.write(addr, bytes.data(), n))
                stats_.dma_bytes_written += n;
            else
                err = true;
        }
        if (!dma_ctrl_last(ctrl)) return;
        reply.header.type = pkt_dma_done;
        reply.payload.push_back(resp_ctrl(slot, err));
        dma_remote_error_.erase({src, slot});
        break;
    }
    case pkt_rma_load:
    case pkt_rma_store: {
        if (pl.size() < 2) return;
        const uint32_t addr = pl[0];
        const unsigned size = rma_ctrl_size(pl[1]), tag = rma_ctrl_tag(pl[1]);
        const bool store = pkt.header.type == pkt_rma_store;
        bool ok = (size == 1 || size == 2 || size == 4) && in_local_sram(addr, size) &&
                  (!store || pl.size() >= 3);
        uint32_t data = store ? pl[2] : 0;
        if (ok) ok = store ? master.write(addr, &data, size) : master.read(addr, &data, size);
        ++stats_.rma_served;
        reply.header.type = store ? pkt_rma_store_ack : pkt_rma_load_reply;
        reply.payload.push_back(resp_ctrl(tag, !ok));
        if (!store) reply.payload.push_back(ok ? data : 0);
        break;
    }
    default: return;  // unknown request type: dropped (counted as received only)
    }
    count_sent(reply);
    port_.send(std::move(reply));
}

// NAMP-CC packed gather (docs/namp.md, "Gather"): chunk j of the packet goes to addr + j * stride.
bool network_adapter::gather_into(uint32_t addr, uint32_t chunk, uint32_t stride,
                                  const uint32_t *data, uint32_t n) {
    if (chunk == 0 || n % chunk) return false;
    const uint8_t *src = reinterpret_cast<const uint8_t *>(data);  // little-endian host
    for (uint32_t j = 0; j < n / chunk; ++j) {
        const uint32_t a = addr + j * stride;
        if (!in_local_sram(a, chunk) || !master.write(a, src + j * chunk, chunk)) return false;
    }
    stats_.dma_bytes_written += n;
    return true;
}

// NAMP-CC reduction (docs/namp.md, "Reduction"): read the element's bytes, combine, write back;
// namp.cc_reduce_word_cycles per 32-bit word for the arithmetic besides the bus accesses.
bool network_adapter::reduce_into(uint32_t addr, uint32_t optype, const uint32_t *data,
                                  uint32_t n) {
    const uint32_t op = cc::reduce_op(optype), type = cc::reduce_type(optype);
    if (!cc::reduce_valid(op, type) || n % NAMP_CC_TYPE_BYTES(type)) return false;
    std::vector<uint8_t> cur(n), in(n);
    std::memcpy(in.data(), data, n);  // little-endian host
    if (!master.read(addr, cur.data(), n)) return false;
    sc_core::wait(cycles(uint64_t(cfg_.namp.cc_reduce_word_cycles) * ((n + 3) / 4)));
    cc::reduce_apply(op, type, cur.data(), in.data(), n);
    if (!master.write(addr, cur.data(), n)) return false;
    stats_.dma_bytes_written += n;
    return true;
}

}  // namespace namp
