// Construction, the NoC sink (flow control of the four channels), sending, bus-master accesses and
// the interrupt line.
#include "namp/network_adapter.h"

#include "na_registers.h"
#include "namp/data_packet.h"
#include "namp_structs.h"

namespace namp {

using noc::channel;

namespace {
constexpr unsigned namp_min_packet_flits = 5;  // header + FINAL's four words
}

network_adapter::network_adapter(sc_core::sc_module_name name, const na_config &cfg,
                                 const na_geometry &geo, noc::network_port &port,
                                 sc_core::sc_time clock_period, trace::tracer *tracer)
    : sc_module(name),
      regs("regs"),
      rma("rma"),
      master("master"),
      irq("irq", geo.cores ? geo.cores : 1),
      cfg_(cfg),
      geo_(geo),
      port_(port),
      period_(clock_period),
      buffers_{noc_buffer(channel::control_request, cfg.rx_buffer_flits),
               noc_buffer(channel::control_response, cfg.rx_buffer_flits)},
      slots_(cfg.dma_slots),
      requests_(cycles(cfg.packet_cycles)) {
    if (cfg.dma_slots < 1 || cfg.dma_slots > NA_DMA_MAX_SLOTS)
        SC_REPORT_ERROR(this->name(), "na.dma_slots must be 1..128");
    if (geo.max_packet_flits < 4)
        SC_REPORT_ERROR(this->name(), "the adapter needs NoC packets of at least 4 flits");
    if (cfg.namp.enabled && geo.max_packet_flits < namp_min_packet_flits)
        SC_REPORT_ERROR(this->name(), "the NAMP needs NoC packets of at least 5 flits (FINAL)");
    if (cfg.rx_buffer_flits < geo.max_packet_flits)
        SC_REPORT_ERROR(this->name(), "na.rx_buffer_flits must hold the longest packet");
    request_capacity_ = cfg.target_queue_flits ? cfg.target_queue_flits : 2 * geo.max_packet_flits;
    if (request_capacity_ < geo.max_packet_flits) request_capacity_ = geo.max_packet_flits;

    regs.register_b_transport(this, &network_adapter::b_transport_regs);
    regs.register_transport_dbg(this, &network_adapter::transport_dbg_regs);
    rma.register_b_transport(this, &network_adapter::b_transport_rma);
    port_.bind_sink(*this);

    dma_ = std::make_unique<dma_engine>("dma", cfg_, geo_, *this, stats_, clock_period);
    if (cfg.namp.enabled)
        namp_ = std::make_unique<namp_unit>("namp", cfg_, geo_, *dma_, *this, stats_, clock_period,
                                            [this] { update_irq(); });
    if (namp_ && cfg.namp.slots_virt) {
        vif_ = std::make_unique<vif_unit>("vif", cfg_, geo_, *namp_, clock_period);
        namp_->attach_vif(vif_.get());
    }
    if (namp_ && cfg.namp.osqm) {
        osqm_ = std::make_unique<osqm_unit>("osqm", cfg_, cfg.namp.slots, clock_period,
                                            [this] { update_irq(); });
        namp_->attach_osqm(osqm_.get());
    }
    if (tracer) {
        const std::string process = "tile " + std::to_string(geo.tile_id);
        dma_->attach_trace(*tracer, process);
        if (namp_) namp_->attach_trace(*tracer, process);
    }
    irq_target_ = cfg.irq_core < irq.size() ? cfg.irq_core : 0u;
    SC_THREAD(target_thread);
    SC_METHOD(drive_irq);
    sensitive << irq_update_;
    for (unsigned i = 0; i < buffers_.size(); ++i) {
        sc_core::sc_spawn_options opts;
        sc_core::sc_spawn([this, i] { buffer_sender(i); },
                          sc_core::sc_gen_unique_name("buffer_sender"), &opts);
    }
}

// ---- NoC sink: decides per channel whether a packet fits ----

bool network_adapter::can_accept(const noc::packet &pkt) {
    const unsigned c = noc::index_of(pkt.header.ch);
    bool ok = true;
    switch (pkt.header.ch) {
    case channel::control_request:
    case channel::control_response:
        // NAMP protocol messages are always consumed by the NAMP FSMs.
        if (namp_on() && pkt.header.type == NAMP_NOC_TYPE) break;
        ok = buffers_[c].rx_reserve(pkt.flits());
        break;
    case channel::data_request:
        ok = request_flits_ + pkt.flits() <= request_capacity_;
        if (ok) request_flits_ += pkt.flits();
        break;
    case channel::data_response:
        ok = true;  // responses are always consumed (message-dependent deadlock freedom)
        break;
    }
    if (!ok) {
        refused_[c] = true;
        ++stats_.rx_refusals;
    }
    return ok;
}

void network_adapter::deliver(noc::packet pkt) {
    const unsigned c = noc::index_of(pkt.header.ch);
    ++stats_.packets_received[c];
    stats_.flits_received[c] += pkt.flits();
    switch (pkt.header.ch) {
    case channel::control_request:
    case channel::control_response:
        if (namp_on() && pkt.header.type == NAMP_NOC_TYPE) {
            namp_->receive(std::move(pkt));
            break;
        }
        buffers_[c].rx_deliver(std::move(pkt));
        update_irq();
        break;
    case channel::data_request: requests_.push(std::move(pkt)); break;
    case channel::data_response:
        if (pkt.header.type == pkt_dma_done && !pkt.payload.empty()) {
            const unsigned tag = resp_ctrl_tag(pkt.payload[0]);
            if (tag & dma_tag_namp) {  // a NAMP transfer
                if (namp_on())
                    namp_->dma_completion(tag & ~dma_tag_namp, resp_ctrl_error(pkt.payload[0]));
                break;
            }
            if (tag < slots_.size() && (slots_[tag].status & DMA_STAT_BUSY))
                dma_finish(tag, resp_ctrl_error(pkt.payload[0]));
        } else {
            rma_response(pkt);
        }
        break;
    }
}

// ---- sending ----

void network_adapter::count_sent(const noc::packet &pkt) {
    const unsigned c = noc::index_of(pkt.header.ch);
    ++stats_.packets_sent[c];
    stats_.flits_sent[c] += pkt.flits();
}

// One thread per NoC buffer: hands a complete packet to the port; the buffer is not ready for the
// next packet until the port has taken this one.
void network_adapter::buffer_sender(unsigned index) {
    noc_buffer &b = buffers_[index];
    for (;;) {
        while (!b.outgoing()) sc_core::wait(tx_event_[index]);
        // Wait for the channel before copying: port_.send then injects the copy at once, so no
        // packet is left on this thread's stack while it waits.
        const noc::channel ch = b.outgoing()->header.ch;
        while (!port_.can_send(ch)) sc_core::wait(port_.send_ready_event(ch));
        count_sent(*b.outgoing());
        port_.send(*b.outgoing());
        b.outgoing().reset();
    }
}

// Used by the DMA thread and by cores in RMA accesses; the port serializes them (one packet per
// channel at a time, waiters retry when it frees).
void network_adapter::wait_request_channel() {
    while (!port_.can_send(channel::data_request))
        sc_core::wait(port_.send_ready_event(channel::data_request));
}

void network_adapter::send_data_request(noc::packet &&pkt) {
    pkt.header.ch = channel::data_request;
    wait_request_channel();
    send_packet(std::move(pkt));
}

void network_adapter::send_packet(noc::packet pkt) {
    count_sent(pkt);
    port_.send(std::move(pkt));
}

std::vector<bus_port *> network_adapter::bus_ports() {
    std::vector<bus_port *> m = {&master, &dma_->port};
    if (namp_) {
        m.push_back(&namp_->init.port);
        m.push_back(&namp_->target.port);
    }
    if (vif_) m.push_back(&vif_->port);
    if (osqm_) m.push_back(&osqm_->port);
    return m;
}

// ---- interrupt line ----

uint32_t network_adapter::irq_pending() const {
    uint32_t p = 0;
    if (buffers_[0].rx_waiting()) p |= NA_IRQ_SRC_RX0;
    if (buffers_[1].rx_waiting()) p |= NA_IRQ_SRC_RX1;
    for (const dma_slot &s : slots_)
        if ((s.control & DMA_CTRL_IEN) && (s.status & (DMA_STAT_DONE | DMA_STAT_ERROR)))
            p |= NA_IRQ_SRC_DMA;
    if (rma_errors_) p |= NA_IRQ_SRC_RMA_ERROR;
    if (namp_) p |= namp_->irq_pending();
    if (osqm_) p |= osqm_->irq_pending();
    return p;
}

// The only writer of the line (cores and NoC callbacks only notify irq_update_).
void network_adapter::drive_irq() {
    const bool up = (irq_pending() & irq_mask_) != 0;
    for (unsigned c = 0; c < irq.size(); ++c) irq[c].write(up && c == irq_target_);
}

}  // namespace namp
