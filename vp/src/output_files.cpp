#include "vp/output_files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vp/cli.h"

namespace vp {

void check_output_file(const std::string &option, const std::string &path) {
    struct stat st;
    const bool existed = ::stat(path.c_str(), &st) == 0;
    // O_APPEND without O_TRUNC: an existing file keeps its contents until the run writes it.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0)
        throw usage_error(option + ": cannot write '" + path + "': " + std::strerror(errno));
    ::close(fd);
    if (!existed) ::unlink(path.c_str());
}

std::string stream_error(std::ostream &out, const std::string &what) {
    errno = 0;
    out.flush();
    if (out) return "";
    const int e = errno;
    return "cannot write " + what + (e ? std::string(" (") + std::strerror(e) + ")" : "");
}

}  // namespace vp
