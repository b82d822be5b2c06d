#include "vp/log_options.h"

#include <stdexcept>

namespace vp {

namespace {

// FROM:TO with TO optional (empty: no end); base 16 for addresses, 10 for cycles.
void parse_span(const std::string &option, const std::string &text, int base, uint64_t &from,
                uint64_t &to) {
    const std::string what = option + ": '" + text + "' is not FROM:TO" +
                             (base == 16 ? " (hex addresses, FROM < TO)" : " (cycles, FROM < TO)");
    const auto number = [&](std::string s, uint64_t &v) {
        if (base == 16 && s.rfind("0x", 0) == 0) s = s.substr(2);
        const char *digits = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
        if (s.empty() || s.size() > 16 || s.find_first_not_of(digits) != std::string::npos)
            return false;
        v = std::stoull(s, nullptr, base);
        return true;
    };
    const size_t colon = text.find(':');
    if (colon == std::string::npos || !number(text.substr(0, colon), from)) throw usage_error(what);
    if (colon + 1 < text.size()) {
        if (!number(text.substr(colon + 1), to) || to <= from) throw usage_error(what);
    }
}

}  // namespace

trace::event_log::options parse_log_options(const cli_options &opt) {
    trace::event_log::options o;
    if (opt.log.empty()) return o;
    try {
        o.categories = trace::parse_log_categories(opt.log);
        if (!opt.log_tiles.empty())
            o.tiles = trace::event_log::parse_ranges("--log-tiles", opt.log_tiles);
        if (!opt.log_cores.empty())
            o.cores = trace::event_log::parse_ranges("--log-cores", opt.log_cores);
    } catch (const std::invalid_argument &e) {
        throw usage_error(e.what());
    }
    if (!opt.log_range.empty())
        parse_span("--log-range", opt.log_range, 16, o.addr_from, o.addr_to);
    if (!opt.log_window.empty())
        parse_span("--log-window", opt.log_window, 10, o.cycle_from, o.cycle_to);
    if (!opt.log_limit.empty()) {
        const std::string &t = opt.log_limit;
        if (t.empty() || t.size() > 15 || t.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(t) < 4096)
            throw usage_error("--log-limit: a whole number of bytes, at least 4096, got '" + t +
                              "'");
        o.limit = std::stoull(t);
    }
    return o;
}

void check_log_scope(const trace::event_log::options &o, unsigned mesh_width, unsigned mesh_height,
                     unsigned cores) {
    const unsigned tiles = mesh_width * mesh_height;
    for (const auto &[from, to] : o.tiles)
        if (to >= tiles)
            throw usage_error("--log-tiles: there is no tile " + std::to_string(to) + " (the " +
                              std::to_string(mesh_width) + "x" + std::to_string(mesh_height) +
                              " mesh has tiles 0.." + std::to_string(tiles - 1) + ")");
    for (const auto &[from, to] : o.cores)
        if (to >= cores)
            throw usage_error(
                "--log-cores: there is no core " + std::to_string(to) + " (a tile has " +
                std::to_string(cores) +
                (cores == 1 ? " core: 0" : " cores: 0.." + std::to_string(cores - 1)) +
                ", tile.cores)");
}

}  // namespace vp
