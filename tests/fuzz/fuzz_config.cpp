// libFuzzer target: the configuration loader (files and --set values, fuzz_formats.h). Every
// input must end in a platform_config or a config_error; anything else escapes and is a crash.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_formats.h"
#include "vp/config.h"

namespace {

void load_config(const std::string &text, uint8_t mode) {
    vp::config_builder b;
    std::istringstream lines(text);
    std::string line;
    switch (mode % 3) {
    case fuzz::config_file: b.apply_text(text, "fuzz.json"); break;
    case fuzz::config_preset:
        std::getline(lines, line);
        b.apply_preset(line);
        [[fallthrough]];
    case fuzz::config_set_lines:
        while (std::getline(lines, line)) b.apply_override(line);
        break;
    }
    const vp::platform_config c = b.build();
    (void)c.effective.dump();  // what the statistics write: must not throw
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    try {
        load_config(std::string(reinterpret_cast<const char *>(data + 1), size - 1), data[0]);
    } catch (const vp::config_error &) {
    }
    return 0;
}
