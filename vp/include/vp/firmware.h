// Firmware images: which ELF runs on which tile, and loading an ELF into a tile's SRAM.
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "elf_image.h"
#include "tiles/tile.h"

namespace vp {

struct firmware_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The ELF segment rules of docs/robustness.md against a tile SRAM of sram_size bytes: every
// segment with a memory size lies inside the SRAM, no two overlap, the entry point is a 2-byte
// aligned SRAM address. Returns "" or what is wrong, naming the segment (by program-header order).
std::string firmware_layout_error(const elf_image *image, uint32_t sram_size);

// Whether the ELF fits the cores (rv32imac, no FPU): "" or what it needs that they lack, from the
// float ABI in e_flags and the extensions in .riscv.attributes (firmware_isa.cpp).
std::string firmware_isa_error(const elf_image *image);

// An opened, validated ELF file.
class firmware_image {
public:
    explicit firmware_image(const std::string &path);  // throws firmware_error
    ~firmware_image();
    firmware_image(const firmware_image &) = delete;
    firmware_image &operator=(const firmware_image &) = delete;

    const std::string &path() const { return path_; }
    uint32_t entry() const;
    bool symbol(const char *name, uint32_t &value) const {  // a defined symbol of the ELF
        return elf_image_symbol(image_, name, &value) == 0;
    }
    // "main+0x1c": the function pc lies in, or "" (monitor where).
    std::string symbol_at(uint32_t pc) const;
    // Copies every loadable segment into the tile SRAM; throws (before copying anything) if the
    // image breaks a rule of firmware_layout_error. argv (argv[0] first) goes into the image's
    // argument block (symbols namp_args..namp_args_end, sw/runtime/crt0.S) for crt0 to pass to
    // main; an image without the block takes only an argv of argv[0] (nothing is written).
    void load_into(tiles::tile &tile, const std::vector<std::string> &argv) const;
    // What load_into would refuse for a tile SRAM of sram_size bytes, or "".
    std::string layout_error(uint32_t sram_size) const;

private:
    std::string path_;
    elf_image *image_ = nullptr;
};

// The argument block crt0 reads: argc, argv[0..argc-1] as SRAM addresses, NULL, the strings.
// Throws firmware_error if it does not fit into `capacity` bytes.
std::vector<uint8_t> build_args_block(const std::vector<std::string> &argv, uint32_t address,
                                      uint32_t capacity);
// "a 'b c' d" -> {a, "b c", d}: words separated by blanks, single or double quotes group.
std::vector<std::string> split_args(const std::string &text);

// --firmware arguments: "ELF" for every tile, or "TILE=ELF" for one tile (by tile id); --args the
// same with the arguments of main().
class firmware_map {
public:
    void add(const std::string &argument, unsigned tile_count);       // throws firmware_error
    void add_args(const std::string &argument, unsigned tile_count);  // throws firmware_error
    bool empty() const { return !all_ && per_tile_.empty(); }
    // The image for a tile, or nullptr if that tile runs nothing.
    const firmware_image *for_tile(unsigned tile) const;
    // argv of main() on that tile: the ELF path, then the tile's or all tiles' --args.
    std::vector<std::string> argv_for(unsigned tile) const;

private:
    std::string all_args_;
    bool have_all_args_ = false;
    std::map<unsigned, std::string> per_tile_args_;
    std::shared_ptr<firmware_image> open(const std::string &path);
    std::map<std::string, std::shared_ptr<firmware_image>> opened_;
    std::shared_ptr<firmware_image> all_;
    std::map<unsigned, std::shared_ptr<firmware_image>> per_tile_;
};

}  // namespace vp
