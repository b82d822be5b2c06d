// libFuzzer target: the network adapter and NAMP register files under random MMIO sequences
// (fuzz_formats.h) from a test bus master on each of two tiles (2x1 mesh, NAMP with every
// feature, no firmware). A SystemC model can be elaborated once per process, so ONE platform
// serves every input: the sequences of successive inputs run one after the other in the same
// simulation (state carries over, as when firmware keeps writing). A crash therefore replays
// exactly only together with the inputs before it; libFuzzer's -runs=1 replay of the single input
// usually suffices, since every sequence starts from wherever the adapters are.
// An input whose accesses do not complete within na_input_limit of simulated time is a hang.
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "fuzz_formats.h"
#include "fuzz_systemc.h"
#include "na_registers.h"
#include "tile_memory_map.h"
#include "tiles/initiator_id.h"
#include "vp/config.h"
#include "vp/platform.h"

namespace {

const sc_core::sc_time na_input_limit(20, sc_core::SC_MS);

// Plays the records of the current input as core 0 of its tile, then pauses the simulation.
struct player : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<player> socket[2];
    std::vector<fuzz::na_record> records;
    sc_core::sc_event input_ready;
    bool done = true;
    uint32_t sram_size = 0;
    sc_core::sc_time period;

    SC_HAS_PROCESS(player);
    explicit player(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(play); }

    void play() {
        for (;;) {
            wait(input_ready);
            for (const fuzz::na_record &r : records) access(r);
            done = true;
            sc_core::sc_pause();
        }
    }

    void access(const fuzz::na_record &r) {
        const unsigned tile = r.control & 1u;
        const auto region = fuzz::na_region((r.control >> 1) & 7u);
        const bool write = r.control & 0x10u;
        static const unsigned sizes[4] = {1, 2, 4, 4};
        const unsigned len = sizes[(r.control >> 5) & 3u];
        const uint32_t off = uint32_t(r.offset[0]) | uint32_t(r.offset[1]) << 8;
        uint32_t value = 0;
        std::memcpy(&value, r.value, 4);
        uint32_t addr = 0;
        switch (region) {
        case fuzz::na_status: addr = TILE_NA_BASE + NA_STATUS_BASE + (off & 0xff); break;
        case fuzz::na_irq: addr = TILE_NA_BASE + NA_IRQ_BASE + (off & 0xff); break;
        case fuzz::na_nocbuf:
            addr = TILE_NA_BASE + NA_NOCBUF_BASE(r.index & 1u) + (off & 0xff);
            break;
        case fuzz::na_dma: addr = TILE_NA_BASE + NA_DMA_BASE(r.index % 8u) + (off & 0xff); break;
        case fuzz::na_namp_slot:
            addr = TILE_NA_BASE + NA_NAMP_SLOT_BASE(r.index % 16u) + (off & 0x3fff);
            break;
        case fuzz::na_anywhere:
            addr = TILE_NA_BASE + ((uint32_t(r.index) << 16 | off) % TILE_NA_SIZE);
            break;
        case fuzz::na_rma:
            addr = RMA_BASE + ((uint32_t(r.index & 3u) << RMA_TILE_SHIFT) |
                               ((uint32_t(r.index) >> 2) << 16 | off) % (1u << RMA_TILE_SHIFT));
            break;
        case fuzz::na_sram_or_wait:
            if (!write) {
                wait(period * double(value & 0xfffu));
                return;
            }
            addr = TILE_SRAM_BASE + ((uint32_t(r.index) << 16 | off) % sram_size);
            break;
        }
        tiles::initiator_id id;  // the accesses of a core carry its id
        tlm::tlm_generic_payload t;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        t.set_extension(&id);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket[tile]->b_transport(t, delay);
        t.clear_extension(&id);
        wait(delay);
    }
};

struct na_bench {
    std::unique_ptr<vp::platform> plat;
    std::unique_ptr<player> drv;

    na_bench() {
        vp::config_builder b;
        b.apply_preset("bare");  // NAMP with messages, channels, buffered sends and CCM
        for (const char *o : {"mesh.width=2", "mesh.height=1", "tile.sram_size=65536",
                              "na.dma_slots=4", "console.echo=false"})
            b.apply_override(o);
        const vp::platform_config cfg = b.build();
        vp::run_options opt;
        opt.quiet = true;
        plat = std::make_unique<vp::platform>("vp", cfg, opt);
        drv = std::make_unique<player>("fuzz_player");
        drv->sram_size = cfg.tile.sram_size;
        drv->period = plat->clock_period();
        for (unsigned t = 0; t < 2; ++t) plat->tiles()[t]->bind_master(drv->socket[t]);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate; the player waits for input
    }

    void run(const uint8_t *data, size_t size) {
        const size_t n = std::min<size_t>(size / sizeof(fuzz::na_record), fuzz::na_max_records);
        drv->records.resize(n);
        if (n) std::memcpy(drv->records.data(), data, n * sizeof(fuzz::na_record));
        drv->done = false;
        drv->input_ready.notify(sc_core::SC_ZERO_TIME);
        sc_core::sc_start(na_input_limit);
        if (!drv->done) {
            std::fprintf(stderr, "fuzz_na: hang: the accesses did not complete in %s\n",
                         na_input_limit.to_string().c_str());
            abort();
        }
    }
};

// The simulation runs on a thread of its own: SystemC switches stacks (QuickThreads) under
// AddressSanitizer's feet, and on libFuzzer's main thread that hid the fuzzer's own heap memory
// from LeakSanitizer (false leaks). The main thread only hands over inputs and waits.
class sim_thread {
public:
    sim_thread() : thread_([this] { serve(); }) {}

    void run(const uint8_t *data, size_t size) {
        std::unique_lock<std::mutex> lock(mutex_);
        data_ = data;
        size_ = size;
        pending_ = true;
        changed_.notify_all();
        changed_.wait(lock, [this] { return !pending_; });
    }

private:
    void serve() {
        na_bench bench;  // elaborated on this thread, as every later sc_start must be
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            changed_.wait(lock, [this] { return pending_; });
            bench.run(data_, size_);
            pending_ = false;
            changed_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    const uint8_t *data_ = nullptr;
    size_t size_ = 0;
    bool pending_ = false;
    std::thread thread_;  // last: starts once the members above exist
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // libFuzzer's entry point admits no owner: the simulation lives as long as the process and
    // is never torn down (the process exits with its threads still waiting).
    static sim_thread *sim = new sim_thread;
    sim->run(data, size);
    return 0;
}
