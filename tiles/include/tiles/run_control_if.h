// What the simulation-control devices of the tiles report to the platform: core exits, shutdown
// requests and benchmark marks. Implemented by the platform (vp/run_control).
#pragma once
#include <cstdint>

namespace tiles {

class run_control_if {
public:
    virtual ~run_control_if() = default;
    // A core wrote its exit register (it halts after this access).
    virtual void core_exited(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) = 0;
    // A core requested the end of the whole simulation.
    virtual void shutdown(unsigned tile, unsigned core, uint32_t code, uint64_t cycle) = 0;
    // A core stamped a mark (benchmark timestamps).
    virtual void mark(unsigned tile, unsigned core, uint32_t id, uint64_t cycle) = 0;
    // A core hit an unrecoverable condition (e.g. a trap it cannot deliver).
    virtual void core_failed(unsigned tile, unsigned core, const char *reason, uint64_t cycle) = 0;
};

}  // namespace tiles
