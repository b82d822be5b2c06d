#include "tiles/console.h"

#include "tile_memory_map.h"
#include "tiles/initiator_id.h"

namespace tiles {

console::console(sc_core::sc_module_name name, unsigned tile_x, unsigned tile_y, unsigned cores,
                 unsigned access_latency_cycles, sc_core::sc_time clock_period, std::ostream *out,
                 std::ostream *log)
    : register_target(name, TILE_CONSOLE_SIZE, access_latency_cycles, clock_period),
      prefix_base_("[" + std::to_string(tile_x) + "," + std::to_string(tile_y) + ":"),
      pending_(cores + 1),
      out_(out),
      log_(log) {}

// Unterminated last lines are still shown, so a firmware that dies mid-line loses nothing.
console::~console() {
    for (unsigned s = 0; s < pending_.size(); ++s)
        if (!pending_[s].empty()) emit_line(s, pending_[s]);
}

bool console::read_register(uint32_t offset, uint32_t &value, tlm::tlm_generic_payload &,
                            const sc_core::sc_time &) {
    if (offset == CONSOLE_STATUS) {
        value = 1;
        return true;
    }
    if (offset == CONSOLE_TX) {
        value = 0;
        return true;
    }
    return false;
}

bool console::write_register(uint32_t offset, uint32_t value, tlm::tlm_generic_payload &trans,
                             const sc_core::sc_time &) {
    if (offset != CONSOLE_TX) return false;
    const initiator_id *who = find_initiator(trans);
    put(who ? who->core : unsigned(pending_.size() - 1), char(value & 0xFF));
    return true;
}

void console::put(unsigned source, char c) {
    ++bytes_;
    if (c == '\n') {
        emit_line(source, pending_[source]);
        pending_[source].clear();
    } else if (c != '\r') {
        pending_[source] += c;
    }
}

void console::write_text(unsigned source, const char *data, size_t len) {
    if (source + 1 >= pending_.size()) source = unsigned(pending_.size() - 1);
    for (size_t i = 0; i < len; ++i) put(source, data[i]);
}

void console::emit_line(unsigned source, const std::string &text) {
    const bool from_core = source + 1 < pending_.size();
    const std::string line = prefix_base_ +
                             (from_core ? std::to_string(source) : std::string("na")) + "] " +
                             text + "\n";
    ++lines_;
    if (out_) out_->write(line.data(), std::streamsize(line.size())), out_->flush();
    if (log_) log_->write(line.data(), std::streamsize(line.size()));
}

}  // namespace tiles
