// The NAMP initiator (thesis 3.2.5.1, 4.2.3.2, Fig. 4.6): the progress engine of the sending side.
// Its egress FSM serves one slot at a time, chosen by the arbiter among the slots with a step due
// (LRS, QoS or MAP), performs that step (bus accesses through its own master port, protocol
// messages, programming a DMA context) and moves the slot on; its ingress FSM applies allocation
// responses, DMA completions and DMA read errors. Sends to one destination (handle) allocate in
// the order the slots were started, so several transfers per destination may be in flight
// without reordering. docs/namp.md, "Initiator".
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>
#include <systemc>

#include "namp/bus_port.h"
#include "namp/dma_engine.h"
#include "namp/na_config.h"
#include "namp/na_stats.h"
#include "namp/packet_out.h"
#include "namp/service_queue.h"
#include "namp/slot.h"
#include "namp_structs.h"

namespace namp {

class initiator : public sc_core::sc_module, public dma_client {
public:
    bus_port port;  // master interface of the egress and ingress FSMs

    SC_HAS_PROCESS(initiator);
    initiator(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
              std::vector<std::unique_ptr<slot>> &slots, dma_engine &dma, packet_out &out,
              na_stats &stats, sc_core::sc_time clock_period,
              std::function<void(const slot &)> finished);

    uint32_t arbitration = 0;  // NAMP_ARB_*, the NA_NAMP_ARBITRATION register

    // A slot was started (READY) or its FLAGS changed: the egress FSM looks again.
    void kick() { kick_.notify(sc_core::SC_ZERO_TIME); }
    void start(slot &s);
    // Software cleared CCM of a running slot: it finishes after the current transfer; one that
    // holds nothing finishes now.
    void leave_ccm(slot &s);
    // The kernel aborts the slot's transfer (NAMP_SLOT_CTRL_ABORT): ERROR ABORTED at its next
    // safe point (docs/namp.md "SV isolation").
    void abort(slot &s, bool keep = false);
    // NAMP-PS (ps_initiator.cpp): a RELOC or MIGRATE for a local handle, from the target; the
    // egress FSM applies it between two steps (so no set-up reads the handle half changed).
    void ps_request(noc::packet pkt);
    // The target added credits to a local handle: wake the slots waiting for them.
    void credit_update(uint32_t handle);
    // Responses for this initiator (ALLOC_RESP) and completions of its DMA transfers.
    void response(noc::packet pkt);
    void dma_completion(unsigned tag, bool error);
    void dma_read_failed(unsigned tag) override;

private:
    enum class input_kind { response, dma_done, dma_error, dma_read_error };
    struct input {
        input_kind kind;
        unsigned tag = 0;
        std::vector<uint32_t> words;
    };
    using step_fn = void (initiator::*)(slot &);

    void egress_thread();
    void ingress_thread();
    int arbitrate(sc_core::sc_time now) const;
    bool ordered_after(const slot &s) const;  // an older slot to the same handle must go first

    // egress steps, per state
    void step_ready(slot &s);
    void step_retry(slot &s);
    void step_send_wait(slot &s);
    void step_data(slot &s);
    void step_finalize(slot &s);
    void send_request(slot &s);
    void step_abort(slot &s);
    // NAMP-PS (ps_initiator.cpp)
    void step_ps_slot(slot &s);
    void serve_ps(const noc::packet &pkt);
    void apply_nak_reloc(slot &s, const std::vector<uint32_t> &w);
    void dualcast_target(slot &s, uint32_t block, uint32_t n, uint32_t m);
    // NAK_RELOC [w0][tile][endpoint] (identity: [id]) into handle h: one burst (slots and software
    // that read the handle see the old or the new location, never a mix)
    bool write_location(uint32_t h, const std::vector<uint32_t> &w);
    bool handle_in_flight(uint32_t h) const;
    void flush_ps_replies();

    // ingress
    void apply(const input &in);

    // collective communication (cc_initiator.cpp): the descriptor set-up, one member step per
    // egress turn, the member inputs, and the end of a member and of the slot
    void cc_setup(slot &s);
    uint32_t translate_member(const slot &s, uint32_t &handle, bool contribution);
    void step_members(slot &s);
    void cc_apply(slot &s, const input &in);
    void cc_credit_update(uint32_t handle);
    void cc_member_ready(slot &s, unsigned i);
    void cc_member_request(slot &s, unsigned i);
    void cc_member_data(slot &s, unsigned i);
    void cc_member_finalize(slot &s, unsigned i);
    void cc_member_event(slot &s, unsigned i, slot_event e,
                         sc_core::sc_time delay = sc_core::SC_ZERO_TIME);
    void cc_member_fail(slot &s, unsigned i, uint32_t code);
    void cc_member_end(slot &s, unsigned i);
    void cc_reschedule(slot &s);
    void cc_abort(slot &s);

    // bookkeeping
    void complete(slot &s);
    void fail(slot &s, uint32_t code);
    void give_back(slot &s, bool credit, bool element);  // before the state says it holds them
    void send(unsigned tile, unsigned sub, unsigned flags, const slot &s,
              std::initializer_list<uint32_t> args);
    // the words of an ALLOC_REQ, FINAL or CREDIT: base, the identity word (namp.identity), tail,
    // and for a contribution the member key (namp.identity)
    std::vector<uint32_t> words(std::initializer_list<uint32_t> base, uint32_t ident,
                                std::initializer_list<uint32_t> tail = {},
                                const slot_destination *key = nullptr) const;
    void send(unsigned tile, unsigned sub, unsigned flags, const slot &s,
              const std::vector<uint32_t> &args);
    // the first word of a handle's set-up burst: its ID with namp.identity, else its tile
    unsigned handle_first() const { return cfg_.namp.identity ? NAMP_H_ID / 4 : NAMP_H_TILE / 4; }
    sc_core::sc_time backoff(const slot &s) { return backoff_after(s.retries); }
    sc_core::sc_time backoff_after(unsigned retries);
    sc_core::sc_time cycles(uint64_t n) const { return period_ * double(n); }

    const na_config &cfg_;
    const na_geometry &geo_;
    std::vector<std::unique_ptr<slot>> &slots_;
    dma_engine &dma_;
    packet_out &out_;
    na_stats &stats_;
    sc_core::sc_time period_;
    std::function<void(const slot &)> finished_;  // a slot set DONE (interrupt line, OSQM)
    uint64_t serial_ = 0, order_ = 0;
    uint64_t credit_updates_ = 0;      // CREDIT messages applied (lost-wake-up guard)
    uint32_t rng_;                     // back-off jitter (deterministic per tile)
    service_queue<input> in_;          // namp.ingress_cycles each
    std::deque<noc::packet> ps_jobs_;  // RELOC / MIGRATE waiting for the egress FSM
    std::deque<std::pair<uint32_t, noc::packet>> ps_replies_;  // RELOC_CREDITs held back (handle)
    input cur_{input_kind::response, 0, {}};  // the input being applied (a member: see bus_port.h)
    sc_core::sc_event kick_;
};

}  // namespace namp
