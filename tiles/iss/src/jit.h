/* The JIT: hot blocks translated to x86-64 host code (docs/iss-engine.md).
 *
 * Translated code does what rv_block_exec does for its block. Code memory and translations live in
 * a pool (struct rv_jit) that the harts of a platform share (rv_jit_pool_create) or a hart makes
 * for itself: a block with the same content (pc, instructions, costs) as one another hart
 * translated runs that hart's code. Each translation has an id; each hart keeps a chain table of
 * two entries per id, the host code of the successors it chained that translation to (a hart may
 * run a block only once it has built it from its own decode cache, so chains are per hart). An
 * exit to a constant target in the same page jumps through the hart's entry; an empty entry
 * returns to the dispatcher and asks it (blk.jit_patch_slot) to fill the entry once the target is
 * translated. A computed target (jalr) or one in another page is looked up by a shared stub in the
 * hart's jump cache, then through the fetch TLB and the page's block table. Every block starts
 * with the budget test of the dispatcher. On other hosts rv_jit_supported() is false, and without
 * executable memory no pool can be made: the engine is then the block interpreter.
 *
 * Pool memory is reused only when it is full, and then only at a dispatch of a hart while no hart
 * is inside translated code (a hart can be, waiting in a bus callback for SystemC time, while
 * another runs); every hart then drops its blocks at its next dispatch (its generation differs).
 */
#ifndef ISS_JIT_H
#define ISS_JIT_H

#include "block.h"

#include <stdint.h>

struct rv_jit;

bool rv_jit_supported(void);
/* A pool: code memory of code_size bytes (reserved, backed as written) with the shared entry,
 * exit and lookup stubs; NULL if it cannot be had. huge: ask the host for 2 MiB pages. */
struct rv_jit *rv_jit_create(size_t code_size, bool huge);
void rv_jit_destroy(struct rv_jit *jit);
/* Gives b code: the translation of a block with its content, made now if no hart made one. The
 * hart's pool is the platform's (rv_config.jit_pool) or one of its own, made at the first call.
 * False if there is no pool (the engine becomes the block interpreter) or it is full (it is
 * emptied at a later dispatch, rv_jit_sync). */
bool rv_jit_translate(rv_cpu *cpu, rv_block *b);
/* At every dispatch: empties a full pool if no hart is inside translated code, and drops the
 * hart's blocks when the pool was emptied since it last looked. */
void rv_jit_sync(rv_cpu *cpu);
/* Runs translated code from b on; returns RV_BLOCK_LEFT or RV_BLOCK_LOCKUP. */
int rv_jit_run(rv_cpu *cpu, const rv_block *b);
/* Fills chain entry slot (blk.jit_patch_slot - 1) of the hart with target's code. */
void rv_jit_chain(rv_cpu *cpu, uint32_t slot, const rv_block *target);
/* Empties the hart's chain table (its blocks were dropped). */
void rv_jit_unchain_all(rv_cpu *cpu);
/* The hart's chain and ownership tables (blocks freed). */
void rv_jit_hart_free(rv_cpu *cpu);

/* jit_buffer.c, for jit_translate.c and jit_share.c: the code memory */
typedef struct rv_jit_code {
    uint8_t *start, *end;  /* free space for the next translation */
    const uint8_t *exit;   /* epilogue: returns eax to the caller of rv_jit_run */
    const uint8_t *lookup; /* eax = target pc (stored): jumps to its block or exits */
} rv_jit_code;
void rv_jit_code_space(struct rv_jit *jit, rv_jit_code *code);
void rv_jit_code_used(struct rv_jit *jit, uint8_t *new_start);
/* Empties the code memory (jit_share.c, when the pool is emptied). */
void rv_jit_code_reset(struct rv_jit *jit);

/* jit_translate.c: translates b (whose content the pool keeps in `copy`, which slow paths
 * reference) as translation `id`; NULL when the code memory is full. */
void *rv_jit_emit(rv_cpu *cpu, struct rv_jit *jit, const rv_block *copy, uint32_t id);

#endif
