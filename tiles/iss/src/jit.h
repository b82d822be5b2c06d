/* The JIT: hot blocks translated to x86-64 host code (docs/iss-engine.md).
 *
 * Translated code does what rv_block_exec does for its block. Blocks chain to each other in host
 * code: an exit to a constant target in the same page starts as a jump to a stub that returns to
 * the dispatcher and asks it (blk.jit_patch) to point the jump at the target's code once that is
 * translated; a computed target (jalr) or one in another page is looked up by a shared stub in
 * the jump cache, then through the fetch TLB and the page's block table. Every block starts with
 * the budget test of the dispatcher. On other hosts rv_jit_supported() is false, and without
 * executable memory rv_jit_create() fails: the engine is then the block interpreter.
 */
#ifndef ISS_JIT_H
#define ISS_JIT_H

#include "block.h"

#include <stdint.h>

struct rv_jit;

bool rv_jit_supported(void);
/* Code memory with the shared entry, exit and lookup stubs; NULL if it cannot be had. */
struct rv_jit *rv_jit_create(void);
void rv_jit_destroy(struct rv_jit *jit);
/* Forgets every translation (blocks are reset with it). NULL is ignored. */
void rv_jit_reset(struct rv_jit *jit);
/* Translates b (sets b->code). False when the code memory is full: the caller drops all blocks. */
bool rv_jit_translate(rv_cpu *cpu, struct rv_jit *jit, rv_block *b);
/* Runs translated code from b on; returns RV_BLOCK_LEFT or RV_BLOCK_LOCKUP. */
int rv_jit_run(rv_cpu *cpu, const rv_block *b);
/* Points the chain jump at patch_site to target's code. */
void rv_jit_chain(void *patch_site, const rv_block *target);

/* jit_buffer.c, for jit_translate.c: the code memory */
typedef struct rv_jit_code {
    uint8_t *start, *end;        /* free space for the next translation */
    const uint8_t *exit;         /* epilogue: returns eax to the caller of rv_jit_run */
    const uint8_t *lookup;       /* eax = target pc (stored): jumps to its block or exits */
} rv_jit_code;
void rv_jit_code_space(struct rv_jit *jit, rv_jit_code *code);
void rv_jit_code_used(struct rv_jit *jit, uint8_t *new_start);

#endif
