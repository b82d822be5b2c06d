// The instruction and event log (--log, docs/logging.md): one text line per event, filtered by
// category, tile, core, address range and cycle window, bounded in size. Unlike the timeline
// trace it records single instructions (disassembled by the ISS's decoder), traps, interrupts,
// device accesses and NAMP messages, as QEMU's -d in_asm,int would.
#pragma once
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace trace {

enum log_category : unsigned {
    log_insn = 1u << 0,  // every instruction a core executes (the ISS's per-instruction path)
    log_trap = 1u << 1,  // exceptions taken
    log_irq = 1u << 2,   // interrupts taken
    log_mmio = 1u << 3,  // a core's device accesses (not its SRAM, which it reaches by DMI)
    log_namp = 1u << 4,  // NAMP messages received and slot state changes, per adapter
    log_commit =
        1u << 5,  // retired instructions with their results, in Spike's --log-commits format
};
// "insn,trap" or "all" -> mask; throws std::invalid_argument naming an unknown category.
unsigned parse_log_categories(const std::string &list);

class event_log {
public:
    using range_list = std::vector<std::pair<unsigned, unsigned>>;  // inclusive [from, to] pairs
    struct options {
        unsigned categories = 0;
        range_list tiles, cores;                         // empty: all
        uint64_t addr_from = 0, addr_to = 1ull << 32;    // pcs and device addresses [from, to)
        uint64_t cycle_from = 0, cycle_to = UINT64_MAX;  // [from, to]
        uint64_t limit = 256ull << 20;                   // bytes; then one last line, no more
    };
    // "0,3-5" -> ranges; throws std::invalid_argument naming option and text.
    static range_list parse_ranges(const std::string &option, const std::string &text);

    event_log(std::ostream &out, const options &opt) : out_(out), opt_(opt) {}
    // Told once, with the reason, when a write fails (a full disk): the run should end there
    // rather than simulate on for a log that is lost (docs/logging.md). No lines follow it.
    void on_write_error(std::function<void(const std::string &)> fn) { on_error_ = std::move(fn); }

    // Whether anything of this category is logged for this tile and core (decided once per core).
    bool wants(unsigned category, unsigned tile, unsigned core) const;
    bool in_range(uint64_t addr) const { return addr >= opt_.addr_from && addr < opt_.addr_to; }
    // Writes one line if the cycle is in the window and the size limit allows; core < 0: a device.
    void write(log_category category, unsigned tile, int core, uint64_t cycle,
               const std::string &text);
    bool full() const { return full_; }  // the limit was reached or a write failed: no more lines
    const options &settings() const { return opt_; }
    bool good() const { return bool(out_); }
    uint64_t bytes() const { return bytes_; }

private:
    static bool contains(const range_list &ranges, unsigned v);
    void check_written();
    std::ostream &out_;
    std::function<void(const std::string &)> on_error_;
    options opt_;
    uint64_t bytes_ = 0;
    bool full_ = false;
};

}  // namespace trace
