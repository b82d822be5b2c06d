// Construction, the NoC sink (flow control of the four channels), sending, bus-master accesses and
// the interrupt line.
#include "namp/network_adapter.h"

#include "na_registers.h"
#include "namp/data_packet.h"
#include "namp_structs.h"

namespace namp {

using noc::channel;

network_adapter::network_adapter(sc_core::sc_module_name name, const na_config &cfg,
                                 const na_geometry &geo, noc::network_port &port,
                                 sc_core::sc_time clock_period)
    : sc_module(name), regs("regs"), rma("rma"), master("master"), irq("irq"), cfg_(cfg), geo_(geo),
      port_(port), period_(clock_period),
      buffers_{noc_buffer(channel::control_request, cfg.rx_buffer_flits),
               noc_buffer(channel::control_response, cfg.rx_buffer_flits)},
      slots_(cfg.dma_slots), nslots_(cfg.namp.enabled ? cfg.namp.slots : 0) {
    if (cfg.namp.enabled && (cfg.namp.slots < 1 || cfg.namp.slots > NA_NAMP_MAX_SLOTS))
        SC_REPORT_ERROR(this->name(), "namp.slots must be 1..128");
    if (cfg.namp.arbitration > NAMP_ARB_MAP)
        SC_REPORT_ERROR(this->name(), "namp.arbitration must be lrs, qos or map");
    namp_arbitration_ = cfg.namp.arbitration;
    stats_.namp_slots.resize(nslots_.size());
    if (cfg.dma_slots < 1 || cfg.dma_slots > NA_DMA_MAX_SLOTS)
        SC_REPORT_ERROR(this->name(), "na.dma_slots must be 1..128");
    if (geo.max_packet_flits < 4)
        SC_REPORT_ERROR(this->name(), "the adapter needs NoC packets of at least 4 flits");
    if (cfg.rx_buffer_flits < geo.max_packet_flits)
        SC_REPORT_ERROR(this->name(), "na.rx_buffer_flits must hold the longest packet");
    request_capacity_ = cfg.target_queue_flits ? cfg.target_queue_flits : 2 * geo.max_packet_flits;
    if (request_capacity_ < geo.max_packet_flits) request_capacity_ = geo.max_packet_flits;

    regs.register_b_transport(this, &network_adapter::b_transport_regs);
    regs.register_transport_dbg(this, &network_adapter::transport_dbg_regs);
    rma.register_b_transport(this, &network_adapter::b_transport_rma);
    port_.bind_sink(*this);

    SC_THREAD(dma_thread);
    SC_THREAD(target_thread);
    if (cfg.namp.enabled) {
        SC_THREAD(namp_egress_thread);
        SC_THREAD(namp_ingress_thread);
        SC_THREAD(namp_target_thread);
    }
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
        if (namp_on() && pkt.header.type >= NAMP_MSG_FIRST) break;
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
        if (namp_on() && pkt.header.type >= NAMP_MSG_FIRST) {
            namp_receive(std::move(pkt));
            break;
        }
        buffers_[c].rx_deliver(std::move(pkt));
        update_irq();
        break;
    case channel::data_request:
        requests_.push_back(std::move(pkt));
        request_event_.notify(sc_core::SC_ZERO_TIME);
        break;
    case channel::data_response:
        if (pkt.header.type == pkt_dma_done && !pkt.payload.empty()) {
            const unsigned slot = resp_ctrl_tag(pkt.payload[0]);
            if (slot >= 128 && namp_on()) {  // internal DMA context of a NAMP slot
                namp_receive(std::move(pkt));
                break;
            }
            if (slot < slots_.size() && (slots_[slot].status & DMA_STAT_BUSY))
                dma_finish(slot, resp_ctrl_error(pkt.payload[0]));
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
    count_sent(pkt);
    port_.send(std::move(pkt));
}

// The master interface: one burst on the tile bus, the SRAM adds its latency, each further 32-bit
// word na.bus_word_cycles. Waits for the access time. Returns false on a bus error.
bool network_adapter::bus_access(tlm::tlm_command cmd, uint32_t addr, uint8_t *data, uint32_t len) {
    // Several threads access the bus at once and each may wait inside: one payload per access in
    // flight, owned by the adapter (a payload's extension array on a thread stack would leak).
    if (bus_free_.empty()) {
        bus_payloads_.push_back(std::make_unique<tlm::tlm_generic_payload>());
        bus_free_.push_back(bus_payloads_.back().get());
    }
    tlm::tlm_generic_payload &t = *bus_free_.back();
    bus_free_.pop_back();
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    master->b_transport(t, delay);
    const uint32_t words = (len + 3) / 4;
    if (words > 1) delay += cycles(uint64_t(words - 1) * cfg_.bus_word_cycles);
    sc_core::wait(delay);
    const bool ok = t.is_response_ok();
    bus_free_.push_back(&t);
    return ok;
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
    for (const namp_slot &s : nslots_)
        if ((s.flags & NAMP_FLAG_IEN) && (s.flags & NAMP_FLAG_DONE)) p |= NA_IRQ_SRC_NAMP_DONE;
    if (rx_count_) p |= NA_IRQ_SRC_RX_COUNT;
    return p;
}

// The only writer of the line (cores and NoC callbacks only notify irq_update_).
void network_adapter::drive_irq() { irq.write((irq_pending() & irq_mask_) != 0); }

}  // namespace namp
