// Timeline trace of a run in the Chrome/Perfetto trace-event JSON format (docs/tracing.md).
//
// One tracer per run, owned by the platform and handed to the modules that trace through their
// constructors. A module declares its tracks once (a track is a row in the UI: a process such as
// "tile 5" and a thread such as "core 0" or "namp slot 3") and then records slices (begin/end),
// instants and counters with SystemC times. A track of a category that is switched off is the null
// track; every call on it returns at once, so untraced runs pay one compare.
//
// Slices are written as complete events when they end, clipped to the time window; the file stops
// growing at the event limit (the metadata then says truncated). Not thread-safe (SystemC is not).
#pragma once
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>
#include <systemc>

namespace trace {

// Categories (bit mask): what --trace-categories selects.
enum category : unsigned {
    cores = 1u << 0,  // per core: running, sleeping in wfi, in a trap handler
    marks = 1u << 1,  // the firmware's sim_mark stamps (instants on the core's track)
    namp = 1u << 2,   // per NAMP slot: its states
    dma = 1u << 3,    // per DMA context: transfers
    noc = 1u << 4,    // per router or link: packets
};
constexpr unsigned default_categories = cores | marks | namp | dma;
// "cores,marks" -> mask; throws std::invalid_argument naming an unknown category.
unsigned parse_categories(const std::string &list);

using track_id = uint32_t;  // 0: the null track (category off)

class tracer {
public:
    struct options {
        unsigned categories = default_categories;
        sc_core::sc_time window_start = sc_core::SC_ZERO_TIME;
        sc_core::sc_time window_end = sc_core::sc_max_time();
        uint64_t max_events = 2000000;  // bounds the file (about 100 bytes per event)
    };

    // Opens the file (throws std::runtime_error if it cannot).
    tracer(const std::string &path, const options &opt);
    ~tracer();  // finish() if not done
    tracer(const tracer &) = delete;
    tracer &operator=(const tracer &) = delete;

    bool enabled(unsigned category) const { return (opt_.categories & category) != 0; }
    // A track; the same (process, thread) pair gives the same id. Null if the category is off.
    track_id track(const std::string &process, const std::string &thread, unsigned category);

    // A slice on a track; slices on one track nest (end closes the innermost open one).
    void begin(track_id track, const std::string &name, const sc_core::sc_time &t);
    void end(track_id track, const sc_core::sc_time &t);
    void instant(track_id track, const std::string &name, const sc_core::sc_time &t);
    // A slice that may overlap others of its track (e.g. packets in flight): shown as an async
    // row under the track's process; id tells the slices apart. Written at once.
    void async_slice(track_id track, const std::string &name, uint64_t id,
                     const sc_core::sc_time &start, const sc_core::sc_time &end);
    // A counter track of its own, named name, under the track's process.
    void counter(track_id track, const std::string &name, double value, const sc_core::sc_time &t);

    // Closes the slices still open at time t and ends the JSON document.
    void finish(const sc_core::sc_time &t);
    uint64_t events() const { return events_; }
    // False once a write to the file failed (a full disk): checked after finish().
    bool good() const { return bool(out_); }

    // The file's stream (reverse execution puts a gate in front of it: vp/output_gate.h).
    std::ostream &stream() { return out_; }

private:
    struct open_slice {
        std::string name;
        sc_core::sc_time start;
    };
    struct track_info {
        unsigned pid, tid;
        const char *cat;  // the track's category, the "cat" of its events
        std::vector<open_slice> open;
    };
    bool in_window(const sc_core::sc_time &t) const {
        return t >= opt_.window_start && t <= opt_.window_end;
    }
    bool room();  // false once the event limit is reached
    void write_slice(const track_info &tr, const open_slice &s, const sc_core::sc_time &end);
    unsigned process_id(const std::string &process);

    options opt_;
    std::ofstream out_;
    std::vector<track_info> tracks_;  // index = track id - 1
    std::vector<std::string> processes_;
    std::vector<std::pair<std::string, track_id>> names_;  // "process\nthread" -> id
    uint64_t events_ = 0;
    bool truncated_ = false, finished_ = false;
    sc_core::sc_time last_;
};

}  // namespace trace
