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

void dma_context::start(const dma_job &job) {
    transition(event::start);
    job_ = job;
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
