// Builds minimal ELF32 files byte by byte for the elf_image tests (no cross compiler needed).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace elfb {

struct Segment {
    uint32_t type = 1;  // PT_LOAD
    uint32_t paddr = 0;
    std::vector<uint8_t> data;
    uint32_t memsz = 0;  // 0: same as data.size()
};

struct Symbol {
    std::string name;
    uint32_t value = 0;
    uint16_t shndx = 0xfff1;  // SHN_ABS; 0 = undefined
};

struct Spec {
    uint8_t elf_class = 1;   // ELFCLASS32
    uint8_t data_enc = 1;    // ELFDATA2LSB
    uint16_t type = 2;       // ET_EXEC
    uint16_t machine = 243;  // EM_RISCV
    uint32_t entry = 0x80000000u;
    std::vector<Segment> segments;
    std::vector<Symbol> symbols;  // empty: no section headers at all (unless riscv_arch)
    uint32_t flags = 0;           // e_flags (RISC-V: bit 0 RVC, bits 1-2 float ABI)
    std::string riscv_arch;  // a .riscv.attributes section with this Tag_RISCV_arch (no symbols)
};

// The .riscv.attributes contents: format 'A', one "riscv" subsection, one File group, Tag_RISCV_arch.
inline std::vector<uint8_t> riscv_attributes(const std::string &arch) {
    std::vector<uint8_t> file_group{1, 0, 0, 0, 0, 5};  // Tag_File, length (below), Tag_RISCV_arch
    file_group.insert(file_group.end(), arch.begin(), arch.end());
    file_group.push_back(0);
    for (int i = 0; i < 4; i++) file_group[1 + i] = uint8_t(file_group.size() >> (8 * i));
    std::vector<uint8_t> sub{0, 0, 0, 0, 'r', 'i', 's', 'c', 'v', 0};
    sub.insert(sub.end(), file_group.begin(), file_group.end());
    for (int i = 0; i < 4; i++) sub[i] = uint8_t(sub.size() >> (8 * i));
    std::vector<uint8_t> out{'A'};
    out.insert(out.end(), sub.begin(), sub.end());
    return out;
}

inline void put16(std::vector<uint8_t> &b, size_t off, uint16_t v) {
    b[off] = uint8_t(v);
    b[off + 1] = uint8_t(v >> 8);
}
inline void put32(std::vector<uint8_t> &b, size_t off, uint32_t v) {
    for (int i = 0; i < 4; i++) b[off + i] = uint8_t(v >> (8 * i));
}
inline size_t align4(size_t v) { return (v + 3) & ~size_t(3); }

// Layout: ELF header, program headers, segment data, [.strtab, .symtab, .shstrtab, section headers].
inline std::vector<uint8_t> build(const Spec &s) {
    const size_t ehsz = 52, phsz = 32, shsz = 40, symsz = 16;
    std::vector<uint8_t> b(ehsz + phsz * s.segments.size(), 0);
    std::vector<size_t> seg_off;
    for (const auto &seg : s.segments) {
        b.resize(align4(b.size()), 0);
        seg_off.push_back(b.size());
        b.insert(b.end(), seg.data.begin(), seg.data.end());
    }
    size_t shoff = 0, shnum = 0, shstrndx = 0;
    // section header idx of the table at shoff
    const auto sh = [&](size_t idx, uint32_t name, uint32_t type, size_t off, size_t size,
                        uint32_t link = 0, uint32_t info = 0, uint32_t entsize = 0) {
        const size_t e = shoff + idx * shsz;
        put32(b, e + 0, name);
        put32(b, e + 4, type);
        put32(b, e + 16, uint32_t(off));
        put32(b, e + 20, uint32_t(size));
        put32(b, e + 24, link);
        put32(b, e + 28, info);
        put32(b, e + 32, 1);
        put32(b, e + 36, entsize);
    };
    if (!s.symbols.empty()) {
        std::string strtab(1, '\0');
        std::vector<uint32_t> name_off;
        for (const auto &sym : s.symbols) {
            name_off.push_back(uint32_t(strtab.size()));
            strtab += sym.name;
            strtab += '\0';
        }
        b.resize(align4(b.size()), 0);
        size_t strtab_off = b.size();
        b.insert(b.end(), strtab.begin(), strtab.end());
        b.resize(align4(b.size()), 0);
        size_t symtab_off = b.size();
        size_t nsym = s.symbols.size() + 1;
        b.resize(b.size() + nsym * symsz, 0);
        for (size_t i = 0; i < s.symbols.size(); i++) {
            size_t e = symtab_off + (i + 1) * symsz;
            put32(b, e + 0, name_off[i]);
            put32(b, e + 4, s.symbols[i].value);
            put32(b, e + 8, 0);
            b[e + 12] = (1 << 4) | 0;  // STB_GLOBAL, STT_NOTYPE
            b[e + 13] = 0;
            put16(b, e + 14, s.symbols[i].shndx);
        }
        const char shstr[] = "\0.symtab\0.strtab\0.shstrtab\0";  // offsets 1, 9, 17
        size_t shstr_off = b.size();
        b.insert(b.end(), shstr, shstr + sizeof shstr);
        b.resize(align4(b.size()), 0);
        shoff = b.size();
        shnum = 4;
        shstrndx = 3;
        b.resize(b.size() + shnum * shsz, 0);
        sh(1, 1, 2 /*SHT_SYMTAB*/, symtab_off, nsym * symsz, 2, 1, symsz);
        sh(2, 9, 3 /*SHT_STRTAB*/, strtab_off, strtab.size());
        sh(3, 17, 3 /*SHT_STRTAB*/, shstr_off, sizeof shstr);
    }
    if (s.symbols.empty() && !s.riscv_arch.empty()) {
        const std::vector<uint8_t> attr = riscv_attributes(s.riscv_arch);
        const size_t attr_off = b.size();
        b.insert(b.end(), attr.begin(), attr.end());
        const char shstr[] = "\0.riscv.attributes\0.shstrtab\0";  // offsets 1, 19
        const size_t shstr_off = b.size();
        b.insert(b.end(), shstr, shstr + sizeof shstr);
        b.resize(align4(b.size()), 0);
        shoff = b.size();
        shnum = 3;
        shstrndx = 2;
        b.resize(b.size() + shnum * shsz, 0);
        sh(1, 1, 0x70000003 /*SHT_RISCV_ATTRIBUTES*/, attr_off, attr.size());
        sh(2, 19, 3 /*SHT_STRTAB*/, shstr_off, sizeof shstr);
    }
    // ELF header
    b[0] = 0x7f;
    b[1] = 'E';
    b[2] = 'L';
    b[3] = 'F';
    b[4] = s.elf_class;
    b[5] = s.data_enc;
    b[6] = 1;  // EV_CURRENT
    put16(b, 16, s.type);
    put16(b, 18, s.machine);
    put32(b, 20, 1);
    put32(b, 24, s.entry);
    put32(b, 28, s.segments.empty() ? 0 : uint32_t(ehsz));
    put32(b, 32, uint32_t(shoff));
    put32(b, 36, s.flags);
    put16(b, 40, uint16_t(ehsz));
    put16(b, 42, uint16_t(phsz));
    put16(b, 44, uint16_t(s.segments.size()));
    put16(b, 46, uint16_t(shsz));
    put16(b, 48, uint16_t(shnum));
    put16(b, 50, uint16_t(shstrndx));
    for (size_t i = 0; i < s.segments.size(); i++) {
        const auto &seg = s.segments[i];
        size_t e = ehsz + i * phsz;
        put32(b, e + 0, seg.type);
        put32(b, e + 4, uint32_t(seg_off[i]));
        put32(b, e + 8, seg.paddr);
        put32(b, e + 12, seg.paddr);
        put32(b, e + 16, uint32_t(seg.data.size()));
        put32(b, e + 20, seg.memsz ? seg.memsz : uint32_t(seg.data.size()));
        put32(b, e + 24, 7);
        put32(b, e + 28, 4);
    }
    return b;
}

}  // namespace elfb
