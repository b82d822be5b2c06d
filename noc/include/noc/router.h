// One mesh router (one per tile). It holds the state the timing model works on: input buffers and
// output virtual channels per port, output links, and per-router counters. It has no SystemC process
// of its own: the mesh's event agenda touches a router only when a packet's head or tail does
// something there, so an idle router costs no host time.
#pragma once
#include <array>
#include <cstdint>
#include <vector>
#include <boost/container/small_vector.hpp>
#include <systemc>

#include "noc/config.h"

namespace noc {

namespace detail {
struct flight;  // a packet inside the network (wormhole_engine.h)
}

// Router ports. y grows southwards: north is y-1.
enum class direction : uint8_t { local = 0, north = 1, east = 2, south = 3, west = 4 };
constexpr unsigned direction_count = 5;
inline unsigned index_of(direction d) { return static_cast<unsigned>(d); }
const char *direction_name(direction d);
direction opposite(direction d);

// A packet whose flits sit (or will sit) in an input buffer, in FIFO order.
struct buffer_resident {
    detail::flight *packet = nullptr;  // valid while tail_out < 0
    unsigned length = 0;               // flits
    unsigned leave_port = 0;           // index of the port crossing that drains it from this buffer
    int64_t tail_out = -1;             // cycle its tail leaves this buffer; -1 while unknown
};

// A head waiting for something: an output VC grant or credits.
struct waiting_head {
    detail::flight *packet = nullptr;
    unsigned port = 0;  // index of the port crossing it wants to make
};

struct input_vc_state {
    // A few packets at most (the buffer holds buffer_depth flits), kept inline: the engine looks
    // at them on every crossing, and on a large mesh a separate block per buffer is a cache miss
    // each time (boost's small_vector: inline up to 4, on the heap beyond).
    boost::container::small_vector<buffer_resident, 4> residents;
    waiting_head credit_waiter;  // at most one: the owner of the upstream output VC
};

struct output_vc_state {
    // Wormhole: held from the head's grant until its tail has left. The first cycle it is free
    // again: held_forever while the tail's time is unknown, then the cycle after it. Freeing by
    // time instead of by an action spares the engine a wake-up where nothing waits for the VC
    // (docs/noc.md "Host cost").
    static constexpr int64_t held_forever = INT64_MAX;
    int64_t free_from = 0;
    bool held(int64_t cycle) const { return cycle < free_from; }
    // The scalars before the waiters' list: a request reads them and the list's head in one
    // cache line (docs/noc.md "Host cost").
    uint64_t order = 0;                                 // place in the tie order (agenda.h)
    unsigned last_granted_input = direction_count - 1;  // round-robin pointer
    bool arbitration_due = false;  // an arbitration is on the agenda (now, or when the VC frees)
    // at most one head per input port (its buffer is a FIFO): inline, as input_vc_state's residents
    boost::container::small_vector<waiting_head, direction_count> waiters;
};

struct link_state {
    int64_t busy_until = 0;  // first cycle with no flit work booked on the link
    uint64_t flits = 0;      // flits carried since the last statistics reset
};

// Everything of one physical network at this router, in one block: [port][vc], the VCs the
// plane has first (a plane has at most channel_count).
struct router_plane {
    std::array<std::array<input_vc_state, channel_count>, direction_count> inputs;
    std::array<std::array<output_vc_state, channel_count>, direction_count> outputs;
    std::array<link_state, direction_count> output_links;  // local = ejection link
    link_state injection_link;                             // tile -> local input
};

class router : public sc_core::sc_module {
public:
    router(sc_core::sc_module_name name, unsigned x, unsigned y, unsigned planes,
           unsigned vcs_per_plane);

    unsigned x() const { return x_; }
    unsigned y() const { return y_; }
    router_plane &plane(unsigned p) { return planes_[p]; }
    const router_plane &plane(unsigned p) const { return planes_[p]; }
    unsigned plane_count() const { return static_cast<unsigned>(planes_.size()); }

    // Counters since the last statistics reset.
    uint64_t flits_forwarded = 0;  // flits sent on any output port, ejection included
    uint64_t packets_forwarded = 0;
    uint64_t blocked_cycles = 0;  // head cycles spent waiting for grant, credits or the sink
    void reset_counters();

private:
    unsigned x_, y_;
    std::vector<router_plane> planes_;
};

}  // namespace noc
