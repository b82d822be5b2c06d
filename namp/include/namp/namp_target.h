// The NAMP target (thesis 3.2.5.1, 4.2.3.2): serves the protocol requests other tiles send to this
// tile, without the CPU and without per-transfer state, through its own bus master port. It
// reserves receive-buffer elements with a tagged compare-and-swap on wr_idx (Listing 4.2), commits
// elements on finalization, adds credits to handles; what it did that concerns the local
// initiator (credits) or the OSQM (deliveries) goes out through target_events. docs/namp.md,
// "Target".
#pragma once
#include <cstdint>
#include <deque>
#include <systemc>

#include "namp/bus_port.h"
#include "namp/na_config.h"
#include "namp/na_stats.h"
#include "namp/packet_out.h"
#include "namp/service_queue.h"
#include "noc/packet.h"

namespace namp {

class target_events {
public:
    virtual ~target_events() = default;
    virtual void credit_added(uint32_t handle) = 0;  // CREDIT applied to a local handle
    // a message was completed into endpoint `ep` whose flags word is `ep_flags`
    virtual void message_delivered(uint32_t ep, uint32_t ep_flags) = 0;
    // an allocation was refused "full" (a full receive buffer or a paused endpoint): the sender
    // backs off and asks again (NA_NAMP_REFUSED)
    virtual void allocation_refused() = 0;
    // NAMP-PS: a RELOC or MIGRATE for a local handle (applied by the initiator)
    virtual void ps_request(noc::packet pkt) = 0;
};

class namp_target : public sc_core::sc_module {
public:
    bus_port port;

    SC_HAS_PROCESS(namp_target);
    namp_target(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                packet_out &out, na_stats &stats, target_events &events,
                sc_core::sc_time clock_period);

    void request(noc::packet pkt);  // ALLOC_REQ, CREDIT, FINAL from other tiles

private:
    void thread();
    void serve_alloc(const noc::packet &pkt);
    void serve_credit(const noc::packet &pkt);
    void serve_final(const noc::packet &pkt);
    void commit(uint32_t ep, const uint32_t *e, const uint32_t *d, uint32_t elem, uint32_t size,
                uint32_t flags);
    uint32_t reserve(uint32_t b, const uint32_t *d, uint32_t &elem, uint32_t &data, bool &ack);
    // NAMP-CC reduction (cc_target.cpp): the element combining reduction `id`, and the count of
    // its contributions
    // a contributor's key (namp.identity; absent: every contributor is admitted)
    struct member_key {
        bool present = false;
        uint32_t tile = 0, id = 0;
    };
    member_key key_of(const noc::packet &pkt, unsigned i) const;
    // the member of the endpoint's reduction or gather the key names: its index, -1 not a member,
    // -2 the root names no members (open)
    int member_index(uint32_t cc, const member_key &key, uint32_t limit);
    uint32_t reduce_alloc(uint32_t ep, uint32_t b, const uint32_t *d, uint32_t size, uint32_t id,
                          uint32_t optype, const member_key &key, uint32_t &elem, uint32_t &data,
                          bool &ack);
    void reduce_final(uint32_t ep, const uint32_t *e, uint32_t b, const uint32_t *d, uint32_t k,
                      uint32_t size, bool void_elem);
    // NAMP-CC gather (cc_target.cpp): the element collecting gather `id`, the parts' bit fields
    uint32_t gather_alloc(uint32_t ep, uint32_t b, const uint32_t *d, uint32_t id, uint32_t part,
                          const member_key &key, uint32_t &elem, uint32_t &data, bool &ack);
    void gather_final(uint32_t ep, const uint32_t *e, uint32_t b, const uint32_t *d, uint32_t k,
                      uint32_t part, bool void_elem);
    // reads the endpoint and its receive-buffer descriptor, sets the window (SV guard);
    // NAMP_ERR_NONE, or why it cannot receive
    uint32_t receiving_endpoint(uint32_t ep, uint32_t ident, uint32_t *e, uint32_t *b);
    bool moved_record(uint32_t ep, uint32_t *reloc);
    bool element_in_window(uint32_t b, const uint32_t *d, uint32_t k) const;
    bool in_window(uint64_t addr, uint64_t len) const {
        return addr >= win_lo_ && addr + len <= win_hi_;
    }
    uint32_t window_refused();
    uint32_t enter_counted(uint32_t ep, uint32_t *reloc);
    // enter_counted, receiving_endpoint only
    static constexpr uint32_t paused_code = 0xFF, relocating_code = 0xFE, moved_code = 0xFD;
    // NAMP-PS (ps_target.cpp)
    void nak_reloc(const noc::packet &pkt, const uint32_t *reloc);
    void serve_ps_request(const noc::packet &pkt);
    void serve_reloc_credit(const noc::packet &pkt);
    sc_core::sc_time cycles(uint64_t n) const { return period_ * double(n); }

    const na_config &cfg_;
    const na_geometry &geo_;
    packet_out &out_;
    na_stats &stats_;
    target_events &events_;
    sc_core::sc_time period_;
    service_queue<noc::packet> queue_;  // namp.target_cycles each
    noc::packet cur_;  // the request being served (a member: nothing heap-held on the stack)
    uint64_t win_lo_ = 0, win_hi_ = 0;  // the window of the endpoint being served
};

}  // namespace namp
