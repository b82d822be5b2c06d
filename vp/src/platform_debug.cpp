// The platform's side of the GDB server: which cores it sees, the monitor commands that need the
// whole platform (statistics so far, as tables or JSON) and `monitor reset`.
#include <cstring>
#include <sstream>

#include "vp/monitor_text.h"
#include "vp/platform.h"
#include "vp/statistics.h"

namespace vp {

void platform::attach_debugger() {
    for (auto &t : tiles_) {
        std::vector<tiles::cpu_core *> tile_cores;
        for (auto &c : t->cores()) tile_cores.push_back(c.get());
        for (auto &c : t->cores())
            if (c->started()) gdb_->add_core(*c, tile_cores);
    }
    gdb_->set_monitor([this](const std::string &command) -> std::string {
        std::istringstream in(command);
        std::string word, format;
        in >> word;
        if (word == "stats") {
            in >> format;
            if (format == "json") return collect_statistics(*this).dump(2) + "\n";
            return format.empty() ? stats_text(collect_statistics(*this)) : "";
        }
        unsigned id = 0;
        if ((word == "tile" || word == "na") && in >> id) {
            in >> format;
            if (!format.empty() && format != "json") return "";
            if (id >= tiles_.size()) return "no tile " + std::to_string(id) + "\n";
            const auto tile = collect_statistics(*this).at("tiles").at(id);
            if (word == "tile") return format.empty() ? tile_text(tile) : tile.dump(2) + "\n";
            // the network adapter alone: channels, DMA, RMA, NAMP slots and messages
            if (!tile.contains("na")) return "tile " + std::to_string(id) + " has no network adapter\n";
            return format.empty() ? outline_text(tile.at("na")) : tile.at("na").dump(2) + "\n";
        }
        return "";
    });
    gdb_->set_reset([this] { return reset_from_firmware(); });
    gdb_->set_hold_limit(10000000, period_);
}

// monitor reset: every tile with firmware gets a zeroed SRAM and its ELF again, and every core
// that runs it starts over at the entry point; the run control forgets who exited. Simulated time
// and the cores' counters go on; devices keep their state (docs/debugging.md).
std::string platform::reset_from_firmware() {
    for (auto &t : tiles_) {
        const firmware_image *image = firmware_.for_tile(t->geometry().id);
        if (!image) continue;
        std::memset(t->memory().data(), 0, t->memory().size());
        image->load_into(*t, firmware_.argv_for(t->geometry().id));
        for (auto &c : t->cores()) c->restart(image->entry());
    }
    control_.restart();
    return "";
}

}  // namespace vp
