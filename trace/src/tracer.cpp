#include "trace/tracer.h"

#include <iomanip>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace trace {

namespace {

// JSON string literal (names come from our own code, but be safe about quotes and controls).
std::string quoted(const std::string &s) {
    std::ostringstream o;
    o << '"';
    for (char c : s) {
        if (c == '"' || c == '\\')
            o << '\\' << c;
        else if (uint8_t(c) < 0x20)
            o << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
        else
            o << c;
    }
    o << '"';
    return o.str();
}

// Trace-event times are microseconds; keep picosecond resolution.
std::string us(const sc_core::sc_time &t) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(6) << t.to_seconds() * 1e6;
    return o.str();
}

const std::pair<const char *, unsigned> category_names[] = {
    {"cores", cores}, {"marks", marks}, {"namp", namp}, {"dma", dma}, {"noc", noc}};

// The "cat" field of an event on a track of this category (every event carries one).
const char *category_name(unsigned category) {
    for (const auto &[name, bit] : category_names)
        if (category & bit) return name;
    return "other";
}

}  // namespace

unsigned parse_categories(const std::string &list) {
    static const std::pair<const char *, unsigned> names[] = {
        {"cores", cores}, {"marks", marks}, {"namp", namp},
        {"dma", dma},     {"noc", noc},     {"all", cores | marks | namp | dma | noc}};
    unsigned mask = 0;
    std::istringstream in(list);
    std::string word;
    while (std::getline(in, word, ',')) {
        bool known = false;
        for (const auto &[name, bit] : names)
            if (word == name) {
                mask |= bit;
                known = true;
            }
        if (!known)
            throw std::invalid_argument("unknown trace category '" + word +
                                        "' (known: cores, marks, namp, dma, noc, all)");
    }
    return mask;
}

tracer::tracer(const std::string &path, const options &opt) : opt_(opt), out_(path) {
    if (!out_)
        throw std::runtime_error("--trace: cannot write '" + path + "': " + std::strerror(errno));
    out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    out_ << "{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"namp-"
            "vp\"}}";
}

tracer::~tracer() {
    if (!finished_) finish(last_);
}

unsigned tracer::process_id(const std::string &process) {
    for (size_t i = 0; i < processes_.size(); ++i)
        if (processes_[i] == process) return unsigned(i + 1);
    processes_.push_back(process);
    const unsigned pid = unsigned(processes_.size());
    out_ << ",\n{\"ph\":\"M\",\"pid\":" << pid
         << ",\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":" << quoted(process) << "}}";
    out_ << ",\n{\"ph\":\"M\",\"pid\":" << pid
         << ",\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" << pid << "}}";
    return pid;
}

track_id tracer::track(const std::string &process, const std::string &thread, unsigned category) {
    if (!enabled(category)) return 0;
    const std::string key = process + "\n" + thread;
    for (const auto &[name, id] : names_)
        if (name == key) return id;
    const unsigned pid = process_id(process);
    const track_id id = track_id(tracks_.size() + 1);
    tracks_.push_back({pid, id, category_name(category), {}});
    names_.push_back({key, id});
    out_ << ",\n{\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << id
         << ",\"name\":\"thread_name\",\"args\":{\"name\":" << quoted(thread) << "}}";
    out_ << ",\n{\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << id
         << ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" << id << "}}";
    return id;
}

bool tracer::room() {
    if (events_ < opt_.max_events) return true;
    truncated_ = true;
    return false;
}

void tracer::begin(track_id track, const std::string &name, const sc_core::sc_time &t) {
    if (!track) return;
    tracks_[track - 1].open.push_back({name, t});
    if (t > last_) last_ = t;
}

void tracer::write_slice(const track_info &tr, const open_slice &s, const sc_core::sc_time &end) {
    // Clip to the window; a slice wholly outside it is dropped.
    const sc_core::sc_time from = s.start < opt_.window_start ? opt_.window_start : s.start;
    const sc_core::sc_time to = end > opt_.window_end ? opt_.window_end : end;
    if (to < from || end < opt_.window_start || s.start > opt_.window_end || !room()) return;
    ++events_;
    out_ << ",\n{\"ph\":\"X\",\"cat\":\"" << tr.cat << "\",\"pid\":" << tr.pid
         << ",\"tid\":" << tr.tid << ",\"ts\":" << us(from) << ",\"dur\":" << us(to - from)
         << ",\"name\":" << quoted(s.name) << "}";
}

void tracer::end(track_id track, const sc_core::sc_time &t) {
    if (!track) return;
    track_info &tr = tracks_[track - 1];
    if (tr.open.empty()) return;  // an end without a begin (e.g. tracing started mid-slice)
    write_slice(tr, tr.open.back(), t);
    tr.open.pop_back();
    if (t > last_) last_ = t;
}

void tracer::instant(track_id track, const std::string &name, const sc_core::sc_time &t) {
    if (!track || !in_window(t) || !room()) return;
    const track_info &tr = tracks_[track - 1];
    ++events_;
    out_ << ",\n{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"" << tr.cat << "\",\"pid\":" << tr.pid
         << ",\"tid\":" << tr.tid << ",\"ts\":" << us(t) << ",\"name\":" << quoted(name) << "}";
    if (t > last_) last_ = t;
}

void tracer::async_slice(track_id track, const std::string &name, uint64_t id,
                         const sc_core::sc_time &start, const sc_core::sc_time &end) {
    if (!track || end < opt_.window_start || start > opt_.window_end || !room()) return;
    const sc_core::sc_time from = start < opt_.window_start ? opt_.window_start : start;
    const sc_core::sc_time to = end > opt_.window_end ? opt_.window_end : end;
    const track_info &tr = tracks_[track - 1];
    ++events_;  // one packet, two records
    for (const auto &[ph, t] : {std::make_pair("b", from), std::make_pair("e", to)})
        out_ << ",\n{\"ph\":\"" << ph << "\",\"cat\":\"" << tr.cat << "\",\"id\":" << id
             << ",\"pid\":" << tr.pid << ",\"tid\":" << tr.tid << ",\"ts\":" << us(t)
             << ",\"name\":" << quoted(name) << "}";
    if (end > last_) last_ = end;
}

void tracer::counter(track_id track, const std::string &name, double value,
                     const sc_core::sc_time &t) {
    if (!track || !in_window(t) || !room()) return;
    ++events_;
    out_ << ",\n{\"ph\":\"C\",\"cat\":\"" << tracks_[track - 1].cat
         << "\",\"pid\":" << tracks_[track - 1].pid << ",\"ts\":" << us(t)
         << ",\"name\":" << quoted(name) << ",\"args\":{\"value\":" << value << "}}";
    if (t > last_) last_ = t;
}

void tracer::finish(const sc_core::sc_time &t) {
    if (finished_) return;
    const sc_core::sc_time at = t > last_ ? t : last_;
    for (track_info &tr : tracks_) {
        while (!tr.open.empty()) {  // innermost first
            write_slice(tr, tr.open.back(), at);
            tr.open.pop_back();
        }
    }
    out_ << ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"namp_vp_trace\",\"args\":{\"events\":"
         << events_ << ",\"truncated\":" << (truncated_ ? "true" : "false") << "}}\n]}\n";
    out_.flush();
    finished_ = true;
}

}  // namespace trace
