// The adapter's data engine (RDMA put, thesis 3.2.1 and Fig. 4.2): the one packetizer of the
// adapter, shared by the user DMA slots and the NAMP. Transfers are queued and run in
// `na.dma_contexts` contexts; a reader fills each context's FIFO (`na.dma_fifo_packets` packets)
// over its own bus port while an injector sends the packets on the data-request channel, so bus
// reads overlap with injection. Both serve the contexts round-robin, one packet per turn, so
// transfers interleave packet by packet. A transfer's owner learns of a local read error through
// dma_client; the remote completion comes back as a pkt_dma_done with the transfer's tag.
// docs/network-adapter.md, "Data engine", has the costs.
#pragma once
#include <deque>
#include <memory>
#include <utility>
#include <vector>
#include <systemc>

#include "namp/bus_port.h"
#include "namp/dma_context.h"
#include "namp/na_config.h"
#include "namp/na_stats.h"
#include "namp/packet_out.h"
#include "trace/tracer.h"

namespace namp {

class dma_client {
public:
    virtual ~dma_client() = default;
    // The local read of transfer `tag` failed: nothing more of it is sent. Called from the
    // engine's reader thread.
    virtual void dma_read_failed(unsigned tag) = 0;
};

class dma_engine : public sc_core::sc_module {
public:
    bus_port port;  // its master interface

    SC_HAS_PROCESS(dma_engine);
    dma_engine(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
               packet_out &out, na_stats &stats, sc_core::sc_time clock_period);
    ~dma_engine() override;

    // Queues a transfer (size > 0; callable from any process). The client is told of read errors.
    void submit(const dma_job &job, dma_client &client);

    unsigned contexts() const { return unsigned(ctx_.size()); }
    // one track per context, "dma ctx D" under `process` (category dma)
    void attach_trace(trace::tracer &tr, const std::string &process);
    unsigned busy() const;  // contexts not idle

private:
    struct entry {
        std::unique_ptr<dma_context> ctx;
        dma_client *client = nullptr;
    };
    void assign();  // starts queued transfers in idle contexts
    template <class Ready>
    int next_context(unsigned &rr, Ready ready) const;
    void reader_thread();
    void injector_thread();

    const na_config &cfg_;
    const na_geometry &geo_;
    packet_out &out_;
    na_stats &stats_;
    sc_core::sc_time period_;
    std::vector<entry> ctx_;
    std::deque<std::pair<dma_job, dma_client *>> queue_;
    unsigned read_rr_ = 0, inject_rr_ = 0;
    // A contiguous source is one read whose latency is added to `owed` (waited with the header's
    // cycles); pieces of a strided one are read and waited for one after the other.
    bool read_source(const dma_job &j, uint32_t off, uint32_t n, sc_core::sc_time &owed);
    uint32_t gather_chunks(uint32_t chunk) const;  // chunks per packed gather packet
    bool gather_packed(uint32_t chunk) const;      // the packing rule
    std::vector<uint8_t> buf_;  // the reader's bus buffer (a member: nothing is left on the
                                // thread's stack when the simulation ends)
    sc_core::sc_event read_event_, inject_event_;
};

}  // namespace namp
