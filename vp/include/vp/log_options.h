// --log and its filters (docs/logging.md) from the command line into the log's options.
#pragma once
#include "trace/event_log.h"
#include "vp/cli.h"

namespace vp {

// Throws usage_error naming the option that is malformed.
trace::event_log::options parse_log_options(const cli_options &opt);
// --log-tiles / --log-cores name only tiles of the mesh and cores of a tile, else usage_error: a
// filter that can match nothing would give an empty log and exit 0.
void check_log_scope(const trace::event_log::options &o, unsigned mesh_width, unsigned mesh_height,
                     unsigned cores);

}  // namespace vp
