#include "vp/firmware.h"

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
}

firmware_image::~firmware_image() { elf_image_close(image_); }

uint32_t firmware_image::entry() const { return elf_image_entry(image_); }

void firmware_image::load_into(tiles::tile &tile) const {
    tiles::sram &mem = tile.memory();
    const uint64_t base = TILE_SRAM_BASE, end = base + mem.size();
    for (size_t i = 0; i < elf_image_segment_count(image_); ++i) {
        const elf_segment *seg = elf_image_segment(image_, i);
        if (seg->memsz == 0) continue;
        if (seg->paddr < base || uint64_t(seg->paddr) + seg->memsz > end)
            throw firmware_error(path_ + ": segment " + std::to_string(i) + " at " +
                                 hex(seg->paddr) + " (" + std::to_string(seg->memsz) +
                                 " bytes) lies outside the tile SRAM [" + hex(base) + ", " +
                                 hex(end) + ")");
        const uint32_t offset = seg->paddr - TILE_SRAM_BASE;
        mem.load(offset, seg->data, seg->filesz);
        const std::vector<uint8_t> zeros(seg->memsz - seg->filesz, 0);
        mem.load(offset + seg->filesz, zeros.data(), uint32_t(zeros.size()));
    }
    const uint32_t pc = entry();
    if (pc < base || pc >= end)
        throw firmware_error(path_ + ": entry point " + hex(pc) + " lies outside the tile SRAM");
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
    const unsigned long tile = std::stoul(argument.substr(0, eq));
    if (tile >= tile_count)
        throw firmware_error("--firmware " + argument + ": there is no tile " +
                             std::to_string(tile) + " (the mesh has " +
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
