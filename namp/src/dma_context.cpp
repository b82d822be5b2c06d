// DMA context: the transfer's progress and its packet FIFO.
#include "namp/dma_context.h"

namespace namp {

dma_context::state dma_context::next(state s, event e) {
    switch (e) {
    case event::start:
        if (s == state::idle) return state::reading;
        break;
    case event::read_all:
        if (s == state::reading) return state::draining;
        break;
    case event::drained:
        if (s == state::draining) return state::idle;
        break;
    case event::abort:
        if (s == state::reading) return state::idle;
        break;
    }
    SC_REPORT_ERROR("namp/dma_context", "invalid transition");
    return s;
}

// The transfer's slice: from the start until its last packet left (or a read error).
void dma_context::transition(event e) {
    const state to = next(state_, e);
    if (tr_ && track_) {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        if (state_ == state::idle && to != state::idle)
            tr_->begin(
                track_,
                "tx " + std::to_string(job_.size) + " B -> tile " + std::to_string(job_.tile), now);
        else if (state_ != state::idle && to == state::idle)
            tr_->end(track_, now);
    }
    state_ = to;
}

void dma_context::start(const dma_job &job) {
    job_ = job;
    transition(event::start);
    read_ = 0;
    fifo_.clear();
}

void dma_context::push(noc::packet pkt, uint32_t bytes) {
    fifo_.push_back(std::move(pkt));
    read_ += bytes;
    if (read_ >= job_.size) transition(event::read_all);
}

void dma_context::abort() {
    fifo_.clear();
    transition(event::abort);
}

noc::packet dma_context::pop() {
    noc::packet p = std::move(fifo_.front());
    fifo_.pop_front();
    if (fifo_.empty() && state_ == state::draining) transition(event::drained);
    return p;
}

}  // namespace namp
