/* ELF image loader for RV32 firmware: opens and validates an ELF file and exposes its PT_LOAD
 * segments, entry point and symbols. Pure C11 (libelf), usable from C++.
 *
 * Validation: ELF32, little-endian, EM_RISCV, ET_EXEC, at least one PT_LOAD segment, every segment's
 * file data inside the file, filesz <= memsz, segment inside the 32-bit address space.
 * Malformed input (missing file, directory, empty, truncated, garbage) never crashes: elf_image_open
 * returns NULL and a one-line reason. */
#ifndef ELF_IMAGE_H
#define ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct elf_segment {
    uint32_t paddr;      /* physical load address */
    uint32_t filesz;     /* bytes of data[] to copy */
    uint32_t memsz;      /* memsz > filesz: the rest is zero filled */
    const uint8_t *data; /* filesz bytes, owned by the image (NULL if filesz == 0) */
} elf_segment;

typedef struct elf_image elf_image; /* owns the file data */

/* Opens and validates path. On failure returns NULL and writes a one-line human-readable reason
 * (no trailing newline, without the file name: the caller prefixes it) into err (if err is not
 * NULL and err_len > 0), e.g. "cannot open: No such file or directory". */
elf_image *elf_image_open(const char *path, char *err, size_t err_len);
/* The same for a file already in memory (the image keeps its own copy): for fuzzing and tools. */
elf_image *elf_image_open_memory(const uint8_t *data, size_t size, char *err, size_t err_len);
void elf_image_close(elf_image *img); /* NULL is fine */

uint32_t elf_image_entry(const elf_image *img);
size_t elf_image_segment_count(const elf_image *img);
/* PT_LOAD segments in program-header order; NULL if i is out of range. */
const elf_segment *elf_image_segment(const elf_image *img, size_t i);
/* Symbol lookup in .symtab (defined symbols only); returns 0 and sets *value if found, -1 otherwise. */
int elf_image_symbol(const elf_image *img, const char *name, uint32_t *value);
/* The function symbol (STT_FUNC) whose [value, value + size) holds addr, else the nearest function
 * or object symbol at or below addr (a hand-written routine has no size): its name into buf and
 * addr - value into *offset. Returns 0, or -1 if there is none. */
int elf_image_symbol_at(const elf_image *img, uint32_t addr, char *buf, size_t len,
                        uint32_t *offset);
/* Sections that occupy memory at run time (SHF_ALLOC, with a size), in section-header order:
 * name, address and size; returns -1 when i is past the last one. */
int elf_image_alloc_section(const elf_image *img, size_t i, const char **name, uint32_t *addr,
                            uint32_t *size);
/* e_flags of the header (RISC-V: bit 0 RVC, bits 1-2 float ABI, bit 3 RVE). */
uint32_t elf_image_flags(const elf_image *img);
/* The Tag_RISCV_arch string of the .riscv.attributes section (e.g. "rv32i2p1_m2p0_c2p0"), copied
 * into buf (NUL-terminated); returns 0, or -1 if the ELF has none or it is malformed. */
int elf_image_riscv_arch(const elf_image *img, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
