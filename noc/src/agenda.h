// The mesh's private event list: actions at future cycles, executed in (cycle, insertion order).
// Insertion order is the fixed tie-breaker that makes runs bit-for-bit reproducible; nothing here
// depends on host time or on the order SystemC picks among simultaneous processes.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

namespace noc {
struct output_vc_state;
class network_port;

namespace detail {
struct flight;

enum class action : uint8_t {
    request,         // a head asks for the output VC of its next port crossing
    try_cross,       // the owner of an output VC tries to move its head (credits / sink)
    release,         // an output VC becomes free (the owner's tail has left)
    injection_done,  // a packet's tail is in the router: the tile may send the next one
    deliver,         // a packet's tail has reached the sink
};

struct agenda_entry {
    int64_t cycle = 0;
    uint64_t seq = 0;
    action what = action::request;
    flight *packet = nullptr;
    unsigned port = 0;                  // port crossing index, or channel for injection_done
    output_vc_state *vc = nullptr;      // release
    network_port *tile_port = nullptr;  // injection_done
};

class agenda {
public:
    void push(agenda_entry e) {
        e.seq = next_seq_++;
        heap_.push(e);
    }
    bool empty() const { return heap_.empty(); }
    const agenda_entry &top() const { return heap_.top(); }
    void pop() { heap_.pop(); }
    size_t size() const { return heap_.size(); }

private:
    struct later {
        bool operator()(const agenda_entry &a, const agenda_entry &b) const {
            return a.cycle != b.cycle ? a.cycle > b.cycle : a.seq > b.seq;
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
