// Output files and streams: checked before a run (a wrong path fails at once, not after the run)
// and after it (a full disk is an error, not a silently short file).
#pragma once
#include <ostream>
#include <string>

namespace vp {

// Throws usage_error "OPTION: cannot write 'PATH': reason" if PATH cannot be opened for writing.
// Leaves no file behind that was not there before.
void check_output_file(const std::string &option, const std::string &path);

// Flushes the stream; "" if everything written reached it, else "cannot write WHAT (reason)".
std::string stream_error(std::ostream &out, const std::string &what);

}  // namespace vp
