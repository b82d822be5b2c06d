// The baseline network adapter of one tile (thesis 3.2.1-3.2.2, 4.2.1): a TLM target for its
// register window (slave interface) and for the RMA window, a TLM bus master on the tile bus with
// the processors' view of memory (master interface), the tile's network_port on the four NoC
// channels, and the external-interrupt line of one core. docs/network-adapter.md is the manual.
//
// Parts: registers.cpp (status, IRQ controller, NoC buffers, DMA slot registers), rma.cpp (RMA
// initiator), data_request_target.cpp (serves data requests of other tiles without the CPU),
// network_adapter.cpp (NoC sink, sending, IRQ line); child modules: the data engine (dma_engine,
// the one packetizer, for the user DMA slots and the NAMP) and, when enabled, the NAMP
// (namp_unit: slots, initiator, target). Each part that accesses tile memory has its own bus
// master port; bus_ports() lists them for binding to the tile bus.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "namp/bus_port.h"
#include "namp/dma_engine.h"
#include "namp/na_config.h"
#include "namp/na_stats.h"
#include "namp/namp_unit.h"
#include "namp/osqm.h"
#include "namp/vif.h"
#include "namp/noc_buffer.h"
#include "namp/packet_out.h"
#include "namp/service_queue.h"
#include "noc/network_port.h"
#include "trace/tracer.h"

namespace namp {

class network_adapter : public sc_core::sc_module,
                        public noc::packet_sink,
                        public packet_out,
                        public dma_client {
public:
    tlm_utils::simple_target_socket<network_adapter> regs;  // TILE_NA_BASE window (4 MiB)
    tlm_utils::simple_target_socket<network_adapter> rma;   // RMA_BASE window (256 MiB)
    bus_port master;                                        // data-request target's port
    sc_core::sc_vector<sc_core::sc_out<bool>> irq;          // MEIP of each core (geo.cores);
                                                            // NA_IRQ_TARGET picks the driven one

    SC_HAS_PROCESS(network_adapter);
    // tracer: the run's timeline trace (docs/tracing.md), or null
    network_adapter(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                    noc::network_port &port, sc_core::sc_time clock_period,
                    trace::tracer *tracer = nullptr);

    const na_stats &stats() const { return stats_; }
    const na_config &cfg() const { return cfg_; }
    uint32_t irq_pending() const;
    // every bus master port of the adapter, to bind to the tile bus
    std::vector<bus_port *> bus_ports();
    const dma_engine &dma() const { return *dma_; }
    const namp_unit *namp() const { return namp_.get(); }  // null without NAMP
    void set_observer(namp_observer *o) {  // the event log's view of the NAMP (null: none)
        if (namp_) namp_->set_observer(o);
    }
    const vif_unit *vif() const { return vif_.get(); }     // null without NAMP-SV
    const osqm_unit *osqm() const { return osqm_.get(); }  // null without HW-OSQM

    // packet_out: counts the packet, then injects it (SC_THREAD only)
    void send_packet(noc::packet pkt) override;
    // dma_client: a user DMA slot's local read failed
    void dma_read_failed(unsigned tag) override;

    // noc::packet_sink
    bool can_accept(const noc::packet &pkt) override;
    void deliver(noc::packet pkt) override;

private:
    struct dma_slot {
        uint32_t local = 0, remote_tile = 0, remote = 0, size = 0, control = 0, status = 0;
    };
    struct pending_load {
        bool done = false, error = false;
        uint32_t data = 0;
        sc_core::sc_event ev;
    };

    // registers.cpp
    void b_transport_regs(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    unsigned transport_dbg_regs(tlm::tlm_generic_payload &trans);
    bool read_reg(uint32_t offset, uint32_t &value, bool side_effects);
    bool write_reg(uint32_t offset, uint32_t value);
    bool read_status(uint32_t off, uint32_t &v) const;
    bool read_nocbuf(noc_buffer &b, uint32_t off, uint32_t &v, bool side_effects);
    bool write_nocbuf(noc_buffer &b, uint32_t off, uint32_t v);
    bool read_dma(dma_slot &s, uint32_t off, uint32_t &v) const;
    bool write_dma(unsigned index, uint32_t off, uint32_t v);

    // user DMA slots (registers.cpp)
    void dma_start(unsigned index);
    void dma_finish(unsigned index, bool error);

    // rma.cpp
    void b_transport_rma(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void rma_response(const noc::packet &pkt);

    // data_request_target.cpp
    void target_thread();
    void serve(const noc::packet &pkt);
    bool in_local_sram(uint32_t addr, uint32_t len) const;
    bool reduce_into(uint32_t addr, uint32_t optype, const uint32_t *data, uint32_t n);  // NAMP-CC
    bool gather_into(uint32_t addr, uint32_t chunk, uint32_t stride, const uint32_t *data,
                     uint32_t n);

    bool namp_on() const { return namp_ != nullptr; }

    // network_adapter.cpp
    void buffer_sender(unsigned index);
    // SC_THREAD only: waits until the channel is free, then hands the packet to the network at
    // once (callers keep no packet on their stack while they wait).
    void send_data_request(noc::packet &&pkt);
    void wait_request_channel();
    void count_sent(const noc::packet &pkt);
    void update_irq() { irq_update_.notify(sc_core::SC_ZERO_TIME); }
    void drive_irq();
    bool tile_exists(unsigned tile) const { return tile < geo_.mesh_width * geo_.mesh_height; }
    sc_core::sc_time cycles(uint64_t n) const { return period_ * double(n); }

    na_config cfg_;
    na_geometry geo_;
    noc::network_port &port_;
    sc_core::sc_time period_;
    na_stats stats_;

    std::array<noc_buffer, 2> buffers_;
    std::array<bool, 4> refused_{};  // a packet of this channel was refused: call sink_ready later
    std::array<sc_core::sc_event, 2> tx_event_;

    std::vector<dma_slot> slots_;
    std::unique_ptr<dma_engine> dma_;
    std::unique_ptr<namp_unit> namp_;
    std::unique_ptr<vif_unit> vif_;    // NAMP-SV (namp.slots_virt > 0)
    std::unique_ptr<osqm_unit> osqm_;  // HW-OSQM (namp.osqm)

    uint32_t rma_outstanding_ = 0, rma_errors_ = 0;
    uint16_t rma_tag_ = 0;
    // The waiting loads live here, not on the cores' thread stacks, so nothing heap-allocated is
    // left only on a stack when the simulation ends (LeakSanitizer, docs/robustness.md).
    std::map<unsigned, pending_load> loads_;

    // incoming data requests, served one after the other by target_thread
    service_queue<noc::packet> requests_;  // na.packet_cycles each
    noc::packet request_;                  // the one being served
    unsigned request_flits_ = 0, request_capacity_ = 0;
    // per (source tile, slot): an earlier packet of the current DMA transfer failed
    std::map<std::pair<unsigned, unsigned>, bool> dma_remote_error_;
    uint64_t dma_packets_served_ = 0;  // DMA data packets of other tiles (fault injection count)

    uint32_t irq_mask_ = 0;
    unsigned irq_target_ = 0;  // NA_IRQ_TARGET
    sc_core::sc_event irq_update_;
};

}  // namespace namp
