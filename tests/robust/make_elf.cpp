// make_elf NAME OUT.elf: writes one of the crafted ELF files (crafted_elf.h) for the e2e tests.
#include <cstdio>
#include <fstream>

#include "crafted_elf.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: make_elf NAME OUT.elf\n");
        return 2;
    }
    const std::vector<uint8_t> bytes = crafted::build(argv[1]);
    if (bytes.empty()) {
        std::fprintf(stderr, "make_elf: unknown case '%s'\n", argv[1]);
        return 2;
    }
    std::ofstream out(argv[2], std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    return out ? 0 : 1;
}
