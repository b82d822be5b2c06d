// The platform's side of the GDB server: which cores it sees and the monitor commands that need
// the whole platform (statistics so far).
#include <sstream>

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
        if (command == "stats") return collect_statistics(*this).dump(2) + "\n";
        std::istringstream in(command);
        std::string word;
        unsigned id = 0;
        if (in >> word >> id && (word == "tile" || word == "na")) {
            if (id >= tiles_.size()) return "no tile " + std::to_string(id) + "\n";
            const auto tile = collect_statistics(*this).at("tiles").at(id);
            if (word == "tile") return tile.dump(2) + "\n";
            // the network adapter alone: channels, DMA, RMA, NAMP slots and messages
            return tile.contains("na") ? tile.at("na").dump(2) + "\n"
                                       : "tile " + std::to_string(id) + " has no network adapter\n";
        }
        return "";
    });
}

}  // namespace vp
