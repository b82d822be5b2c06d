// Tests of the ELF image loader (tiles/elf): valid RV32 images built byte by byte, and every kind of
// bad input the VP must turn into an error message instead of a crash.
#include "elf_builder.h"
#include "elf_image.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

class ElfImageTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/elf_image_test.XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        for (const auto &f : files_) std::remove(f.c_str());
        rmdir(dir_.c_str());
    }
    std::string write(const std::string &name, const std::vector<uint8_t> &bytes) {
        std::string path = dir_ + "/" + name;
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
        files_.push_back(path);
        return path;
    }
    std::string write_text(const std::string &name, const std::string &text) {
        return write(name, std::vector<uint8_t>(text.begin(), text.end()));
    }
    // Opens path expecting failure; returns the message.
    std::string open_error(const std::string &path) {
        char err[256];
        std::memset(err, 'x', sizeof err);
        elf_image *img = elf_image_open(path.c_str(), err, sizeof err);
        EXPECT_EQ(img, nullptr) << path;
        elf_image_close(img);
        EXPECT_NE(std::memchr(err, '\0', sizeof err), nullptr);
        std::string msg(err);
        EXPECT_FALSE(msg.empty());
        EXPECT_EQ(msg.find('\n'), std::string::npos);
        return msg;
    }

    static elfb::Spec firmware_spec() {
        elfb::Spec s;
        s.entry = 0x80000010u;
        elfb::Segment text;
        text.paddr = 0x80000000u;
        for (int i = 0; i < 64; i++) text.data.push_back(uint8_t(i * 3 + 1));
        elfb::Segment note;  // not loadable: must be skipped
        note.type = 4;       // PT_NOTE
        note.data = {1, 2, 3, 4};
        elfb::Segment bss;
        bss.paddr = 0x80001000u;
        bss.data = {0xAA, 0xBB, 0xCC, 0xDD};
        bss.memsz = 0x100;  // zero filled beyond filesz
        s.segments = {text, note, bss};
        s.symbols = {{"_start", 0x80000010u}, {"tohost", 0x80001000u}, {"undefined_ext", 0, 0}};
        return s;
    }

    std::string dir_;
    std::vector<std::string> files_;
};

TEST_F(ElfImageTest, ValidImage) {
    auto bytes = elfb::build(firmware_spec());
    std::string path = write("fw.elf", bytes);
    char err[256] = "untouched";
    elf_image *img = elf_image_open(path.c_str(), err, sizeof err);
    ASSERT_NE(img, nullptr) << err;
    EXPECT_STREQ(err, "");
    EXPECT_EQ(elf_image_entry(img), 0x80000010u);
    ASSERT_EQ(elf_image_segment_count(img), 2u);

    const elf_segment *t = elf_image_segment(img, 0);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->paddr, 0x80000000u);
    EXPECT_EQ(t->filesz, 64u);
    EXPECT_EQ(t->memsz, 64u);
    ASSERT_NE(t->data, nullptr);
    for (int i = 0; i < 64; i++) EXPECT_EQ(t->data[i], uint8_t(i * 3 + 1));

    const elf_segment *b = elf_image_segment(img, 1);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->paddr, 0x80001000u);
    EXPECT_EQ(b->filesz, 4u);
    EXPECT_EQ(b->memsz, 0x100u);
    EXPECT_EQ(b->data[0], 0xAA);
    EXPECT_EQ(b->data[3], 0xDD);

    EXPECT_EQ(elf_image_segment(img, 2), nullptr);

    uint32_t v = 0;
    EXPECT_EQ(elf_image_symbol(img, "_start", &v), 0);
    EXPECT_EQ(v, 0x80000010u);
    EXPECT_EQ(elf_image_symbol(img, "tohost", &v), 0);
    EXPECT_EQ(v, 0x80001000u);
    EXPECT_EQ(elf_image_symbol(img, "undefined_ext", &v), -1);  // SHN_UNDEF is not a definition
    EXPECT_EQ(elf_image_symbol(img, "nope", &v), -1);
    EXPECT_EQ(elf_image_symbol(img, "", &v), -1);
    elf_image_close(img);
}

TEST_F(ElfImageTest, NoSymbolTable) {
    auto spec = firmware_spec();
    spec.symbols.clear();
    std::string path = write("nosym.elf", elfb::build(spec));
    char err[256];
    elf_image *img = elf_image_open(path.c_str(), err, sizeof err);
    ASSERT_NE(img, nullptr) << err;
    uint32_t v = 123;
    EXPECT_EQ(elf_image_symbol(img, "_start", &v), -1);
    EXPECT_EQ(v, 123u);
    elf_image_close(img);
}

TEST_F(ElfImageTest, NullArgumentsAreSafe) {
    elf_image_close(nullptr);
    EXPECT_EQ(elf_image_segment_count(nullptr), 0u);
    EXPECT_EQ(elf_image_segment(nullptr, 0), nullptr);
    uint32_t v;
    EXPECT_EQ(elf_image_symbol(nullptr, "x", &v), -1);
    EXPECT_EQ(elf_image_open(nullptr, nullptr, 0), nullptr);
    // err may be NULL
    EXPECT_EQ(elf_image_open("/nonexistent/x.elf", nullptr, 0), nullptr);
    char small[8];
    EXPECT_EQ(elf_image_open("/nonexistent/x.elf", small, sizeof small), nullptr);
    EXPECT_EQ(std::strlen(small), 7u);  // "cannot " truncated, still terminated
    EXPECT_STREQ(small, "cannot ");
}

TEST_F(ElfImageTest, HostElf64IsRejected) {
    // /bin/true of the host is an ELF64 (x86-64 or another 64-bit host)
    EXPECT_EQ(open_error("/bin/true"), "ELF64 not supported: RV32 firmware expected");
}

TEST_F(ElfImageTest, WrongMachine) {
    auto spec = firmware_spec();
    spec.machine = 62;  // EM_X86_64 in an ELF32 container
    EXPECT_EQ(open_error(write("x86_64.elf", elfb::build(spec))),
              "machine is x86-64, expected RISC-V");
    spec.machine = 40;  // EM_ARM
    EXPECT_EQ(open_error(write("arm.elf", elfb::build(spec))), "machine is ARM, expected RISC-V");
    spec.machine = 0x1234;
    EXPECT_EQ(open_error(write("odd.elf", elfb::build(spec))),
              "machine is 4660, expected RISC-V (243)");
}

TEST_F(ElfImageTest, Elf64Class) {
    auto spec = firmware_spec();
    spec.elf_class = 2;
    EXPECT_EQ(open_error(write("c64.elf", elfb::build(spec))),
              "ELF64 not supported: RV32 firmware expected");
    spec.elf_class = 7;
    EXPECT_EQ(open_error(write("c7.elf", elfb::build(spec))),
              "invalid ELF class 7: ELF32 expected");
}

TEST_F(ElfImageTest, BigEndian) {
    auto spec = firmware_spec();
    spec.data_enc = 2;
    EXPECT_EQ(open_error(write("be.elf", elfb::build(spec))),
              "big-endian ELF not supported: little-endian RISC-V expected");
}

TEST_F(ElfImageTest, WrongType) {
    auto spec = firmware_spec();
    spec.type = 3;  // ET_DYN
    EXPECT_EQ(
        open_error(write("dyn.elf", elfb::build(spec))),
        "ELF type is ET_DYN (shared object or position-independent executable), expected ET_EXEC "
        "(statically linked executable)");
    spec.type = 1;  // ET_REL
    EXPECT_EQ(
        open_error(write("rel.o", elfb::build(spec))),
        "ELF type is ET_REL (relocatable object, not linked), expected ET_EXEC (statically linked "
        "executable)");
}

TEST_F(ElfImageTest, NoLoadableSegments) {
    auto spec = firmware_spec();
    spec.segments.clear();
    EXPECT_EQ(open_error(write("nophdr.elf", elfb::build(spec))),
              "no program headers: no loadable (PT_LOAD) segments");
    spec = firmware_spec();
    for (auto &s : spec.segments) s.type = 4;  // PT_NOTE only
    EXPECT_EQ(open_error(write("noload.elf", elfb::build(spec))), "no loadable (PT_LOAD) segments");
}

TEST_F(ElfImageTest, SegmentPastEndOfFile) {
    auto spec = firmware_spec();
    spec.symbols.clear();  // segment data is the last thing in the file
    auto bytes = elfb::build(spec);
    bytes.resize(bytes.size() - 1);
    EXPECT_EQ(open_error(write("trunc_seg.elf", bytes)),
              "segment 2 extends past end of file (offset " + std::to_string(bytes.size() - 3) +
                  " + size 4 > " + std::to_string(bytes.size()) + " bytes)");
    // A bogus p_offset far outside the file
    bytes = elfb::build(spec);
    elfb::put32(bytes, 52 + 4, 0x7fff0000u);
    EXPECT_EQ(
        open_error(write("bad_off.elf", bytes)).rfind("segment 0 extends past end of file", 0), 0u);
}

TEST_F(ElfImageTest, FileszLargerThanMemsz) {
    auto bytes = elfb::build(firmware_spec());
    elfb::put32(bytes, 52 + 20, 8);  // segment 0: memsz 8 < filesz 64
    EXPECT_EQ(open_error(write("fm.elf", bytes)),
              "segment 0 has file size 64 larger than memory size 8");
}

TEST_F(ElfImageTest, SegmentWrapsAddressSpace) {
    auto spec = firmware_spec();
    spec.segments[2].paddr = 0xFFFFFF00u;
    spec.segments[2].memsz = 0x200;
    EXPECT_EQ(open_error(write("wrap.elf", elfb::build(spec))),
              "segment 2 wraps past the end of the 32-bit address space");
}

TEST_F(ElfImageTest, TruncatedAtEveryLength) {
    auto bytes = elfb::build(firmware_spec());
    for (size_t len = 0; len < bytes.size(); len++) {
        std::vector<uint8_t> t(bytes.begin(), bytes.begin() + std::ptrdiff_t(len));
        std::string msg = open_error(write("t" + std::to_string(len) + ".elf", t));
        if (len == 0)
            EXPECT_EQ(msg, "empty file, not an ELF file");
        else if (len < 4)
            EXPECT_EQ(msg, "not an ELF file (bad magic number)");
        else if (len >= 52)
            EXPECT_NE(msg.find("past end of file"), std::string::npos) << len << ": " << msg;
        else
            EXPECT_NE(msg.find("truncated ELF file"), std::string::npos) << len << ": " << msg;
    }
    EXPECT_EQ(open_error(write("hdr.elf", std::vector<uint8_t>(bytes.begin(), bytes.begin() + 40))),
              "truncated ELF file: 40 bytes, ELF header needs 52");
    EXPECT_EQ(open_error(write("ph.elf", std::vector<uint8_t>(bytes.begin(), bytes.begin() + 60))),
              "truncated ELF file: program header table extends past end of file");
    EXPECT_EQ(open_error(write("sh.elf", std::vector<uint8_t>(bytes.begin(), bytes.end() - 10))),
              "truncated ELF file: section header table extends past end of file");
}

TEST_F(ElfImageTest, TextFile) {
    EXPECT_EQ(open_error(write_text("readme.txt", "This is not firmware.\nJust text.\n")),
              "not an ELF file (bad magic number)");
}

TEST_F(ElfImageTest, EmptyFile) {
    EXPECT_EQ(open_error(write("empty.elf", {})), "empty file, not an ELF file");
}

TEST_F(ElfImageTest, MissingFile) {
    std::string path = dir_ + "/does-not-exist.elf";
    EXPECT_EQ(open_error(path), "cannot open: No such file or directory");
}

TEST_F(ElfImageTest, Directory) { EXPECT_EQ(open_error(dir_), "is a directory, not an ELF file"); }

TEST_F(ElfImageTest, DeviceFile) { EXPECT_EQ(open_error("/dev/null"), "not a regular file"); }

// Random corruption of a valid image: must never crash; whatever opens must be consistent.
TEST_F(ElfImageTest, FuzzedImagesNeverCrash) {
    auto good = elfb::build(firmware_spec());
    std::mt19937 rng(12345);
    int opened = 0;
    for (int iter = 0; iter < 3000; iter++) {
        auto b = good;
        int flips = 1 + int(rng() % 8);
        for (int k = 0; k < flips; k++) {
            size_t pos = rng() % b.size();
            // Bias to the headers, where corruption matters most
            if (rng() % 2) pos = rng() % std::min<size_t>(200, b.size());
            b[pos] = uint8_t(rng());
        }
        if (rng() % 4 == 0) b.resize(rng() % b.size());
        std::string path = write("fuzz.elf", b);
        files_.pop_back();
        char err[256];
        elf_image *img = elf_image_open(path.c_str(), err, sizeof err);
        if (img) {
            opened++;
            size_t n = elf_image_segment_count(img);
            EXPECT_GE(n, 1u);
            for (size_t i = 0; i < n; i++) {
                const elf_segment *s = elf_image_segment(img, i);
                ASSERT_NE(s, nullptr);
                EXPECT_LE(s->filesz, s->memsz);
                unsigned sum = 0;
                for (uint32_t j = 0; j < s->filesz; j++) sum += s->data[j];  // touch all data
                (void)sum;
            }
            uint32_t v;
            (void)elf_image_symbol(img, "_start", &v);
            (void)elf_image_symbol(img, "tohost", &v);
            elf_image_close(img);
        } else {
            EXPECT_GT(std::strlen(err), 0u);
        }
        std::remove(path.c_str());
    }
    EXPECT_GT(opened, 0);
}

}  // namespace
