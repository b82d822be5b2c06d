// The baseline network adapter of one tile (thesis 3.2.1-3.2.2, 4.2.1): a TLM target for its
// register window (slave interface) and for the RMA window, a TLM bus master on the tile bus with
// the processors' view of memory (master interface), the tile's network_port on the four NoC
// channels, and the external-interrupt line of one core. docs/network-adapter.md is the manual.
//
// Parts (one source file each): registers.cpp (status, IRQ controller, NoC buffers, DMA slot
// registers), dma_engine.cpp (RDMA put initiator), rma.cpp (RMA initiator), target.cpp (serves
// data requests of other tiles without the CPU), network_adapter.cpp (NoC sink, sending, IRQ line).
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

#include "namp/na_config.h"
#include "namp/na_stats.h"
#include "namp/noc_buffer.h"
#include "noc/network_port.h"

namespace namp {

class network_adapter : public sc_core::sc_module, public noc::packet_sink {
public:
    tlm_utils::simple_target_socket<network_adapter> regs;     // TILE_NA_BASE window (4 MiB)
    tlm_utils::simple_target_socket<network_adapter> rma;      // RMA_BASE window (256 MiB)
    tlm_utils::simple_initiator_socket<network_adapter> master;  // onto the tile bus
    sc_core::sc_out<bool> irq;                                  // MEIP of core na.irq_core

    SC_HAS_PROCESS(network_adapter);
    network_adapter(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                    noc::network_port &port, sc_core::sc_time clock_period);

    const na_stats &stats() const { return stats_; }
    const na_config &cfg() const { return cfg_; }
    uint32_t irq_pending() const;

    // noc::packet_sink
    bool can_accept(const noc::packet &pkt) override;
    void deliver(noc::packet pkt) override;

private:
    struct dma_slot {
        uint32_t local = 0, remote_tile = 0, remote = 0, size = 0, control = 0, status = 0;
        // transfer in progress
        uint32_t sent = 0;        // bytes packetized so far
        bool sending = false;     // still has packets to send
        bool first = true;
    };
    // NAMP slot (docs/namp.md): registers, the latched transfer and the FSM position.
    struct namp_slot {
        uint32_t flags = 0, p1 = 0, p2 = 0, p3 = 0, priority = 0;  // registers
        unsigned state = 0;      // NAMP_STATE_*
        uint32_t code = 0;       // error code of STATUS
        unsigned retries = 0;
        bool armed = false;      // the egress FSM has a step to do for this slot
        sc_core::sc_time not_before;  // earliest time of that step (retry timer, CCM poll)
        bool leave_ccm = false;  // software cleared CCM: finish after the current transfer
        // latched transfer
        uint32_t tile = 0, ep = 0, size = 0, src = 0, elem = 0, rdata = 0;
        uint32_t sent = 0;       // data-phase bytes packetized so far
        bool have_credit = false, have_elem = false;
        bool direct = false;     // channel fast path: element `elem` taken from the handle's wr_idx
        uint32_t elem_size_addr = 0, elem_idx = 0;  // element taken from the local send buffer
        uint64_t served = 0;     // serial number of the last egress step (LRS)
        sc_core::sc_time since;  // entry time of the current state (statistics)
    };
    using namp_step = void (network_adapter::*)(unsigned);

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

    // dma_engine.cpp
    void dma_thread();
    void dma_start(unsigned index);
    void dma_finish(unsigned index, bool error);

    // rma.cpp
    void b_transport_rma(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void rma_response(const noc::packet &pkt);

    // target.cpp
    void target_thread();
    void serve(const noc::packet &pkt);
    bool in_local_sram(uint32_t addr, uint32_t len) const;

    // namp_engine.cpp (progress engine) and namp_target.cpp (stateless target)
    bool namp_on() const { return cfg_.namp.enabled; }
    uint32_t namp_features() const;
    bool read_namp_slot(uint32_t off, uint32_t &v) const;
    bool write_namp_slot(uint32_t off, uint32_t v);
    void namp_write_flags(unsigned i, uint32_t v);
    uint32_t namp_validate(const namp_slot &s) const;
    uint32_t namp_status(const namp_slot &s) const;
    void namp_set_state(unsigned i, unsigned state);
    void namp_fail(unsigned i, uint32_t code);
    void namp_complete(unsigned i);
    void namp_egress_thread();
    int namp_arbitrate() const;
    void namp_step_setup(unsigned i);
    void namp_step_data(unsigned i);
    void namp_step_finalize(unsigned i);
    void namp_ingress_thread();
    void namp_target_thread();
    void namp_receive(noc::packet pkt);
    void namp_send(unsigned tile, unsigned type, std::vector<uint32_t> payload);
    bool namp_atomic(uint32_t addr, bool cas, uint32_t operand, uint32_t compare, uint32_t &old,
                     bool &success);
    bool read_words(uint32_t addr, uint32_t *w, unsigned n);
    bool write_word(uint32_t addr, uint32_t v);
    void namp_serve_alloc(const noc::packet &pkt);
    void namp_serve_credit(const noc::packet &pkt);
    void namp_serve_final(const noc::packet &pkt);
    void namp_release(unsigned i);
    void namp_kick() { namp_kick_.notify(sc_core::SC_ZERO_TIME); }

    // network_adapter.cpp
    void buffer_sender(unsigned index);
    // SC_THREAD only: waits until the channel is free, then hands the packet to the network at
    // once (callers keep no packet on their stack while they wait).
    void send_data_request(noc::packet &&pkt);
    void wait_request_channel();
    void count_sent(const noc::packet &pkt);
    bool bus_access(tlm::tlm_command cmd, uint32_t addr, uint8_t *data, uint32_t len);  // waits
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
    unsigned dma_rr_ = 0;
    std::vector<uint8_t> dma_buf_;  // the DMA thread's packet data (members: see loads_)
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> bus_payloads_;  // of bus_access
    std::vector<tlm::tlm_generic_payload *> bus_free_;
    noc::packet dma_packet_;
    sc_core::sc_event dma_kick_;

    uint32_t rma_outstanding_ = 0, rma_errors_ = 0;
    uint16_t rma_tag_ = 0;
    // The waiting loads live here, not on the cores' thread stacks, so nothing heap-allocated is
    // left only on a stack when the simulation ends (LeakSanitizer, docs/robustness.md).
    std::map<unsigned, pending_load> loads_;

    // incoming data requests, served one after the other by target_thread
    std::deque<noc::packet> requests_;
    unsigned request_flits_ = 0, request_capacity_ = 0;
    sc_core::sc_event request_event_;
    // per (source tile, slot): an earlier packet of the current DMA transfer failed
    std::map<std::pair<unsigned, unsigned>, bool> dma_remote_error_;

    // NAMP
    std::vector<namp_slot> nslots_;
    uint32_t namp_arbitration_ = 0, rx_count_ = 0;
    uint64_t namp_serial_ = 0;
    uint64_t namp_credit_updates_ = 0;  // CREDIT messages applied (lost-wakeup guard)
    sc_core::sc_event namp_kick_, namp_in_event_, namp_req_event_;
    std::deque<noc::packet> namp_in_;   // responses and internal DMA completions (ingress FSM)
    std::deque<noc::packet> namp_req_;  // requests for the target FSM

    uint32_t irq_mask_ = 0;
    sc_core::sc_event irq_update_;
};

}  // namespace namp
