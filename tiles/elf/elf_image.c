/* ELF image loader for RV32 firmware (see include/elf_image.h).
 *
 * The whole file is read into memory first; the identification, header and program headers are
 * bounds-checked against the file size before libelf (elf_memory) is asked for anything, so a
 * truncated or garbage file yields an error message instead of a crash. Segment data pointers point
 * into that buffer, which the image owns. */
#define _POSIX_C_SOURCE 200809L

#include "elf_image.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* Firmware files are small; refuse anything absurd rather than trying to allocate it. */
#define ELF_IMAGE_MAX_FILE_SIZE (1024u * 1024u * 1024u)

struct elf_image {
    uint8_t *file; /* whole file contents */
    size_t file_size;
    Elf *elf; /* libelf handle over file[] */
    uint32_t entry;
    uint32_t flags;
    size_t nseg;
    elf_segment *seg;
};

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
    if (err == NULL || err_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_NONE: return "none (EM_NONE)";
    case EM_SPARC: return "SPARC";
    case EM_386: return "x86 (i386)";
    case EM_68K: return "m68k";
    case EM_MIPS: return "MIPS";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "S/390";
    case EM_ARM: return "ARM";
    case EM_SH: return "SuperH";
    case EM_SPARCV9: return "SPARC v9";
    case EM_IA_64: return "IA-64";
    case EM_X86_64: return "x86-64";
    case EM_AVR: return "AVR";
    case EM_XTENSA: return "Xtensa";
    case EM_MSP430: return "MSP430";
    case EM_AARCH64: return "AArch64";
    case 258: return "LoongArch";
    default: return NULL;
    }
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case ET_NONE: return "ET_NONE (no file type)";
    case ET_REL: return "ET_REL (relocatable object, not linked)";
    case ET_DYN: return "ET_DYN (shared object or position-independent executable)";
    case ET_CORE: return "ET_CORE (core dump)";
    default: return NULL;
    }
}

static int read_file(const char *path, uint8_t **out, size_t *out_size, char *err, size_t err_len)
{
    *out = NULL;
    *out_size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_err(err, err_len, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        set_err(err, err_len, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        set_err(err, err_len, "is a directory, not an ELF file");
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        set_err(err, err_len, "not a regular file");
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        set_err(err, err_len, "empty file, not an ELF file");
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > ELF_IMAGE_MAX_FILE_SIZE) {
        set_err(err, err_len, "file too large (%lld bytes) for a firmware image",
                (long long)st.st_size);
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size);
    if (buf == NULL) {
        set_err(err, err_len, "out of memory reading the file");
        close(fd);
        return -1;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            set_err(err, err_len, "cannot read: %s", strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (n == 0)
            break; /* file shrank meanwhile: validate what we have */
        got += (size_t)n;
    }
    close(fd);
    if (got == 0) {
        set_err(err, err_len, "empty file, not an ELF file");
        free(buf);
        return -1;
    }
    *out = buf;
    *out_size = got;
    return 0;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Checks identification and header by hand (before libelf sees the file). */
static int check_header(const uint8_t *f, size_t size, char *err, size_t err_len)
{
    if (size < 4 || memcmp(f, ELFMAG, SELFMAG) != 0) {
        set_err(err, err_len, "not an ELF file (bad magic number)");
        return -1;
    }
    if (size < EI_NIDENT) {
        set_err(err, err_len, "truncated ELF file: %zu bytes, identification needs %d", size,
                EI_NIDENT);
        return -1;
    }
    if (f[EI_CLASS] == ELFCLASS64) {
        set_err(err, err_len, "ELF64 not supported: RV32 firmware expected");
        return -1;
    }
    if (f[EI_CLASS] != ELFCLASS32) {
        set_err(err, err_len, "invalid ELF class %u: ELF32 expected", f[EI_CLASS]);
        return -1;
    }
    if (f[EI_DATA] == ELFDATA2MSB) {
        set_err(err, err_len, "big-endian ELF not supported: little-endian RISC-V expected");
        return -1;
    }
    if (f[EI_DATA] != ELFDATA2LSB) {
        set_err(err, err_len, "invalid ELF data encoding %u: little-endian expected", f[EI_DATA]);
        return -1;
    }
    if (f[EI_VERSION] != EV_CURRENT) {
        set_err(err, err_len, "unsupported ELF version %u", f[EI_VERSION]);
        return -1;
    }
    if (size < sizeof(Elf32_Ehdr)) {
        set_err(err, err_len, "truncated ELF file: %zu bytes, ELF header needs %zu", size,
                sizeof(Elf32_Ehdr));
        return -1;
    }
    unsigned machine = rd16(f + offsetof(Elf32_Ehdr, e_machine));
    if (machine != EM_RISCV) {
        const char *name = machine_name(machine);
        if (name)
            set_err(err, err_len, "machine is %s, expected RISC-V", name);
        else
            set_err(err, err_len, "machine is %u, expected RISC-V (%u)", machine, EM_RISCV);
        return -1;
    }
    unsigned type = rd16(f + offsetof(Elf32_Ehdr, e_type));
    if (type != ET_EXEC) {
        const char *name = type_name(type);
        if (name)
            set_err(err, err_len, "ELF type is %s, expected ET_EXEC (statically linked executable)",
                    name);
        else
            set_err(err, err_len, "ELF type is %u, expected ET_EXEC (statically linked executable)",
                    type);
        return -1;
    }
    uint32_t phoff = rd32(f + offsetof(Elf32_Ehdr, e_phoff));
    unsigned phentsize = rd16(f + offsetof(Elf32_Ehdr, e_phentsize));
    unsigned phnum = rd16(f + offsetof(Elf32_Ehdr, e_phnum));
    if (phnum == 0 || phoff == 0) {
        set_err(err, err_len, "no program headers: no loadable (PT_LOAD) segments");
        return -1;
    }
    if (phnum == PN_XNUM) {
        set_err(err, err_len, "too many program headers (extended numbering not supported)");
        return -1;
    }
    if (phentsize != sizeof(Elf32_Phdr)) {
        set_err(err, err_len, "bad program header entry size %u, expected %zu", phentsize,
                sizeof(Elf32_Phdr));
        return -1;
    }
    if ((uint64_t)phoff + (uint64_t)phnum * phentsize > size) {
        set_err(err, err_len, "truncated ELF file: program header table extends past end of file");
        return -1;
    }
    uint32_t shoff = rd32(f + offsetof(Elf32_Ehdr, e_shoff));
    unsigned shentsize = rd16(f + offsetof(Elf32_Ehdr, e_shentsize));
    unsigned shnum = rd16(f + offsetof(Elf32_Ehdr, e_shnum));
    if (shoff != 0) {
        if (shentsize != sizeof(Elf32_Shdr)) {
            set_err(err, err_len, "bad section header entry size %u, expected %zu", shentsize,
                    sizeof(Elf32_Shdr));
            return -1;
        }
        /* shnum == 0 with shoff != 0: extended numbering, the count is in section header 0. */
        uint64_t n = shnum ? shnum : 1;
        if ((uint64_t)shoff + n * shentsize > size) {
            set_err(err, err_len,
                    "truncated ELF file: section header table extends past end of file");
            return -1;
        }
    }
    return 0;
}

/* Validates img->file (already filled) and collects the PT_LOAD segments; frees img on failure. */
static elf_image *parse_image(elf_image *img, char *err, size_t err_len);

static elf_image *new_image(char *err, size_t err_len)
{
    if (err && err_len)
        err[0] = '\0';
    if (elf_version(EV_CURRENT) == EV_NONE) {
        set_err(err, err_len, "libelf initialisation failed: %s", elf_errmsg(-1));
        return NULL;
    }
    elf_image *img = calloc(1, sizeof *img);
    if (img == NULL)
        set_err(err, err_len, "out of memory");
    return img;
}

elf_image *elf_image_open(const char *path, char *err, size_t err_len)
{
    if (path == NULL) {
        set_err(err, err_len, "no file name given");
        return NULL;
    }
    elf_image *img = new_image(err, err_len);
    if (img == NULL)
        return NULL;
    if (read_file(path, &img->file, &img->file_size, err, err_len) != 0) {
        elf_image_close(img);
        return NULL;
    }
    return parse_image(img, err, err_len);
}

elf_image *elf_image_open_memory(const uint8_t *data, size_t size, char *err, size_t err_len)
{
    elf_image *img = new_image(err, err_len);
    if (img == NULL)
        return NULL;
    if (size == 0 || data == NULL) {
        set_err(err, err_len, "empty file, not an ELF file");
        elf_image_close(img);
        return NULL;
    }
    if (size > ELF_IMAGE_MAX_FILE_SIZE) {
        set_err(err, err_len, "file too large (%zu bytes) for a firmware image", size);
        elf_image_close(img);
        return NULL;
    }
    img->file = malloc(size); /* the image owns a copy, as with a file */
    if (img->file == NULL) {
        set_err(err, err_len, "out of memory");
        elf_image_close(img);
        return NULL;
    }
    memcpy(img->file, data, size);
    img->file_size = size;
    return parse_image(img, err, err_len);
}

static elf_image *parse_image(elf_image *img, char *err, size_t err_len)
{
    if (check_header(img->file, img->file_size, err, err_len) != 0)
        goto fail;

    img->elf = elf_memory((char *)img->file, img->file_size);
    if (img->elf == NULL || elf_kind(img->elf) != ELF_K_ELF) {
        set_err(err, err_len, "not a valid ELF file: %s", elf_errmsg(-1));
        goto fail;
    }
    GElf_Ehdr eh;
    if (gelf_getehdr(img->elf, &eh) == NULL) {
        set_err(err, err_len, "cannot read ELF header: %s", elf_errmsg(-1));
        goto fail;
    }
    size_t phnum = 0;
    if (elf_getphdrnum(img->elf, &phnum) != 0) {
        set_err(err, err_len, "cannot read program headers: %s", elf_errmsg(-1));
        goto fail;
    }
    img->entry = (uint32_t)eh.e_entry;
    img->flags = (uint32_t)eh.e_flags;
    img->seg = calloc(phnum ? phnum : 1, sizeof *img->seg);
    if (img->seg == NULL) {
        set_err(err, err_len, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(img->elf, (int)i, &ph) == NULL) {
            set_err(err, err_len, "cannot read program header %zu: %s", i, elf_errmsg(-1));
            goto fail;
        }
        if (ph.p_type != PT_LOAD)
            continue;
        if (ph.p_filesz > ph.p_memsz) {
            set_err(err, err_len, "segment %zu has file size %llu larger than memory size %llu", i,
                    (unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
            goto fail;
        }
        if (ph.p_offset > img->file_size || ph.p_filesz > img->file_size - ph.p_offset) {
            set_err(err, err_len,
                    "segment %zu extends past end of file (offset %llu + size %llu > %zu bytes)", i,
                    (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz,
                    img->file_size);
            goto fail;
        }
        if (ph.p_memsz != 0 && (uint64_t)ph.p_paddr + ph.p_memsz - 1 > 0xFFFFFFFFull) {
            set_err(err, err_len, "segment %zu wraps past the end of the 32-bit address space", i);
            goto fail;
        }
        elf_segment *s = &img->seg[img->nseg++];
        s->paddr = (uint32_t)ph.p_paddr;
        s->filesz = (uint32_t)ph.p_filesz;
        s->memsz = (uint32_t)ph.p_memsz;
        s->data = ph.p_filesz ? img->file + ph.p_offset : NULL;
    }
    if (img->nseg == 0) {
        set_err(err, err_len, "no loadable (PT_LOAD) segments");
        goto fail;
    }
    return img;

fail:
    elf_image_close(img);
    return NULL;
}

void elf_image_close(elf_image *img)
{
    if (img == NULL)
        return;
    if (img->elf)
        elf_end(img->elf);
    free(img->seg);
    free(img->file);
    free(img);
}

uint32_t elf_image_entry(const elf_image *img) { return img ? img->entry : 0; }

size_t elf_image_segment_count(const elf_image *img) { return img ? img->nseg : 0; }

const elf_segment *elf_image_segment(const elf_image *img, size_t i)
{
    if (img == NULL || i >= img->nseg)
        return NULL;
    return &img->seg[i];
}

/* Calls fn for every defined, named symbol of .symtab (with its name) until fn returns true. */
static void each_symbol(const elf_image *img,
                        bool (*fn)(void *ctx, const GElf_Sym *sym, const char *name), void *ctx)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        /* Section data must lie inside the file (libelf checks too, but be explicit). */
        if (sh.sh_offset > img->file_size || sh.sh_size > img->file_size - sh.sh_offset)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (data == NULL)
            continue;
        size_t count = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            if (gelf_getsym(data, (int)i, &sym) == NULL)
                break;
            if (sym.st_shndx == SHN_UNDEF || sym.st_name == 0)
                continue;
            const char *n = elf_strptr(img->elf, sh.sh_link, sym.st_name);
            if (n != NULL && fn(ctx, &sym, n))
                return;
        }
    }
}

struct symbol_at {
    uint32_t addr;
    const char *best;
    uint64_t value;
    bool contains;
};

static bool closer_symbol(void *ctx, const GElf_Sym *sym, const char *n)
{
    struct symbol_at *s = ctx;
    unsigned type = GELF_ST_TYPE(sym->st_info);
    if (sym->st_shndx == SHN_ABS || (type != STT_FUNC && type != STT_NOTYPE) ||
        sym->st_value > s->addr || n[0] == '\0' || n[0] == '.' || (n[0] == '$' && n[1] == 'x'))
        return false; /* data, local labels and mapping symbols */
    bool contains = type == STT_FUNC && s->addr < sym->st_value + sym->st_size;
    /* a containing function wins; then the highest start below addr */
    if (s->best == NULL || (contains && !s->contains) ||
        (contains == s->contains && sym->st_value > s->value)) {
        s->best = n;
        s->value = sym->st_value;
        s->contains = contains;
    }
    return false;
}

int elf_image_symbol_at(const elf_image *img, uint32_t addr, char *buf, size_t len,
                        uint32_t *offset)
{
    if (img == NULL || img->elf == NULL || buf == NULL || len == 0)
        return -1;
    struct symbol_at s = {addr, NULL, 0, false};
    each_symbol(img, closer_symbol, &s);
    if (s.best == NULL)
        return -1;
    snprintf(buf, len, "%s", s.best);
    if (offset)
        *offset = (uint32_t)(addr - s.value);
    return 0;
}

int elf_image_alloc_section(const elf_image *img, size_t i, const char **name, uint32_t *addr,
                            uint32_t *size)
{
    if (img == NULL || img->elf == NULL)
        return -1;
    size_t shstrndx;
    if (elf_getshdrstrndx(img->elf, &shstrndx) != 0)
        return -1;
    size_t seen = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
            continue;
        if (seen++ != i)
            continue;
        const char *n = elf_strptr(img->elf, shstrndx, sh.sh_name);
        if (name)
            *name = n ? n : "?";
        if (addr)
            *addr = (uint32_t)sh.sh_addr;
        if (size)
            *size = (uint32_t)(sh.sh_size > 0xffffffffu ? 0xffffffffu : sh.sh_size);
        return 0;
    }
    return -1;
}

struct symbol_named {
    const char *name;
    uint32_t *value;
    bool found;
};

static bool named_symbol(void *ctx, const GElf_Sym *sym, const char *n)
{
    struct symbol_named *s = ctx;
    if (strcmp(n, s->name) != 0)
        return false;
    if (s->value)
        *s->value = (uint32_t)sym->st_value;
    s->found = true;
    return true;
}

int elf_image_symbol(const elf_image *img, const char *name, uint32_t *value)
{
    if (img == NULL || img->elf == NULL || name == NULL)
        return -1;
    struct symbol_named s = {name, value, false};
    each_symbol(img, named_symbol, &s);
    return s.found ? 0 : -1;
}

uint32_t elf_image_flags(const elf_image *img) { return img ? img->flags : 0; }

/* ULEB128 at *p (below end); false if it runs past the end or over 32 bits. */
static int read_uleb(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
    *v = 0;
    for (unsigned shift = 0; *p < end && shift < 32; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 1;
    }
    return 0;
}

/* Format 'A', subsections [len u32]["riscv\0"] of groups [tag uleb][len u32] of attributes
 * [tag uleb][value: uleb for even tags, NUL-terminated string for odd ones]. */
static int find_arch(const uint8_t *p, const uint8_t *end, char *buf, size_t len)
{
    if (p >= end || *p++ != 'A')
        return -1;
    while (end - p >= 4) {
        uint32_t sub_len = rd32(p);
        if (sub_len < 4 || sub_len > (size_t)(end - p))
            return -1;
        const uint8_t *sub_end = p + sub_len, *q = p + 4;
        p = sub_end;
        if ((size_t)(sub_end - q) < 6 || memcmp(q, "riscv", 6) != 0)
            continue;
        q += 6;
        while (q < sub_end) {
            uint32_t tag;
            const uint8_t *group = q;
            if (!read_uleb(&q, sub_end, &tag) || sub_end - q < 4)
                return -1;
            uint32_t group_len = rd32(q);
            if (group_len < (uint32_t)(q + 4 - group) || group_len > (size_t)(sub_end - group))
                return -1;
            const uint8_t *group_end = group + group_len;
            q += 4;
            while (tag == 1 && q < group_end) { /* Tag_File: attributes follow */
                uint32_t attr, value;
                if (!read_uleb(&q, group_end, &attr))
                    return -1;
                if (attr % 2 == 0) {
                    if (!read_uleb(&q, group_end, &value))
                        return -1;
                    continue;
                }
                const uint8_t *nul = memchr(q, 0, (size_t)(group_end - q));
                if (!nul)
                    return -1;
                if (attr == 5) { /* Tag_RISCV_arch */
                    size_t n = (size_t)(nul - q);
                    if (len == 0 || n >= len)
                        return -1;
                    memcpy(buf, q, n);
                    buf[n] = 0;
                    return 0;
                }
                q = nul + 1;
            }
            q = group_end;
        }
    }
    return -1;
}

int elf_image_riscv_arch(const elf_image *img, char *buf, size_t len)
{
    if (img == NULL || img->elf == NULL || buf == NULL)
        return -1;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != 0x70000003u /* SHT_RISCV_ATTRIBUTES */)
            continue;
        if (sh.sh_offset > img->file_size || sh.sh_size > img->file_size - sh.sh_offset)
            return -1;
        const uint8_t *p = img->file + sh.sh_offset;
        return find_arch(p, p + sh.sh_size, buf, len);
    }
    return -1;
}
