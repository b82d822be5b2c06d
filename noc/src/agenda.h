// The mesh's private event list: actions at future cycles. Actions of the same cycle run in the
// model's own tie order (kind, then the resource: tile, port, plane, VC, requesting input), never in
// the order they were scheduled: two tiles that inject in the same cycle, in whichever order SystemC
// runs their processes, get the same outcome. Nothing here depends on host time or on SystemC's
// order among simultaneous processes (docs/noc.md, "Ties").
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

namespace noc {
struct output_vc_state;
class network_port;

namespace detail {
struct flight;

// In the order they run within a cycle: a VC freed in a cycle and the heads that ask for one in
// that cycle are arbitrated together, after all of them (round robin, as a router's allocator).
// A VC frees by time (output_vc_state::free_from), not by an action of its own.
enum class action : uint8_t {
    deliver,         // a packet's tail has reached the sink
    injection_done,  // a packet's tail is in the router: the tile may send the next one
    request,         // a head asks for the output VC of its next port crossing
    try_cross,       // the owner of an output VC tries to move its head (credits / sink)
    arbitrate,       // grant a free output VC to one of the heads waiting for it
};

// Port codes beside the five router output directions (0..4), for the resources that are not a
// router's output VC.
constexpr unsigned injection_port = 5;  // a tile's channel into its router
constexpr unsigned sink_port = 6;       // a tile's sink (deliveries)

// A resource's place in the tie order: tile (y, x), port, plane, VC. Unique per resource.
constexpr uint64_t resource_order(unsigned x, unsigned y, unsigned port, unsigned plane,
                                  unsigned vc) {
    return uint64_t(y) << 32 | uint64_t(x) << 20 | uint64_t(port) << 16 | uint64_t(plane) << 8 |
           uint64_t(vc);
}

// The full tie key of an action on a resource; `sub` orders the requesters of one resource.
constexpr uint64_t tie_key(action what, uint64_t resource, unsigned sub = 0) {
    return uint64_t(what) << 56 | resource << 4 | uint64_t(sub & 0xf);
}

// 32 bytes: the agenda's heap moves entries on every push and pop, and on a large mesh it holds
// thousands of them (docs/noc.md "Host cost"). The action is the key's top byte; the port
// shares a word with the sequence number, below it, so that word orders as the sequence does.
struct agenda_entry {
    int64_t cycle = 0;
    uint64_t key = 0;  // tie order within the cycle (tie_key)
    // seq << 16 | port; seq is the last resort (only identical actions share a key)
    uint64_t order = 0;
    union {                       // what the action works on, by action
        flight *packet;           // request, try_cross, deliver
        output_vc_state *vc;      // arbitrate
        network_port *tile_port;  // injection_done
    };
    agenda_entry() : packet(nullptr) {}
    action what() const { return action(key >> 56); }
    unsigned port() const { return unsigned(order & 0xffff); }  // crossing index, or channel
};
static_assert(sizeof(agenda_entry) == 32);
constexpr unsigned max_agenda_port = 0xffff;

class agenda {
public:
    void push(agenda_entry e) {
        e.order |= next_seq_++ << 16;
        heap_.push(e);
    }
    bool empty() const { return heap_.empty(); }
    const agenda_entry &top() const { return heap_.top(); }
    void pop() { heap_.pop(); }
    size_t size() const { return heap_.size(); }

private:
    struct later {
        bool operator()(const agenda_entry &a, const agenda_entry &b) const {
            if (a.cycle != b.cycle) return a.cycle > b.cycle;
            if (a.key != b.key) return a.key > b.key;
            return a.order > b.order;
        }
    };
    std::priority_queue<agenda_entry, std::vector<agenda_entry>, later> heap_;
    uint64_t next_seq_ = 0;
};

// What the engine needs from its SystemC host: the current cycle and a wake-up at a future cycle.
class timebase {
public:
    virtual ~timebase() = default;
    virtual int64_t current_cycle() const = 0;
    virtual void wake_at(int64_t cycle) = 0;
};

}  // namespace detail
}  // namespace noc
