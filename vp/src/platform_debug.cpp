// The platform's side of the GDB server: which cores it sees, the monitor commands that need the
// whole platform (statistics so far, as tables or JSON) and `monitor reset`.
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <unistd.h>

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
            if (!tile.contains("na"))
                return "tile " + std::to_string(id) + " has no network adapter\n";
            return format.empty() ? outline_text(tile.at("na")) : tile.at("na").dump(2) + "\n";
        }
        return "";
    });
    gdb_->set_reset([this] { return reset_from_firmware(); });
    gdb_->set_hold_limit(10000000, period_);
    gdb_->set_symbolizer([this](unsigned tile, uint32_t pc) -> std::string {
        const firmware_image *image = firmware_.for_tile(tile);
        return image ? image->symbol_at(pc) : "";
    });
    gdb_->set_memory_dump([this](std::ostream &out) -> std::string {
        for (auto &t : tiles_)
            out.write(reinterpret_cast<const char *>(t->memory().data()),
                      std::streamsize(t->memory().size()));
        return "";
    });
    if (config_.checkpoints == 0) return;
    gdb_->enable_reverse(
        config_.checkpoints, config_.checkpoint_interval,
        [this] {
            for (auto &g : gates_) g->pubsync();
        },
        [this] {
            for (auto &g : gates_) g->abandon_future();
        },
        [this] {
            std::vector<uint64_t> counts;
            for (auto &g : gates_) counts.push_back(g->count());
            return counts;
        },
        [this](const uint64_t *at) {
            for (size_t i = 0; i < gates_.size() && i < checkpoints::streams; ++i)
                gates_[i]->cut(at[i]);
        });
    gate_outputs();
}

// Reverse execution replays history in fresh processes: every output goes through a gate that
// lets each byte of this history out once (vp/output_gate.h).
void platform::gate_outputs() {
    checkpoints *cp = gdb_->reverse();
    unsigned stream = 0;
    const auto gate = [&](std::ostream &os, int fd, uint64_t at, bool own) {
        os.flush();
        gates_.push_back(std::make_unique<output_gate>(fd, cp->written(stream++), at, own));
        ungated_.push_back({&os, os.rdbuf(gates_.back().get())});
    };
    gate(std::cout, STDOUT_FILENO, 0, false);
    gate(std::cerr, STDERR_FILENO, 0, false);
    std::clog.flush();  // one descriptor, one count: clog shares the gate of cerr
    ungated_.push_back({&std::clog, std::clog.rdbuf(gates_.back().get())});
    const auto file = [&](std::ostream &os, const std::string &path) {
        os.flush();
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) return;
        const off_t at = ::lseek(fd, 0, SEEK_END);
        gate(os, fd, at > 0 ? uint64_t(at) : 0, true);
    };
    if (console_log_.is_open()) file(console_log_, config_.console_file);
    if (log_file_.is_open()) file(log_file_, options_.log_file);
    if (tracer_) file(tracer_->stream(), options_.trace_file);
}

platform::~platform() {
    for (auto &g : gates_) g->pubsync();
    for (auto &[stream, buffer] : ungated_) stream->rdbuf(buffer);
    for (auto &f : front_) f.reset();  // then the members, in reverse order of declaration
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
