// fuzz_seeds OUT FIRMWARE_DIR: writes the seed corpora of the fuzz targets from the project's own
// inputs, at build time: OUT/elf (the firmware ELFs), OUT/config (presets, the default document,
// --set lines), OUT/iss (firmware code under each privilege mode), OUT/na (register walks).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "elf_image.h"
#include "fuzz_formats.h"
#include "na_registers.h"
#include "vp/config.h"

namespace fs = std::filesystem;

namespace {

void write(const fs::path &file, const std::string &bytes) {
    std::ofstream(file, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string with_mode(uint8_t mode, const std::string &text) {
    return std::string(1, char(mode)) + text;
}

void config_seeds(const fs::path &dir) {
    for (const vp::preset &p : vp::config_presets()) {
        write(dir / ("preset_" + p.name + ".json"),
              with_mode(fuzz::config_file, p.settings.dump(2)));
        write(dir / ("preset_" + p.name + ".set"),
              with_mode(fuzz::config_preset, p.name + "\nmesh.width=2\ntile.cores=2\n"));
    }
    write(dir / "default.json",
          with_mode(fuzz::config_file, vp::config_builder().build().effective.dump(2)));
    std::string sets;
    for (const vp::config_key &k : vp::config_schema()) {
        const bool text = k.kind == vp::value_kind::string;
        sets += k.path + "=" + (text ? k.default_value.get<std::string>() : k.default_value.dump());
        sets += "\n";
    }
    write(dir / "every_key.set", with_mode(fuzz::config_set_lines, sets));
}

std::string header(uint32_t priv, uint32_t satp) {
    fuzz::iss_header h;
    std::memset(&h, 0, sizeof h);
    for (unsigned r = 1; r < 32; ++r) h.x[r] = fuzz::iss_ram_base + 0x8000 + 4 * r;
    h.priv = priv;
    h.mtvec = fuzz::iss_ram_base + 4;
    h.stvec = fuzz::iss_ram_base + 4;
    h.satp = satp;
    return std::string(reinterpret_cast<const char *>(&h), sizeof h);
}

void iss_seeds(const fs::path &dir, const std::vector<fs::path> &elfs) {
    unsigned n = 0;
    for (const fs::path &f : elfs) {
        if (n >= 12) break;  // a few programs are enough variety for a start
        char err[256];
        elf_image *img = elf_image_open(f.c_str(), err, sizeof err);
        if (!img) continue;
        const elf_segment *s = elf_image_segment(img, 0);
        if (s && s->filesz) {
            const std::string code(reinterpret_cast<const char *>(s->data),
                                   std::min<uint32_t>(s->filesz, 4096));
            for (uint32_t priv : {3u, 1u, 0u})
                write(dir / (f.stem().string() + "_priv" + std::to_string(priv)),
                      header(priv, 0) + code);
            // Sv32 on, root table inside the code: translation faults and odd mappings
            write(dir / (f.stem().string() + "_sv32"),
                  header(1, 0x80000000u | (fuzz::iss_ram_base >> 12)) + code);
            ++n;
        }
        elf_image_close(img);
    }
}

std::string record(unsigned tile, fuzz::na_region region, bool write, unsigned index,
                   uint32_t offset, uint32_t value) {
    fuzz::na_record r;
    r.control = uint8_t(tile | region << 1 | (write ? 0x10 : 0) | 2u << 5);
    r.index = uint8_t(index);
    r.offset[0] = uint8_t(offset);
    r.offset[1] = uint8_t(offset >> 8);
    std::memcpy(r.value, &value, 4);
    return std::string(reinterpret_cast<const char *>(&r), sizeof r);
}

void na_seeds(const fs::path &dir) {
    using fuzz::na_region;
    // every word of the status, interrupt and first DMA / NoC-buffer / NAMP-slot pages
    for (na_region region :
         {fuzz::na_status, fuzz::na_irq, fuzz::na_nocbuf, fuzz::na_dma, fuzz::na_namp_slot}) {
        std::string reads;
        for (uint32_t off = 0; off < 0x40; off += 4) reads += record(0, region, false, 0, off, 0);
        write(dir / ("read_region" + std::to_string(unsigned(region))), reads);
    }
    // a DMA put of 64 bytes to tile 1, then status polls
    std::string dma = record(0, fuzz::na_sram_or_wait, true, 0, 0x100, 0x11223344);
    dma += record(0, fuzz::na_dma, true, 0, DMA_LOCAL_ADDR, 0x80000100u);
    dma += record(0, fuzz::na_dma, true, 0, DMA_REMOTE_TILE, 1);
    dma += record(0, fuzz::na_dma, true, 0, DMA_REMOTE_ADDR, 0x80000200u);
    dma += record(0, fuzz::na_dma, true, 0, DMA_SIZE, 64);
    dma += record(0, fuzz::na_dma, true, 0, DMA_CONTROL, DMA_CTRL_START);
    for (int i = 0; i < 8; ++i) dma += record(0, fuzz::na_dma, false, 0, DMA_STATUS, 0);
    write(dir / "dma_put", dma);
    // a NAMP slot programmed with a handle in SRAM and started
    std::string namp = record(0, fuzz::na_sram_or_wait, true, 0, 0x400, 0x00010001);
    namp += record(0, fuzz::na_namp_slot, true, 0, NAMP_SLOT_PARAM1, 0x80000400u);
    namp += record(0, fuzz::na_namp_slot, true, 0, NAMP_SLOT_PARAM2, 0x80000800u);
    namp += record(0, fuzz::na_namp_slot, true, 0, NAMP_SLOT_PARAM3, 32);
    namp += record(0, fuzz::na_namp_slot, true, 0, NAMP_SLOT_FLAGS, 1);
    for (int i = 0; i < 8; ++i)
        namp += record(0, fuzz::na_namp_slot, false, 0, NAMP_SLOT_STATUS, 0);
    write(dir / "namp_slot", namp);
    // RMA loads and stores to both tiles
    std::string rma;
    for (unsigned t = 0; t < 2; ++t) {
        rma += record(0, fuzz::na_rma, true, t, 0x40, 0xcafe0000u + t);
        rma += record(1, fuzz::na_rma, false, t, 0x40, 0);
    }
    write(dir / "rma", rma);
}

// GDB sessions: what gdb-multiarch sends when it connects, reads, steps, sets points and
// continues, an interrupted run, monitor commands, and framing faults.
std::string packet(const std::string &body) {
    unsigned sum = 0;
    for (char c : body) sum += uint8_t(c);
    char tail[4];
    std::snprintf(tail, sizeof tail, "#%02x", sum & 0xff);
    return "$" + body + tail;
}

std::string hex(const std::string &text) {
    std::string out;
    char b[3];
    for (char c : text) {
        std::snprintf(b, sizeof b, "%02x", uint8_t(c));
        out += b;
    }
    return out;
}

void gdb_seeds(const fs::path &dir) {
    const std::string connect =
        "+" + packet("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+") +
        packet("vCont?") + packet("qXfer:features:read:target.xml:0,ffb") + packet("?") +
        packet("qfThreadInfo") + packet("qsThreadInfo") + packet("qC") + packet("qAttached") +
        packet("Hg1") + packet("g");
    write(dir / "connect", connect);
    write(dir / "read", connect + packet("m80000000,40") + packet("p20") + packet("p341") +
                            packet("p1041") + packet("qThreadExtraInfo,1") +
                            packet("qXfer:threads:read::0,1000"));
    write(dir / "step", connect + packet("Z0,80000010,2") + packet("vCont;s:1") + packet("g") +
                            packet("vCont;c:1;t") + packet("z0,80000010,2"));
    write(dir / "watch", connect + packet("Z2,80001000,4") + packet("Z3,80001000,4") +
                             packet("Z4,80001000,4") + packet("vCont;c") + "\x03" + packet("?"));
    write(dir / "interrupt",
          connect + packet("vCont;c") + "\x03" + packet("g") + packet("c") + "\x03");
    write(dir / "monitor", connect + packet("qRcmd," + hex("help")) +
                               packet("qRcmd," + hex("cores")) + packet("qRcmd," + hex("stats")) +
                               packet("qRcmd," + hex("tile 0 json")) +
                               packet("qRcmd," + hex("reset")) + packet("qRcmd," + hex("na 0")));
    write(dir / "framing", std::string("\x00\xff+-") + "$g#00" + "$m0,4#zz" + "$" +
                               std::string(300, 'A') + "#00" + packet("D"));
    write(dir / "running_stream",
          connect + packet("vCont;c") + "$" + std::string(2000, 'B') + "\x03");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::cerr << "usage: fuzz_seeds OUT FIRMWARE_DIR\n";
        return 2;
    }
    const fs::path out = argv[1];
    std::vector<fs::path> elfs;
    for (const auto &e : fs::directory_iterator(argv[2]))
        if (e.path().extension() == ".elf") elfs.push_back(e.path());
    std::sort(elfs.begin(), elfs.end());
    if (elfs.empty()) {
        std::cerr << "fuzz_seeds: no firmware ELF in " << argv[2] << "\n";
        return 1;
    }
    for (const char *d : {"elf", "config", "iss", "na", "gdb"}) {
        fs::remove_all(out / d);  // only what this run writes: seeds are not a working corpus
        fs::create_directories(out / d);
    }
    for (const fs::path &f : elfs)
        fs::copy_file(f, out / "elf" / f.filename(), fs::copy_options::overwrite_existing);
    config_seeds(out / "config");
    iss_seeds(out / "iss", elfs);
    na_seeds(out / "na");
    gdb_seeds(out / "gdb");
    return 0;
}
