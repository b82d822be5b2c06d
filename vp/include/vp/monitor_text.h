// Readable text of the statistics for GDB's `monitor` commands (docs/debugging.md): the run as a
// table of tiles, a tile as a table of its cores, the network adapter as an outline. `json`
// after a command gives the documents themselves (as --stats writes them).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace vp {

std::string stats_text(const nlohmann::ordered_json &statistics);  // monitor stats
std::string tile_text(const nlohmann::ordered_json &tile);         // monitor tile N
// An outline of any document: scalars as "key  value", objects indented, a group of objects
// with the same scalar fields (channels, slots) as a table.
std::string outline_text(const nlohmann::ordered_json &doc);  // monitor na N

}  // namespace vp
