#include "noc/router.h"

#include "agenda.h"

namespace noc {

const char *direction_name(direction d) {
    switch (d) {
    case direction::local: return "local";
    case direction::north: return "north";
    case direction::east: return "east";
    case direction::south: return "south";
    case direction::west: return "west";
    }
    return "invalid";
}

direction opposite(direction d) {
    switch (d) {
    case direction::north: return direction::south;
    case direction::south: return direction::north;
    case direction::east: return direction::west;
    case direction::west: return direction::east;
    case direction::local: break;
    }
    return direction::local;
}

router::router(sc_core::sc_module_name name, unsigned x, unsigned y, unsigned planes,
               unsigned vcs_per_plane)
    : sc_module(name), x_(x), y_(y), planes_(planes) {
    if (vcs_per_plane > channel_count)
        SC_REPORT_ERROR("noc/config", "more virtual channels per plane than channels");
    for (unsigned pl = 0; pl < planes; ++pl)
        for (unsigned d = 0; d < direction_count; ++d) {
            router_plane &p = planes_[pl];
            for (unsigned v = 0; v < vcs_per_plane; ++v)
                p.outputs[d][v].order = detail::resource_order(x, y, d, pl, v);
        }
}

void router::reset_counters() {
    flits_forwarded = 0;
    packets_forwarded = 0;
    blocked_cycles = 0;
    for (auto &p : planes_) {
        for (auto &l : p.output_links) l.flits = 0;
        p.injection_link.flits = 0;
    }
}

}  // namespace noc
