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

std::string firmware_image::symbol_at(uint32_t pc) const {
    char name[128];
    uint32_t offset = 0;
    if (elf_image_symbol_at(image_, pc, name, sizeof name, &offset) != 0) return "";
    if (!offset) return name;
    std::ostringstream s;
    s << name << "+0x" << std::hex << offset;
    return s.str();
}

namespace {
// What the image was linked for against what the tile has, and the two ways to agree.
std::string sram_hint(const elf_image *image, uint32_t sram_size) {
    uint32_t linked = 0, top = 0;
    if (elf_image_symbol(image, "NAMP_SRAM_SIZE", &linked) != 0) {
        if (elf_image_symbol(image, "__stack_top", &top) != 0 || top <= TILE_SRAM_BASE) return "";
        linked = top - TILE_SRAM_BASE;
    }
    if (linked <= sram_size) return "";
    return ": the image is linked for an SRAM of " + std::to_string(linked) +
           " bytes, the tile has " + std::to_string(sram_size) + " (tile.sram_size); link it for " +
           std::to_string(sram_size) + " (namp-mpicc --sram " + std::to_string(sram_size) +
           ", -Wl,--defsym=NAMP_SRAM_SIZE=" + std::to_string(sram_size) +
           ") or run with --set "
           "tile.sram_size=" +
           std::to_string(linked);
}
}  // namespace

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
        if (start < base || stop > end)
            return name + " lies outside " + sram + sram_hint(image, sram_size);
        for (size_t j = 0; j < placed.size(); ++j)
            if (start < placed[j].second && placed[j].first < stop)
                return name + " overlaps an earlier segment at " + hex(placed[j].first);
        placed.emplace_back(start, stop);
    }
    // Sections that take memory but no file space (.bss, NOLOAD) need not be in a segment.
    const char *sname = nullptr;
    uint32_t saddr = 0, ssize = 0;
    for (size_t i = 0; elf_image_alloc_section(image, i, &sname, &saddr, &ssize) == 0; ++i)
        if (saddr < base || uint64_t(saddr) + ssize > end)
            return "section " + std::string(sname) + " at " + hex(saddr) + " (" +
                   std::to_string(ssize) + " bytes) lies outside " + sram +
                   sram_hint(image, sram_size);
    // The stacks are symbols, not a section (tile.ld, kernel.ld): an image linked for a larger SRAM
    // has them past the end of this one, and every core would fault on its first push.
    uint32_t top = 0;
    if (elf_image_symbol(image, "__stack_top", &top) == 0 && (top <= base || top > end))
        return "its stacks end at " + hex(top) + " (__stack_top), outside " + sram +
               sram_hint(image, sram_size);
    const uint32_t pc = elf_image_entry(image);
    if (pc < base || pc >= end) return "entry point " + hex(pc) + " lies outside " + sram;
    // RISC-V with C has 2-byte instruction alignment; an odd pc cannot be fetched.
    if (pc & 1u) return "entry point " + hex(pc) + " is not 2-byte aligned";
    return "";
}

std::string firmware_image::layout_error(uint32_t sram_size) const {
    return firmware_layout_error(image_, sram_size);
}

void firmware_image::load_into(tiles::tile &tile, const std::vector<std::string> &argv) const {
    tiles::sram &mem = tile.memory();
    const std::string error = firmware_layout_error(image_, mem.size());
    if (!error.empty()) throw firmware_error(path_ + ": " + error);
    uint32_t args = 0, args_end = 0;
    std::vector<uint8_t> block;
    if (elf_image_symbol(image_, "namp_args", &args) == 0 &&
        elf_image_symbol(image_, "namp_args_end", &args_end) == 0 && args_end > args &&
        args >= TILE_SRAM_BASE && args_end - TILE_SRAM_BASE <= mem.size())
        block = build_args_block(argv, args, args_end - args);
    else if (argv.size() > 1)
        throw firmware_error(path_ +
                             ": --args given, but the firmware has no argument block "
                             "(namp_args: link it with the SDK's start-up code)");
    for (size_t i = 0; i < elf_image_segment_count(image_); ++i) {
        const elf_segment *seg = elf_image_segment(image_, i);
        const uint32_t offset = seg->paddr - TILE_SRAM_BASE;
        if (seg->filesz != 0) mem.load(offset, seg->data, seg->filesz);
        if (seg->memsz > seg->filesz) {
            const std::vector<uint8_t> zeros(seg->memsz - seg->filesz, 0);
            mem.load(offset + seg->filesz, zeros.data(), uint32_t(zeros.size()));
        }
    }
    if (!block.empty()) mem.load(args - TILE_SRAM_BASE, block.data(), uint32_t(block.size()));
}

std::vector<uint8_t> build_args_block(const std::vector<std::string> &argv, uint32_t address,
                                      uint32_t capacity) {
    uint64_t strings = 4 * (argv.size() + 2), size = strings;
    for (const std::string &a : argv) size += a.size() + 1;
    if (size > capacity)
        throw firmware_error("--args: " + std::to_string(size) +
                             " bytes of arguments, the "
                             "firmware's block holds " +
                             std::to_string(capacity));
    std::vector<uint8_t> b(size_t(size), 0);
    auto word = [&b](size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
    };
    word(0, uint32_t(argv.size()));
    size_t at = size_t(strings);
    for (size_t i = 0; i < argv.size(); ++i) {
        word(4 * (i + 1), address + uint32_t(at));
        std::copy(argv[i].begin(), argv[i].end(), b.begin() + long(at));
        at += argv[i].size() + 1;
    }
    return b;
}

std::vector<std::string> split_args(const std::string &text) {
    std::vector<std::string> out;
    std::string cur;
    bool in_word = false;
    char quote = 0;
    for (char c : text) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                cur += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(cur);
            cur.clear();
            in_word = false;
        } else {
            cur += c;
            in_word = true;
        }
    }
    if (quote) throw firmware_error("--args: unterminated quote in '" + text + "'");
    if (in_word) out.push_back(cur);
    return out;
}

std::shared_ptr<firmware_image> firmware_map::open(const std::string &path) {
    auto it = opened_.find(path);
    if (it != opened_.end()) return it->second;
    auto image = std::make_shared<firmware_image>(path);
    opened_[path] = image;
    return image;
}

namespace {
// "TILE=VALUE" (TILE: digits) gives the tile and VALUE; anything else is for all tiles (-1).
int64_t tile_prefix(const std::string &option, const std::string &argument, unsigned tile_count,
                    std::string &value) {
    const auto eq = argument.find('=');
    const bool has_tile =
        eq != std::string::npos && eq > 0 && argument.find_first_not_of("0123456789") == eq;
    value = has_tile ? argument.substr(eq + 1) : argument;
    if (!has_tile) return -1;
    // Digits only (checked above); saturate instead of overflowing, so any huge id is "no tile".
    const std::string digits = argument.substr(0, eq);
    uint64_t tile = 0;
    for (char c : digits) tile = std::min<uint64_t>(tile * 10 + uint64_t(c - '0'), UINT32_MAX);
    if (tile >= tile_count)
        throw firmware_error(option + " " + argument + ": there is no tile " + digits +
                             " (the mesh has " + std::to_string(tile_count) + " tiles, ids 0.." +
                             std::to_string(tile_count - 1) + ")");
    return int64_t(tile);
}
}  // namespace

void firmware_map::add(const std::string &argument, unsigned tile_count) {
    std::string path;
    const int64_t tile = tile_prefix("--firmware", argument, tile_count, path);
    if (tile < 0) {
        if (all_) throw firmware_error("--firmware given twice for all tiles");
        all_ = open(path);
        return;
    }
    if (per_tile_.count(unsigned(tile)))
        throw firmware_error("--firmware given twice for tile " + std::to_string(tile));
    per_tile_[unsigned(tile)] = open(path);
}

void firmware_map::add_args(const std::string &argument, unsigned tile_count) {
    std::string text;
    const int64_t tile = tile_prefix("--args", argument, tile_count, text);
    split_args(text);  // a malformed argument string is an input error now, not at load time
    if (tile < 0) {
        if (have_all_args_) throw firmware_error("--args given twice for all tiles");
        all_args_ = text;
        have_all_args_ = true;
        return;
    }
    if (per_tile_args_.count(unsigned(tile)))
        throw firmware_error("--args given twice for tile " + std::to_string(tile));
    per_tile_args_[unsigned(tile)] = text;
}

std::vector<std::string> firmware_map::argv_for(unsigned tile) const {
    std::vector<std::string> argv;
    const firmware_image *image = for_tile(tile);
    argv.push_back(image ? image->path() : "");
    auto it = per_tile_args_.find(tile);
    const std::vector<std::string> rest =
        split_args(it != per_tile_args_.end() ? it->second : all_args_);
    argv.insert(argv.end(), rest.begin(), rest.end());
    return argv;
}

const firmware_image *firmware_map::for_tile(unsigned tile) const {
    auto it = per_tile_.find(tile);
    if (it != per_tile_.end()) return it->second.get();
    return all_.get();
}

}  // namespace vp
