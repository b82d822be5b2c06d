// The NAMP of one network adapter (thesis Fig. 4.2, 4.6): its slots, the initiator (progress
// engine of the sending side) and the target, beside the baseline adapter parts; it uses the
// adapter's data engine for bulk data. This module decodes the NAMP registers of the slave
// interface (status additions, slot pages), validates slot starts, routes NAMP messages and DMA
// completions, and drives the NAMP interrupt sources. The virtual interfaces (SV) and the OSQM
// attach through vif_attachment and osqm_attachment. docs/namp.md is the manual.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>
#include <systemc>

#include "namp/initiator.h"
#include "namp/namp_target.h"
#include "namp/slot.h"
#include "tiles/module_vector.h"

namespace namp {

// Serves the upper pages of slot n (+0x1000 vif configuration, +0x2000.. virtual interface).
class vif_attachment {
public:
    virtual ~vif_attachment() = default;
    virtual bool vif_read(unsigned slot, uint32_t offset, uint32_t &v) = 0;
    virtual bool vif_write(unsigned slot, uint32_t offset, uint32_t v) = 0;
};

// Told when a transfer completes (initiator side) and a message is delivered (target side).
class osqm_attachment {
public:
    virtual ~osqm_attachment() = default;
    virtual void transfer_finished(const slot &s) = 0;
    virtual void message_delivered(uint32_t ep, uint32_t ep_flags) = 0;
};

class namp_unit : public sc_core::sc_module, public target_events {
public:
    namp_unit(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
              dma_engine &dma, packet_out &out, na_stats &stats, sc_core::sc_time clock_period,
              std::function<void()> irq_changed);

    initiator init;
    namp_target target;

    // slave interface (offsets in the adapter window)
    bool read_reg(uint32_t off, uint32_t &v) const;
    bool write_reg(uint32_t off, uint32_t v);
    uint32_t features() const;
    uint32_t irq_pending() const;  // NA_IRQ_SRC_NAMP_DONE | NA_IRQ_SRC_RX_COUNT

    // from the network: NAMP messages (control channels) and completions of NAMP DMA transfers
    void receive(noc::packet pkt);
    void dma_completion(unsigned tag, bool error) { init.dma_completion(tag, error); }

    const std::vector<std::unique_ptr<slot>> &slots() const { return slots_; }
    void set_observer(namp_observer *o) {  // the event log (null: none)
        obs_ = o;
        for (auto &s : slots_) s->attach_observer(o, geo_.tile_id);
    }
    // one track per slot, "namp slot S" under `process` (category namp)
    void attach_trace(trace::tracer &tr, const std::string &process) {
        for (auto &s : slots_)
            s->attach_trace(
                tr, tr.track(process, "namp slot " + std::to_string(s->index()), trace::namp));
    }
    void attach_vif(vif_attachment *v) { vif_ = v; }
    void attach_osqm(osqm_attachment *o) { osqm_ = o; }

    // target_events
    void credit_added(uint32_t handle) override { init.credit_update(handle); }
    void message_delivered(uint32_t ep, uint32_t ep_flags) override;
    void allocation_refused() override { ++refused_; }
    void ps_request(noc::packet pkt) override { init.ps_request(std::move(pkt)); }

private:
    bool read_slot(uint32_t off, uint32_t &v) const;
    bool write_slot(uint32_t off, uint32_t v);
    void write_flags(slot &s, uint32_t v);
    uint32_t validate(const slot &s) const;
    void slot_finished(const slot &s);  // DONE set (with or without ERROR)

    const na_config &cfg_;
    const na_geometry &geo_;
    namp_observer *obs_ = nullptr;
    na_stats &stats_;
    std::function<void()> irq_changed_;
    tiles::module_vector<slot> slots_;
    uint32_t rx_count_ = 0, refused_ = 0;  // NA_NAMP_RX_COUNT, NA_NAMP_REFUSED
    vif_attachment *vif_ = nullptr;
    osqm_attachment *osqm_ = nullptr;
};

}  // namespace namp
