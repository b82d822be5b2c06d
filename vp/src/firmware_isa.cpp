// Does the ELF fit the cores? They are rv32imac (Zicsr, Zifencei) without an FPU: an ELF built
// for a float ABI or for extensions they lack is refused before the run, naming what it needs,
// instead of ending in an illegal-instruction trap or a lockup.
#include <cctype>
#include <sstream>
#include <vector>

#include "vp/firmware.h"

namespace vp {

namespace {

// Extensions of a Tag_RISCV_arch string ("rv32i2p1_m2p0_a2p1_f2p2_zicsr2p0"), without versions.
std::vector<std::string> extensions(const std::string &arch) {
    std::vector<std::string> out;
    if (arch.compare(0, 4, "rv32") != 0) return {arch};  // rv64, or not an arch string at all
    std::istringstream in(arch.substr(4));
    std::string part;
    bool first = true;
    while (std::getline(in, part, '_')) {
        size_t end = part.find_first_of("0123456789");
        std::string name = part.substr(0, end);
        if (first || name.size() == 1 || name.empty()) {
            // single letters, each with an optional version: "i2p1", or old "imac"
            for (size_t i = 0; i < part.size(); ++i) {
                const char c = part[i];
                if (c >= 'a' && c <= 'z' && !(i > 0 && c == 'p' && std::isdigit(part[i - 1])))
                    out.emplace_back(1, c);
            }
        } else {
            out.push_back(name);
        }
        first = false;
    }
    return out;
}

bool implemented(const std::string &ext) {
    static const char *const have[] = {"i",        "e",     "m",     "a",      "c",   "zicsr",
                                       "zifencei", "zmmul", "zaamo", "zalrsc", "zca", "zicntr"};
    for (const char *h : have)
        if (ext == h) return true;
    return false;
}

}  // namespace

std::string firmware_isa_error(const elf_image *image) {
    static const char *const abi[] = {"", "single-precision", "double-precision", "quad-precision"};
    const uint32_t float_abi = (elf_image_flags(image) >> 1) & 3u;
    if (float_abi) {
        std::ostringstream s;
        s << "the ELF uses the " << abi[float_abi] << " floating-point ABI (e_flags 0x" << std::hex
          << elf_image_flags(image) << "); the cores are rv32imac without an FPU: build with "
          << "-march=rv32imac -mabi=ilp32";
        return s.str();
    }
    char arch[256];
    if (elf_image_riscv_arch(image, arch, sizeof arch) != 0) return "";  // no attributes: trust it
    std::string missing;
    for (const std::string &ext : extensions(arch))
        if (!implemented(ext)) missing += (missing.empty() ? "" : ", ") + ext;
    if (missing.empty()) return "";
    return "the ELF needs extensions the cores lack: " + missing + " (its architecture is " + arch +
           "; the cores are rv32imac with Zicsr and Zifencei)";
}

}  // namespace vp
