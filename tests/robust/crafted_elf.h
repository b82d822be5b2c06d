// ELF files reproducing the loader findings of issue 12 (docs/robustness.md), built from
// tests/unit/elf_builder.h; shared by the unit tests and the make_elf tool of the e2e cases.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "elf_builder.h"
#include "rv_encode.h"
#include "tile_memory_map.h"

namespace crafted {

// Stores 0 to the exit register of simulation control, then spins: a firmware that exits with 0.
inline std::vector<uint8_t> exit_zero_code() {
    const uint32_t words[] = {enc::lui(5, TILE_SIMCTRL_BASE >> 12), enc::sw(0, 5, SIMCTRL_EXIT),
                              enc::jal(0, 0)};
    std::vector<uint8_t> b;
    for (uint32_t w : words)
        for (int i = 0; i < 4; ++i) b.push_back(uint8_t(w >> (8 * i)));
    return b;
}

// name: odd_entry (entry one byte into the code), last_byte_entry (entry at the last byte of a
// 1 MiB SRAM), no_file_data (a segment with file size 0 and one with memsz == filesz: both
// loaded, exits 0), overlap (two segments on the same bytes), double_float_abi (e_flags of an
// ilp32d ELF), vector_arch (V and Zba in .riscv.attributes), plain_arch (rv32imac attributes,
// loadable). Empty for an unknown name.
inline std::vector<uint8_t> build(const std::string &name) {
    elfb::Spec s;
    s.entry = TILE_SRAM_BASE;
    elfb::Segment code;
    code.paddr = TILE_SRAM_BASE;
    code.data = exit_zero_code();
    s.segments.push_back(code);
    if (name == "odd_entry") {
        s.entry = TILE_SRAM_BASE + 1;
    } else if (name == "last_byte_entry") {
        s.entry = TILE_SRAM_BASE + (1u << 20) - 1;
    } else if (name == "no_file_data") {
        elfb::Segment bss;  // file size 0: the loader had passed a null source to memcpy
        bss.paddr = TILE_SRAM_BASE + 0x1000;
        bss.memsz = 256;
        s.segments.push_back(bss);
        elfb::Segment data;  // memsz == filesz: no zero fill (an empty zero vector before)
        data.paddr = TILE_SRAM_BASE + 0x2000;
        data.data = {1, 2, 3, 4};
        s.segments.push_back(data);
    } else if (name == "overlap") {
        elfb::Segment twice = code;
        twice.paddr = TILE_SRAM_BASE + 4;
        s.segments.push_back(twice);
    } else if (name == "double_float_abi") {  // what an rv32gc (ilp32d) toolchain writes
        s.flags = 0x5;
    } else if (name == "vector_arch") {  // soft-float ABI, but V and Zba in the attributes
        s.riscv_arch = "rv32i2p1_m2p0_a2p1_c2p0_v1p0_zba1p0_zicsr2p0";
    } else if (name == "plain_arch") {  // what the SDK's rv32imac toolchain writes: loadable
        s.flags = 0x1;
        s.riscv_arch = "rv32i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0_zmmul1p0";
    } else {
        return {};
    }
    return elfb::build(s);
}

}  // namespace crafted
