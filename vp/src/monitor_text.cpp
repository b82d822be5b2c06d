#include "vp/monitor_text.h"

#include <algorithm>

#include "vp/text_table.h"

namespace vp {

using nlohmann::ordered_json;

namespace {

std::string cell(const ordered_json &v) {
    if (v.is_null()) return "-";
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

uint64_t sum_of(const ordered_json &obj, const char *field) {
    uint64_t n = 0;
    for (const auto &item : obj) n += item.value(field, uint64_t(0));
    return n;
}

// Rows of objects (array elements or object members) whose fields are all scalars and the same.
bool is_table(const ordered_json &group) {
    if (!(group.is_array() || group.is_object()) || group.empty()) return false;
    const ordered_json *first = nullptr;
    for (const auto &row : group) {
        if (!row.is_object() || row.empty()) return false;
        if (!first) first = &row;
        if (row.size() != first->size()) return false;
        auto a = row.begin();
        for (auto b = first->begin(); b != first->end(); ++a, ++b)
            if (a.key() != b.key() || a->is_structured()) return false;
    }
    return true;
}

void outline(const ordered_json &doc, const std::string &indent, std::string &out) {
    size_t width = 0;  // the scalars of one level line up
    if (doc.is_object())
        for (auto it = doc.begin(); it != doc.end(); ++it)
            if (!it->is_structured()) width = std::max(width, it.key().size());
    size_t index = 0;
    for (auto it = doc.begin(); it != doc.end(); ++it, ++index) {
        const std::string key = doc.is_array() ? "[" + std::to_string(index) + "]" : it.key();
        const ordered_json &v = *it;
        if (!v.is_structured()) {
            out += indent + key + std::string(width > key.size() ? width - key.size() : 0, ' ') +
                   "  " + cell(v) + "\n";
        } else if (is_table(v)) {
            std::vector<std::string> header{""};
            for (auto f = v.begin()->begin(); f != v.begin()->end(); ++f) header.push_back(f.key());
            text_table t(header);
            size_t i = 0;
            for (auto row = v.begin(); row != v.end(); ++row, ++i) {
                std::vector<std::string> r{v.is_array() ? std::to_string(i) : row.key()};
                for (const auto &f : *row) r.push_back(cell(f));
                t.add(r);
            }
            out += indent + key + ":\n";
            std::string table = t.str(), line;
            for (char c : table) {
                line += c;
                if (c == '\n') {
                    out += indent + "  " + line;
                    line.clear();
                }
            }
        } else if (v.empty()) {
            out += indent + key + "  (none)\n";
        } else {
            out += indent + key + ":\n";
            outline(v, indent + "  ", out);
        }
    }
}

}  // namespace

std::string outline_text(const ordered_json &doc) {
    std::string out;
    outline(doc, "", out);
    return out;
}

std::string stats_text(const ordered_json &s) {
    const ordered_json &sim = s.at("simulation");
    std::string out = "run: " + cell(sim.at("end_reason")) + ", " +
                      cell(sim.at("simulated_cycles")) + " cycles simulated, " +
                      cell(s.at("totals").at("instret")) + " instructions\n";
    const bool na = !s.at("tiles").empty() && s.at("tiles")[0].contains("na");
    std::vector<std::string> header{"tile",    "x,y",    "cores",           "exited",
                                    "instret", "cycles", "bus transactions"};
    if (na) header.insert(header.end(), {"packets sent", "packets received"});
    text_table t(header);
    for (const auto &tile : s.at("tiles")) {
        unsigned exited = 0;
        uint64_t cycles = 0;
        for (const auto &c : tile.at("cores")) {
            exited += c.at("state") == "exited" ? 1 : 0;
            cycles = std::max<uint64_t>(cycles, c.at("cycles").get<uint64_t>());
        }
        std::vector<std::string> row{cell(tile.at("id")),
                                     cell(tile.at("x")) + "," + cell(tile.at("y")),
                                     std::to_string(tile.at("cores").size()),
                                     std::to_string(exited),
                                     std::to_string(sum_of(tile.at("cores"), "instret")),
                                     std::to_string(cycles),
                                     cell(tile.at("bus").at("transactions"))};
        if (na) {
            const ordered_json &ch = tile.at("na").at("channels");
            row.push_back(std::to_string(sum_of(ch, "packets_sent")));
            row.push_back(std::to_string(sum_of(ch, "packets_received")));
        }
        t.add(row);
    }
    return out + t.str() +
           "(monitor tile N, monitor na N for one tile; monitor stats json for everything)\n";
}

std::string tile_text(const ordered_json &tile) {
    std::string out = "tile " + cell(tile.at("id")) + " (" + cell(tile.at("x")) + "," +
                      cell(tile.at("y")) + ")\n";
    text_table t({"core", "state", "exit", "cycles", "instret", "loads", "stores", "wfi",
                  "device accesses", "exceptions", "interrupts"});
    for (const auto &c : tile.at("cores"))
        t.add({cell(c.at("core")), cell(c.at("state")), cell(c.at("exit_code")),
               cell(c.at("cycles")), cell(c.at("instret")), cell(c.at("loads")),
               cell(c.at("stores")), cell(c.at("wfi")), cell(c.at("device_accesses")),
               cell(c.at("exceptions")), cell(c.at("interrupts"))});
    out += t.str();
    out += "bus:\n";
    outline(tile.at("bus"), "  ", out);
    out += "console:\n";
    outline(tile.at("console"), "  ", out);
    if (tile.contains("na")) out += "network adapter: monitor na " + cell(tile.at("id")) + "\n";
    return out;
}

}  // namespace vp
