// One DMA context of the adapter's data engine (thesis Fig. 4.2, "DMA"; docs/network-adapter.md
// "Data engine"): the progress of one transfer from local memory to a remote tile, with a FIFO of
// packets that were read over the bus and wait for injection. The engine's reader fills the FIFO
// while its injector drains it, so bus reads overlap with injection.
#pragma once
#include <cstdint>
#include <deque>

#include <systemc>

#include "noc/packet.h"
#include "trace/tracer.h"

namespace namp {

// A transfer: `size` bytes from local `src` to `dst` in tile `tile`, packets tagged `tag`
// (data_packet.h), `setup_cycles` before the first read.
struct dma_job {
    uint32_t src = 0;
    unsigned tile = 0;
    uint32_t dst = 0;
    uint32_t size = 0;
    unsigned tag = 0;
    unsigned setup_cycles = 0;
    uint32_t reduce = 0;  // NAMP-CC reduction: 1 << 16 | cc::reduce_word(op, type); 0: plain
    // NAMP-CC scatter: the source is `size / chunk` chunks of `chunk` bytes, `stride` bytes apart
    // from src (scatter-gather address generation); chunk 0: contiguous
    uint32_t chunk = 0, stride = 0;
    // NAMP-CC gather: the destination is `size / dst_chunk` chunks `dst_stride` bytes apart from
    // dst; 0: contiguous. Chunks smaller than half a plain packet's payload are packed
    // (dma_ctrl_gather), larger ones go as plain packets per chunk (docs/namp.md, "Gather").
    uint32_t dst_chunk = 0, dst_stride = 0;
};

class dma_context : public sc_core::sc_module {
public:
    // idle: free; reading: bytes left to read (FIFO may hold packets); draining: everything read,
    // packets still in the FIFO.
    enum class state { idle, reading, draining };
    enum class event { start, read_all, drained, abort };
    static state next(state s, event e);  // the transition function; invalid pairs are reported

    dma_context(sc_core::sc_module_name name, unsigned fifo_packets)
        : sc_module(name), depth_(fifo_packets) {}

    state current() const { return state_; }
    const dma_job &job() const { return job_; }
    // a slice per transfer on track `t` of `tr` (docs/tracing.md)
    void attach_trace(trace::tracer &tr, trace::track_id t) {
        tr_ = &tr;
        track_ = t;
    }
    void start(const dma_job &job);

    // reader side
    bool wants_read() const { return state_ == state::reading && fifo_.size() < depth_; }
    bool first_read() const { return read_ == 0; }
    uint32_t read_offset() const { return read_; }
    void push(noc::packet pkt, uint32_t bytes);  // a packet of `bytes` payload bytes was read
    void abort();                                // read error: the rest is not sent

    // injector side
    bool has_packet() const { return !fifo_.empty(); }
    noc::packet pop();

private:
    void transition(event e);

    unsigned depth_;
    state state_ = state::idle;
    dma_job job_;
    uint32_t read_ = 0;
    std::deque<noc::packet> fifo_;
    trace::tracer *tr_ = nullptr;
    trace::track_id track_ = 0;
};

}  // namespace namp
