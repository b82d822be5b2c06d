#include "trace/event_log.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace trace {

namespace {
const std::pair<const char *, unsigned> names[] = {{"insn", log_insn}, {"trap", log_trap},
                                                   {"irq", log_irq},   {"mmio", log_mmio},
                                                   {"namp", log_namp}, {"commit", log_commit}};

const char *name_of(unsigned category) {
    for (const auto &[name, bit] : names)
        if (category == bit) return name;
    return "?";
}
}  // namespace

unsigned parse_log_categories(const std::string &list) {
    unsigned mask = 0;
    std::istringstream in(list);
    std::string word;
    while (std::getline(in, word, ',')) {
        unsigned bit =
            word == "all" ? log_insn | log_trap | log_irq | log_mmio | log_namp | log_commit : 0;
        for (const auto &[name, b] : names)
            if (word == name) bit = b;
        if (!bit)
            throw std::invalid_argument("--log: unknown category '" + word +
                                        "' (known: insn, commit, trap, irq, mmio, namp, all)");
        mask |= bit;
    }
    if (!mask)
        throw std::invalid_argument(
            "--log: no category given (insn, commit, trap, irq, mmio, namp, all)");
    return mask;
}

event_log::range_list event_log::parse_ranges(const std::string &option, const std::string &text) {
    range_list out;
    std::istringstream in(text);
    std::string item;
    const auto bad = [&] {
        return std::invalid_argument(option + ": '" + text + "' is not a list like 0,3-5");
    };
    const auto number = [&](const std::string &s) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
            throw bad();
        return unsigned(std::stoul(s));
    };
    while (std::getline(in, item, ',')) {
        const size_t dash = item.find('-');
        const unsigned from = number(item.substr(0, dash));
        const unsigned to = dash == std::string::npos ? from : number(item.substr(dash + 1));
        if (to < from) throw bad();
        out.push_back({from, to});
    }
    if (out.empty()) throw bad();
    return out;
}

bool event_log::contains(const range_list &ranges, unsigned v) {
    if (ranges.empty()) return true;
    for (const auto &[from, to] : ranges)
        if (v >= from && v <= to) return true;
    return false;
}

bool event_log::wants(unsigned category, unsigned tile, unsigned core) const {
    return (opt_.categories & category) && contains(opt_.tiles, tile) &&
           (category == log_namp || contains(opt_.cores, core));
}

void event_log::write(log_category category, unsigned tile, int core, uint64_t cycle,
                      const std::string &text) {
    if (full_ || cycle < opt_.cycle_from || cycle > opt_.cycle_to) return;
    char head[64];
    if (core >= 0)
        std::snprintf(head, sizeof head, "%12llu  t%u c%d  %-4s  ", (unsigned long long)cycle, tile,
                      core, name_of(category));
    else
        std::snprintf(head, sizeof head, "%12llu  t%u na  %-4s  ", (unsigned long long)cycle, tile,
                      name_of(category));
    const uint64_t size = std::char_traits<char>::length(head) + text.size() + 1;
    if (bytes_ + size > opt_.limit) {
        full_ = true;
        out_ << "namp-vp: log limit of " << opt_.limit << " bytes reached at cycle " << cycle
             << ": logging stops here (--log-limit)\n";
        out_.flush();
        check_written();
        return;
    }
    bytes_ += size;
    errno = 0;
    out_ << head << text << '\n';
    check_written();
}

// A buffered stream fails when its buffer is written out: that is the first write error.
void event_log::check_written() {
    if (out_ || !on_error_) return;
    const int e = errno;
    full_ = true;  // nothing more is written; logged cores go back to the fast path
    auto fn = std::move(on_error_);
    on_error_ = nullptr;
    fn(e ? std::strerror(e) : "write error");
}

}  // namespace trace
