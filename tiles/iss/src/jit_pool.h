/* The pool of translated code (jit.h), for the files of the JIT only: the code memory with its
 * shared stubs (jit_buffer.c) and the table of translations the harts share (jit_share.c). */
#ifndef ISS_JIT_POOL_H
#define ISS_JIT_POOL_H

#include "jit.h"

#include <stddef.h>
#include <stdint.h>

/* A translation: the pool's copy of the block it was made from (the key, and what slow paths
 * read), its id and its code. */
typedef struct rv_jit_entry {
    uint32_t hash;
    uint32_t id;
    uint32_t branch_taken; /* the taken-branch cost it was translated for */
    const rv_block *copy;  /* NULL: an empty entry */
    void *code;
} rv_jit_entry;

struct rv_jit {
    /* code memory (jit_buffer.c) */
    void *map; /* the mapping, and its size */
    size_t map_size;
    uint8_t *mem, *mem_end; /* the part used: 2 MiB aligned when huge pages are asked for */
    uint8_t *code_begin;    /* after the shared stubs */
    uint8_t *used;          /* end of the translations */
    int (*enter)(rv_cpu *cpu, const void *code);
    const uint8_t *exit;
    const uint8_t *lookup;
    /* translations (jit_share.c) */
    rv_jit_entry *table; /* open addressing, a power of two entries, at most half full */
    uint32_t table_size, entries;
    uint32_t ids; /* translations made since the pool was last emptied */
    struct rv_arena_chunk *copies;
    uint32_t generation; /* times the pool was emptied */
    unsigned inside;     /* harts inside translated code (rv_jit_run) */
    bool flush_pending;  /* full: emptied at the next dispatch with no hart inside */
};

/* jit_share.c: frees the table and the block copies (the pool is emptied or destroyed). */
void rv_jit_forget(struct rv_jit *jit);

#endif
