#include "vp/firmware.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "tile_memory_map.h"

namespace vp {

namespace {
std::string hex(uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}
}  // namespace

firmware_image::firmware_image(const std::string &path) : path_(path) {
    char err[256] = {0};
    image_ = elf_image_open(path.c_str(), err, sizeof err);
    if (!image_) throw firmware_error(path + ": " + err);
    const std::string isa = firmware_isa_error(image_);
    if (!isa.empty()) {
        elf_image_close(image_);
        image_ = nullptr;
        throw firmware_error(path + ": " + isa);
    }
}

firmware_image::~firmware_image() { elf_image_close(image_); }

uint32_t firmware_image::entry() const { return elf_image_entry(image_); }

std::string firmware_layout_error(const elf_image *image, uint32_t sram_size) {
    const uint64_t base = TILE_SRAM_BASE, end = base + sram_size;
    const std::string sram = "the tile SRAM [" + hex(base) + ", " + hex(end) + ")";
    // [start, end) of the segments checked so far, for the overlap rule
    std::vector<std::pair<uint64_t, uint64_t>> placed;
    for (size_t i = 0; i < elf_image_segment_count(image); ++i) {
        const elf_segment *seg = elf_image_segment(image, i);
        if (seg->memsz == 0) continue;
        const uint64_t start = seg->paddr, stop = start + seg->memsz;
        const std::string name = "segment " + std::to_string(i) + " at " + hex(start) + " (" +
                                 std::to_string(seg->memsz) + " bytes)";
        if (start < base || stop > end) return name + " lies outside " + sram;
        for (size_t j = 0; j < placed.size(); ++j)
            if (start < placed[j].second && placed[j].first < stop)
                return name + " overlaps an earlier segment at " + hex(placed[j].first);
        placed.emplace_back(start, stop);
    }
    const uint32_t pc = elf_image_entry(image);
    if (pc < base || pc >= end) return "entry point " + hex(pc) + " lies outside " + sram;
    // RISC-V with C has 2-byte instruction alignment; an odd pc cannot be fetched.
    if (pc & 1u) return "entry point " + hex(pc) + " is not 2-byte aligned";
    return "";
}

std::string firmware_image::layout_error(uint32_t sram_size) const {
    return firmware_layout_error(image_, sram_size);
}

void firmware_image::load_into(tiles::tile &tile) const {
    tiles::sram &mem = tile.memory();
    const std::string error = firmware_layout_error(image_, mem.size());
    if (!error.empty()) throw firmware_error(path_ + ": " + error);
    for (size_t i = 0; i < elf_image_segment_count(image_); ++i) {
        const elf_segment *seg = elf_image_segment(image_, i);
        const uint32_t offset = seg->paddr - TILE_SRAM_BASE;
        if (seg->filesz != 0) mem.load(offset, seg->data, seg->filesz);
        if (seg->memsz > seg->filesz) {
            const std::vector<uint8_t> zeros(seg->memsz - seg->filesz, 0);
            mem.load(offset + seg->filesz, zeros.data(), uint32_t(zeros.size()));
        }
    }
}

std::shared_ptr<firmware_image> firmware_map::open(const std::string &path) {
    auto it = opened_.find(path);
    if (it != opened_.end()) return it->second;
    auto image = std::make_shared<firmware_image>(path);
    opened_[path] = image;
    return image;
}

void firmware_map::add(const std::string &argument, unsigned tile_count) {
    const auto eq = argument.find('=');
    const bool has_tile = eq != std::string::npos && eq > 0 &&
                          argument.find_first_not_of("0123456789") == eq;
    if (!has_tile) {
        if (all_) throw firmware_error("--firmware given twice for all tiles");
        all_ = open(argument);
        return;
    }
    // Digits only (checked above); saturate instead of overflowing, so any huge id is "no tile".
    const std::string digits = argument.substr(0, eq);
    uint64_t tile = 0;
    for (char c : digits) tile = std::min<uint64_t>(tile * 10 + uint64_t(c - '0'), UINT32_MAX);
    if (tile >= tile_count)
        throw firmware_error("--firmware " + argument + ": there is no tile " + digits +
                             " (the mesh has " +
                             std::to_string(tile_count) + " tiles, ids 0.." +
                             std::to_string(tile_count - 1) + ")");
    if (per_tile_.count(unsigned(tile)))
        throw firmware_error("--firmware given twice for tile " + std::to_string(tile));
    per_tile_[unsigned(tile)] = open(argument.substr(eq + 1));
}

const firmware_image *firmware_map::for_tile(unsigned tile) const {
    auto it = per_tile_.find(tile);
    if (it != per_tile_.end()) return it->second.get();
    return all_.get();
}

}  // namespace vp
