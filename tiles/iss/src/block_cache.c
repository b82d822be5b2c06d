/* Where blocks live: an arena per hart (blocks are dropped all at once, never one by one) and, per
 * decoded code page, a table with the block starting at each halfword.
 *
 * Dropping (decode-cache flush, DMI change, an emptied JIT pool) empties the tables at once, so no
 * lookup finds an old block, but reuses the memory only at the next dispatch (rv_blocks_reset):
 * a flush may come from a bus callback while a block, maybe translated code, is still running.
 */
#include "block.h"
#include "jit.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64u * 1024u)

void rv_blocks_init(rv_cpu *cpu, rv_engine engine)
{
    if (engine == RV_ENGINE_JIT && !rv_jit_supported())
        engine = RV_ENGINE_BLOCK;
    cpu->blk.engine = engine;
    rv_jcache_flush(cpu);
}

void rv_arena_free(rv_arena_chunk *c)
{
    while (c) {
        rv_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
}

void *rv_arena_alloc(rv_arena_chunk **head, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    rv_arena_chunk *c = *head;
    if (!c || c->size - c->used < size) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        rv_arena_chunk *n = malloc(sizeof *n + cap);
        if (!n)
            return NULL;
        n->size = cap;
        n->used = 0;
        n->next = c; /* the newest chunk first: only it has room */
        *head = c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

void rv_blocks_free(rv_cpu *cpu)
{
    rv_arena_free(cpu->blk.arena);
    cpu->blk.arena = NULL;
    rv_jit_hart_free(cpu);
}

void rv_blocks_drop(rv_cpu *cpu)
{
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        rv_dmi *d = &cpu->dmi[i];
        for (uint32_t p = 0; p < d->code_pages; p++)
            if (d->code[p] && d->code[p]->blocks)
                memset(d->code[p]->blocks, 0, (RV_PAGE_SIZE / 2) * sizeof *d->code[p]->blocks);
    }
    if (!cpu->blk.stale)
        cpu->blk.counters.drops++;
    rv_jcache_flush(cpu);
    cpu->blk.stale = true;
    cpu->blk.jit_patch_slot = 0;
}

void rv_jcache_flush(rv_cpu *cpu)
{
    if (cpu->blk.engine != RV_ENGINE_JIT)
        return;
    for (unsigned i = 0; i < RV_JCACHE_SIZE; i++)
        cpu->blk.jcache[i].pc = RV_JCACHE_EMPTY;
}

void rv_blocks_reset(rv_cpu *cpu)
{
    /* keep the first chunk: a hart that drops its blocks usually builds as many again */
    rv_arena_chunk *c = cpu->blk.arena;
    if (c) {
        rv_arena_free(c->next);
        c->next = NULL;
        c->used = 0;
    }
    rv_jit_unchain_all(cpu);
    cpu->blk.jit_patch_slot = 0;
    cpu->blk.stale = false;
}

void *rv_blocks_alloc(rv_cpu *cpu, size_t size) { return rv_arena_alloc(&cpu->blk.arena, size); }

rv_block **rv_block_slot(rv_cpu *cpu, uint32_t pc)
{
    rv_code_page *page = cpu->fetch_code;
    if (!page->blocks) {
        page->blocks = calloc(RV_PAGE_SIZE / 2, sizeof *page->blocks);
        if (!page->blocks)
            return NULL;
    }
    return &page->blocks[(pc & RV_PAGE_MASK) >> 1];
}
