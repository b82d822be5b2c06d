// Write watchpoints on a platform where every tile has its own copy of a variable
// (docs/debugging.md, "Watchpoints").
//
// GDB keeps one old value per watchpoint and, after a write watchpoint fires, stays silent when
// the value it reads then (in the stopping thread's tile) equals that old value. With 16 tiles
// writing the same value to their own copies, GDB would stop once. So the server follows what GDB
// has seen (the value in the selected thread's tile when the watchpoint was set, then the new value
// after each reported hit) and decides per hit:
//  - the store does not change the stopping tile's copy: no stop (GDB would not stop either);
//  - GDB's value is this tile's old value: a normal watchpoint stop (GDB's Old/New are right);
//  - otherwise the core performs the store and stops with SIGTRAP, and a console line names the
//    thread, the tile and the tile's old and new value.
#include <iomanip>
#include <sstream>

#include "vp/gdb_server.h"

namespace vp {

namespace {
std::string hex_value(const std::vector<uint8_t> &bytes) {
    std::ostringstream s;
    s << "0x";
    for (size_t i = bytes.size(); i-- > 0;)
        s << std::hex << std::setw(2) << std::setfill('0') << int(bytes[i]);
    return s.str();
}
}  // namespace

void gdb_server::remember_watch_values() {
    std::set<std::pair<uint32_t, uint32_t>> now;
    for (const rv_watchpoint &w : watchpoints_) {
        if (w.kind != RV_WATCH_WRITE) continue;
        const auto key = std::make_pair(w.addr, w.len);
        now.insert(key);
        if (watch_resumed_.count(key)) continue;  // GDB re-inserts its points at every resume
        // A new watchpoint: GDB read its value in the selected thread just before.
        std::vector<uint8_t> bytes(std::min<uint32_t>(w.len, 64));
        if (threads_[general_].core->debug_memory(false, w.addr, bytes.data(),
                                                  unsigned(bytes.size())) == bytes.size())
            watch_seen_[key] = bytes;
        else
            watch_seen_.erase(key);
    }
    watch_resumed_ = now;
}

bool gdb_server::watch_change(int me, const rv_debug_hit &hit, const rv_watchpoint *&w,
                              std::vector<uint8_t> &old_bytes,
                              std::vector<uint8_t> &new_bytes) const {
    w = nullptr;
    for (const rv_watchpoint &x : watchpoints_)
        if (x.addr == hit.watch_addr && x.kind == RV_WATCH_WRITE) w = &x;
    if (!w || w->len > 64) return false;
    tiles::cpu_core &core = *threads_[me].core;
    old_bytes.assign(w->len, 0);
    uint32_t addr = 0, len = 0, value = 0;
    if (core.debug_memory(false, w->addr, old_bytes.data(), w->len) != w->len ||
        !rv_cpu_debug_next_write(core.iss(), &addr, &len, &value))
        return false;
    new_bytes = old_bytes;
    for (uint32_t i = 0; i < len; ++i) {
        const uint32_t at = addr + i - w->addr;  // wraps to a large value below the watchpoint
        if (at < w->len) new_bytes[at] = uint8_t(value >> (8 * i));
    }
    return true;
}

bool gdb_server::watch_hit(int me, const rv_debug_hit &hit) {
    if (hit.reason != RV_DEBUG_WATCHPOINT || hit.watch_kind != RV_WATCH_WRITE) return true;
    const rv_watchpoint *w = nullptr;
    std::vector<uint8_t> old_bytes, new_bytes;
    if (!watch_change(me, hit, w, old_bytes, new_bytes)) return true;  // let GDB judge
    tiles::cpu_core &core = *threads_[me].core;
    uint32_t addr = 0, len = 0, value = 0;
    rv_cpu_debug_next_write(core.iss(), &addr, &len, &value);
    if (new_bytes == old_bytes) return false;  // this tile's copy does not change
    const auto key = std::make_pair(w->addr, w->len);
    auto seen = watch_seen_.find(key);
    if (seen == watch_seen_.end() || seen->second == old_bytes) {
        watch_seen_[key] = new_bytes;  // GDB reads the new value after its step
        return true;
    }
    std::ostringstream line;
    line << "namp-vp: " << thread_name(me) << " wrote " << len << " byte" << (len == 1 ? "" : "s")
         << " at 0x" << std::hex << addr << std::dec << " (write watchpoint at 0x" << std::hex
         << w->addr << std::dec << ", " << w->len << " bytes): tile " << core.tile_id()
         << "'s copy " << hex_value(old_bytes) << " -> " << hex_value(new_bytes)
         << " (each tile has its own copy; GDB's watchpoint holds another tile's value "
         << hex_value(seen->second) << ")\n";
    threads_[me].report_after_step = line.str();
    return false;
}

}  // namespace vp
