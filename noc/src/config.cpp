#include "noc/config.h"

#include <sstream>

namespace noc {

namespace {
constexpr const char *report_type = "noc/config";

void reject(const std::string &what) { SC_REPORT_ERROR(report_type, what.c_str()); }
}  // namespace

const char *channel_name(channel ch) {
    switch (ch) {
    case channel::control_request: return "control_request";
    case channel::control_response: return "control_response";
    case channel::data_request: return "data_request";
    case channel::data_response: return "data_response";
    }
    return "invalid";
}

void config::validate() const {
    if (width == 0 || height == 0)
        reject("mesh size " + std::to_string(width) + "x" + std::to_string(height) +
               ": width and height must be at least 1");
    if (width > max_mesh_side || height > max_mesh_side)
        reject("mesh size " + std::to_string(width) + "x" + std::to_string(height) + ": at most " +
               std::to_string(max_mesh_side) + " tiles per side");
    if (buffer_depth == 0) reject("buffer_depth 0: an input buffer needs at least one flit slot");
    if (router_latency == 0) reject("router_latency 0: a router needs at least one cycle");
    if (max_packet_flits == 0 || max_packet_flits > max_encodable_packet_flits)
        reject("max_packet_flits " + std::to_string(max_packet_flits) + ": must be 1.." +
               std::to_string(max_encodable_packet_flits) + " (header included)");
    if (clock_period <= sc_core::SC_ZERO_TIME) reject("clock_period must be positive");
}

std::string config::describe() const {
    std::ostringstream s;
    s << width << "x" << height << " mesh, "
      << (physical_channels ? "4 physical networks" : "4 VCs") << ", depth " << buffer_depth
      << ", router " << router_latency << " cy, link " << link_latency << " cy, max packet "
      << max_packet_flits << " flits, clock " << clock_period;
    return s.str();
}

}  // namespace noc
