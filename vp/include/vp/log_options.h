// --log and its filters (docs/logging.md) from the command line into the log's options.
#pragma once
#include "trace/event_log.h"
#include "vp/cli.h"

namespace vp {

// Throws usage_error naming the option that is malformed.
trace::event_log::options parse_log_options(const cli_options &opt);

}  // namespace vp
