// libFuzzer target: the ELF loader (elf_image_open_memory) and the segment rules of the VP
// (vp::firmware_layout_error) on any byte string. Seeds: the project's firmware ELFs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "elf_image.h"
#include "vp/firmware.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[256];
    elf_image *image = elf_image_open_memory(data, size, err, sizeof err);
    if (!image) {
        if (err[0] == '\0') abort();  // every refusal must say why
        return 0;
    }
    // Touch every byte the image claims to own: ASan checks the bounds the loader promised.
    unsigned sum = 0;
    for (size_t i = 0; i < elf_image_segment_count(image); ++i) {
        const elf_segment *s = elf_image_segment(image, i);
        if (s->filesz > s->memsz || (s->filesz && !s->data)) abort();
        for (uint32_t b = 0; b < s->filesz; ++b) sum += s->data[b];
    }
    uint32_t value = 0;
    elf_image_symbol(image, "_start", &value);
    // the rules against the smallest and the largest SRAM
    vp::firmware_layout_error(image, 64 * 1024);
    vp::firmware_layout_error(image, 256u << 20);
    elf_image_close(image);
    volatile unsigned sink = sum;  // keeps the reads above from being optimized away
    (void)sink;
    return 0;
}
