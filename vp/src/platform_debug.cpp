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
        if (in >> word >> id && word == "tile") {
            if (id >= tiles_.size()) return "no tile " + std::to_string(id) + "\n";
            return collect_statistics(*this).at("tiles").at(id).dump(2) + "\n";
        }
        return "";
    });
}

}  // namespace vp
