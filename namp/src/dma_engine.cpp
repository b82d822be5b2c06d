// Data engine: transfer queue, contexts, reader and injector threads.
#include "namp/dma_engine.h"

#include <algorithm>

#include "namp/data_packet.h"

namespace namp {

dma_engine::dma_engine(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
                       packet_out &out, na_stats &stats, sc_core::sc_time clock_period)
    : sc_module(name),
      port("port"),
      cfg_(cfg),
      geo_(geo),
      out_(out),
      stats_(stats),
      period_(clock_period) {
    if (cfg.dma_contexts < 1 || cfg.dma_contexts > 64)
        SC_REPORT_ERROR(this->name(), "na.dma_contexts must be 1..64");
    if (cfg.dma_fifo_packets < 1 || cfg.dma_fifo_packets > 16)
        SC_REPORT_ERROR(this->name(), "na.dma_fifo_packets must be 1..16");
    for (unsigned i = 0; i < cfg.dma_contexts; ++i)
        ctx_.push_back({std::make_unique<dma_context>(sc_core::sc_gen_unique_name("context"),
                                                      cfg.dma_fifo_packets),
                        nullptr});
    SC_THREAD(reader_thread);
    SC_THREAD(injector_thread);
}

// The contexts in reverse order of creation, as tiles/module_vector.h says why.
dma_engine::~dma_engine() {
    while (!ctx_.empty()) ctx_.pop_back();
}

void dma_engine::attach_trace(trace::tracer &tr, const std::string &process) {
    for (unsigned i = 0; i < ctx_.size(); ++i)
        ctx_[i].ctx->attach_trace(tr,
                                  tr.track(process, "dma ctx " + std::to_string(i), trace::dma));
}

unsigned dma_engine::busy() const {
    return unsigned(std::count_if(ctx_.begin(), ctx_.end(), [](const entry &e) {
        return e.ctx->current() != dma_context::state::idle;
    }));
}

void dma_engine::submit(const dma_job &job, dma_client &client) {
    if (job.size == 0) SC_REPORT_ERROR(name(), "empty DMA transfer");
    queue_.emplace_back(job, &client);
    assign();
}

void dma_engine::assign() {
    for (entry &e : ctx_) {
        if (queue_.empty()) break;
        if (e.ctx->current() != dma_context::state::idle) continue;
        e.ctx->start(queue_.front().first);
        e.client = queue_.front().second;
        queue_.pop_front();
        ++stats_.dma_contexts_started;
        read_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

// Round-robin from rr: the first context for which ready() holds; rr moves past it. -1: none.
template <class Ready>
int dma_engine::next_context(unsigned &rr, Ready ready) const {
    for (unsigned k = 0; k < ctx_.size(); ++k) {
        const unsigned i = (rr + k) % ctx_.size();
        if (ready(*ctx_[i].ctx)) {
            rr = (i + 1) % ctx_.size();
            return int(i);
        }
    }
    return -1;
}

void dma_engine::reader_thread() {
    const uint32_t max_bytes = (geo_.max_packet_flits - dma_overhead_flits) * 4;
    for (;;) {
        port.wait_turn();  // transfers submitted in this instant are seen
        const int pick =
            next_context(read_rr_, [](const dma_context &c) { return c.wants_read(); });
        if (pick < 0) {
            sc_core::wait(read_event_);
            continue;
        }
        dma_context &c = *ctx_[pick].ctx;
        const dma_job &j = c.job();
        if (c.first_read() && j.setup_cycles) sc_core::wait(period_ * double(j.setup_cycles));
        const uint32_t off = c.read_offset();
        // a reduction packet carries its op/type word before the data; a gather packet holds
        // whole chunks (packed) or stays inside one chunk (plain)
        uint32_t n = std::min(max_bytes - (j.reduce ? 4u : 0u), j.size - off);
        const bool packed = j.dst_chunk && gather_packed(j.dst_chunk);
        uint32_t dst = j.dst + off;
        if (j.dst_chunk) {
            const uint32_t k = off / j.dst_chunk, in = off % j.dst_chunk;
            dst = j.dst + k * j.dst_stride + in;
            if (packed)
                n = std::min(gather_chunks(j.dst_chunk) * j.dst_chunk, j.size - off);
            else
                n = std::min(n, j.dst_chunk - in);
        }
        buf_.assign((n + 3) & ~3u, 0);
        sc_core::sc_time owed = sc_core::SC_ZERO_TIME;  // a contiguous read's latency
        const bool one_read = !j.chunk;
        if (!read_source(j, off, n, owed)) {
            if (one_read) sc_core::wait(owed);
            const unsigned tag = j.tag;
            dma_client *client = ctx_[pick].client;
            c.abort();
            ++stats_.dma_read_errors;
            client->dma_read_failed(tag);
            assign();
            continue;
        }
        const sc_core::sc_time header = period_ * double(cfg_.dma_packet_cycles);
        sc_core::wait(owed + header);  // the read, then building the header
        if (one_read && header == sc_core::SC_ZERO_TIME)
            sc_core::wait(sc_core::SC_ZERO_TIME);  // the delta the second wait took
        noc::packet p;
        p.header.dst_x = j.tile % geo_.mesh_width;
        p.header.dst_y = j.tile / geo_.mesh_width;
        p.header.type = pkt_dma_data;
        p.header.ch = noc::channel::data_request;
        p.payload.reserve(2 + buf_.size() / 4);
        p.payload.push_back(dst);
        p.payload.push_back(dma_ctrl(n, j.tag, off == 0, off + n == j.size) |
                            (j.reduce ? dma_ctrl_reduce : 0u) | (packed ? dma_ctrl_gather : 0u));
        if (j.reduce) p.payload.push_back(j.reduce & 0xFFFFu);
        if (packed) {
            p.payload.push_back(j.dst_chunk);
            p.payload.push_back(j.dst_stride);
        }
        for (size_t w = 0; w < buf_.size(); w += 4)
            p.payload.push_back(uint32_t(buf_[w]) | uint32_t(buf_[w + 1]) << 8 |
                                uint32_t(buf_[w + 2]) << 16 | uint32_t(buf_[w + 3]) << 24);
        if (j.tag < dma_tag_namp) stats_.dma_bytes += n;
        stats_.dma_payload_bytes += n;
        c.push(std::move(p), n);
        inject_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

// Gather packing (thesis 3.3.3.1, Fig. 3.29): chunks smaller than half a plain packet's payload
// go packed, as many whole chunks as fit after the larger header; at least two must fit.
uint32_t dma_engine::gather_chunks(uint32_t chunk) const {
    return (geo_.max_packet_flits - dma_gather_overhead_flits) * 4 / chunk;
}
bool dma_engine::gather_packed(uint32_t chunk) const {
    const uint32_t plain = (geo_.max_packet_flits - dma_overhead_flits) * 4;
    return cfg_.namp.cc_gather_packing && 2 * chunk < plain && gather_chunks(chunk) >= 2;
}

// The bytes [off, off + n) of a transfer's stream: one bus read for a contiguous source; for a
// scatter source one read per chunk piece (address generation: chunk k at src + k * stride).
bool dma_engine::read_source(const dma_job &j, uint32_t off, uint32_t n, sc_core::sc_time &owed) {
    if (!j.chunk) return port.read(j.src + off, buf_.data(), n, owed);
    for (uint32_t done = 0; done < n;) {
        const uint32_t pos = off + done, k = pos / j.chunk, in = pos % j.chunk;
        const uint32_t len = std::min(j.chunk - in, n - done);
        if (!port.read(j.src + k * j.stride + in, buf_.data() + done, len)) return false;
        done += len;
    }
    return true;
}

void dma_engine::injector_thread() {
    for (;;) {
        port.wait_turn();  // packets pushed in this instant are seen
        const int pick =
            next_context(inject_rr_, [](const dma_context &c) { return c.has_packet(); });
        if (pick < 0) {
            sc_core::wait(inject_event_);
            continue;
        }
        noc::packet p = ctx_[pick].ctx->pop();  // frees a FIFO place: the reader may go on
        read_event_.notify(sc_core::SC_ZERO_TIME);
        if (ctx_[pick].ctx->current() == dma_context::state::idle) assign();
        ++stats_.dma_packets;
        out_.send_packet(std::move(p));
    }
}

}  // namespace namp
