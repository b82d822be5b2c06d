// The ELF segment rules (firmware_layout_error) on the crafted inputs of issue 12.
#include <gtest/gtest.h>

#include "crafted_elf.h"
#include "vp/firmware.h"

namespace {

constexpr uint32_t mib = 1u << 20;

// The rule violation of a crafted ELF against a 1 MiB SRAM ("" if it is loadable).
std::string layout_error(const std::vector<uint8_t> &bytes) {
    char err[256] = {0};
    elf_image *image = elf_image_open_memory(bytes.data(), bytes.size(), err, sizeof err);
    EXPECT_NE(image, nullptr) << err;
    if (!image) return "not opened";
    const std::string e = vp::firmware_layout_error(image, mib);
    elf_image_close(image);
    return e;
}

TEST(FirmwareRules, OddEntryPointIsRefused) {
    EXPECT_EQ(layout_error(crafted::build("odd_entry")),
              "entry point 0x80000001 is not 2-byte aligned");
}

// The decode cache read past the SRAM's host buffer from this entry point (ASan finding).
TEST(FirmwareRules, EntryAtLastSramByteIsRefused) {
    EXPECT_EQ(layout_error(crafted::build("last_byte_entry")),
              "entry point 0x800fffff is not 2-byte aligned");
}

TEST(FirmwareRules, SegmentsWithoutFileDataAreLoadable) {
    EXPECT_EQ(layout_error(crafted::build("no_file_data")), "");
}

TEST(FirmwareRules, OverlappingSegmentsAreRefusedByName) {
    EXPECT_EQ(layout_error(crafted::build("overlap")),
              "segment 1 at 0x80000004 (12 bytes) overlaps an earlier segment at 0x80000000");
}

TEST(FirmwareRules, SegmentPastTheSramEndIsRefusedByName) {
    const std::string e = layout_error(crafted::build("no_file_data"));
    ASSERT_EQ(e, "");
    char err[256] = {0};
    const std::vector<uint8_t> bytes = crafted::build("no_file_data");
    elf_image *image = elf_image_open_memory(bytes.data(), bytes.size(), err, sizeof err);
    ASSERT_NE(image, nullptr);
    // 4 KiB of SRAM: segment 1 at 0x80001000 no longer fits
    EXPECT_EQ(vp::firmware_layout_error(image, 4096),
              "segment 1 at 0x80001000 (256 bytes) lies outside the tile SRAM [0x80000000, "
              "0x80001000)");
    elf_image_close(image);
}

TEST(FirmwareRules, MemoryImageMatchesTheFileLoader) {
    char err[256] = {0};
    const uint8_t garbage[] = {0x7f, 'E', 'L', 'F', 2};
    EXPECT_EQ(elf_image_open_memory(garbage, sizeof garbage, err, sizeof err), nullptr);
    EXPECT_STREQ(err, "truncated ELF file: 5 bytes, identification needs 16");
    EXPECT_EQ(elf_image_open_memory(nullptr, 0, err, sizeof err), nullptr);
    EXPECT_STREQ(err, "empty file, not an ELF file");
}

}  // namespace
