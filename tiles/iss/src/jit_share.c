/* Translations shared by harts, and each hart's chains (jit.h).
 *
 * Two harts share a translation when their blocks have the same content: pc, end, instructions
 * with their costs and prefix sums, bounds, and the same taken-branch cost, which is everything
 * the translation is made of. A hart never shares with itself: the same content at the same pc in
 * two of its pages (one virtual page mapped to two physical pages over time) gets a second
 * translation, as a hart's chain entries belong to one of its blocks.
 */
#include "jit_pool.h"

#include <stdlib.h>
#include <string.h>

/* Code memory of a pool shared by harts, and of a hart's own pool. Reserved, not backed. */
#define SHARED_CODE_SIZE (64u * 1024u * 1024u)
#define OWN_CODE_SIZE    (16u * 1024u * 1024u)

rv_jit_pool *rv_jit_pool_create(void)
{
    return rv_jit_supported() ? rv_jit_create(SHARED_CODE_SIZE, true) : NULL;
}

rv_jit_pool *rv_jit_pool_create_sized(size_t code_bytes)
{
    return rv_jit_supported() ? rv_jit_create(code_bytes, false) : NULL;
}

void rv_jit_pool_destroy(rv_jit_pool *pool) { rv_jit_destroy(pool); }

static size_t block_size(const rv_block *b) { return sizeof *b + b->count * sizeof b->insn[0]; }

/* FNV-1a over what the key compares */
static uint32_t hash_of(const rv_block *b, uint32_t branch_taken)
{
    uint32_t h = 2166136261u;
    const uint32_t words[] = {b->vpc, b->end_pc, b->cycles, b->bound, b->count, branch_taken};
    const unsigned char *p = (const unsigned char *)words;
    for (size_t i = 0; i < sizeof words; i++)
        h = (h ^ p[i]) * 16777619u;
    p = (const unsigned char *)b->insn;
    for (size_t i = 0; i < b->count * sizeof b->insn[0]; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static bool same(const rv_jit_entry *e, const rv_block *b, uint32_t branch_taken)
{
    const rv_block *copy = e->copy;
    return e->branch_taken == branch_taken && copy->vpc == b->vpc && copy->end_pc == b->end_pc &&
           copy->cycles == b->cycles && copy->bound == b->bound && copy->count == b->count &&
           copy->loads == b->loads && copy->stores == b->stores && copy->muls == b->muls &&
           copy->divs == b->divs && memcmp(copy->insn, b->insn, b->count * sizeof b->insn[0]) == 0;
}

static rv_jit_entry *find(struct rv_jit *jit, const rv_block *b, uint32_t hash,
                          uint32_t branch_taken)
{
    if (!jit->table)
        return NULL;
    for (uint32_t i = hash & (jit->table_size - 1);; i = (i + 1) & (jit->table_size - 1)) {
        rv_jit_entry *e = &jit->table[i];
        if (!e->copy)
            return NULL;
        if (e->hash == hash && same(e, b, branch_taken))
            return e;
    }
}

static bool insert(struct rv_jit *jit, rv_jit_entry entry)
{
    if (2 * (jit->entries + 1) > jit->table_size) {
        uint32_t size = jit->table_size ? 2 * jit->table_size : 1024;
        rv_jit_entry *table = calloc(size, sizeof *table);
        if (!table)
            return false;
        for (uint32_t k = 0; k < jit->table_size; k++) {
            const rv_jit_entry *e = &jit->table[k];
            if (!e->copy)
                continue;
            uint32_t i = e->hash & (size - 1);
            while (table[i].copy)
                i = (i + 1) & (size - 1);
            table[i] = *e;
        }
        free(jit->table);
        jit->table = table;
        jit->table_size = size;
    }
    uint32_t i = entry.hash & (jit->table_size - 1);
    while (jit->table[i].copy)
        i = (i + 1) & (jit->table_size - 1);
    jit->table[i] = entry;
    jit->entries++;
    return true;
}

static rv_block *copy_of(struct rv_jit *jit, const rv_block *b)
{
    rv_block *copy = rv_arena_alloc(&jit->copies, block_size(b));
    if (!copy)
        return NULL;
    memcpy(copy, b, block_size(b));
    copy->runs = 0;
    copy->next[0] = copy->next[1] = NULL;
    copy->code = NULL;
    return copy;
}

void rv_jit_forget(struct rv_jit *jit)
{
    free(jit->table);
    jit->table = NULL;
    jit->table_size = jit->entries = 0;
    rv_arena_free(jit->copies);
    jit->copies = NULL;
    jit->ids = 0;
}

/* The hart's chain and ownership tables cover translation id. */
static bool hart_reserve(rv_cpu *cpu, uint32_t id)
{
    rv_block_state *s = &cpu->blk;
    if (id < s->chain_ids)
        return true;
    uint32_t ids = s->chain_ids ? 2 * s->chain_ids : 256;
    while (ids <= id)
        ids *= 2;
    const void **chain = realloc((void *)s->chain, (size_t)ids * 2 * sizeof *chain);
    if (!chain)
        return false;
    s->chain = chain;
    uint8_t *owned = realloc(s->owned, ids);
    if (!owned)
        return false;
    s->owned = owned;
    memset((void *)(chain + 2 * (size_t)s->chain_ids), 0,
           (size_t)(ids - s->chain_ids) * 2 * sizeof *chain);
    memset(owned + s->chain_ids, 0, ids - s->chain_ids);
    s->chain_ids = ids;
    return true;
}

/* The hart's pool: the platform's, or one of its own made now. */
static struct rv_jit *pool_of(rv_cpu *cpu)
{
    rv_block_state *s = &cpu->blk;
    if (!s->jit) {
        s->jit = cpu->cfg.jit_pool;
        s->jit_own = !s->jit;
        if (s->jit_own)
            s->jit = rv_jit_create(OWN_CODE_SIZE, false);
        if (s->jit)
            s->jit_gen = s->jit->generation;
    }
    return s->jit;
}

bool rv_jit_translate(rv_cpu *cpu, rv_block *b)
{
    struct rv_jit *jit = pool_of(cpu);
    if (!jit) { /* no executable memory: the block interpreter it is */
        cpu->blk.engine = RV_ENGINE_BLOCK;
        return false;
    }
    if (jit->flush_pending)
        return false;
    uint32_t branch_taken = cpu->cfg.timing.branch_taken;
    uint32_t hash = hash_of(b, branch_taken);
    const rv_jit_entry *e = find(jit, b, hash, branch_taken);
    uint32_t id;
    void *code;
    if (e && hart_reserve(cpu, e->id) && !cpu->blk.owned[e->id]) {
        id = e->id;
        code = e->code;
        cpu->blk.counters.translations_shared++;
    } else {
        rv_block *copy = copy_of(jit, b);
        id = jit->ids;
        code = copy ? rv_jit_emit(cpu, jit, copy, id) : NULL;
        rv_jit_entry entry = {hash, id, branch_taken, copy, code};
        if (!code || !hart_reserve(cpu, id) || (!e && !insert(jit, entry))) {
            jit->flush_pending = true; /* full: emptied when no hart is inside translated code */
            return false;
        }
        jit->ids++;
    }
    cpu->blk.owned[id] = 1;
    cpu->blk.counters.translations++;
    b->code = code;
    return true;
}

void rv_jit_sync(rv_cpu *cpu)
{
    struct rv_jit *jit = cpu->blk.jit;
    if (jit->flush_pending && jit->inside == 0) {
        rv_jit_forget(jit);
        rv_jit_code_reset(jit);
        jit->generation++;
        jit->flush_pending = false;
    }
    if (cpu->blk.jit_gen != jit->generation) {
        rv_blocks_drop(cpu); /* their code is gone */
        cpu->blk.jit_gen = jit->generation;
    }
}

void rv_jit_chain(rv_cpu *cpu, uint32_t slot, const rv_block *target)
{
    cpu->blk.chain[slot] = target->code;
}

void rv_jit_unchain_all(rv_cpu *cpu)
{
    rv_block_state *s = &cpu->blk;
    if (s->chain_ids) {
        memset((void *)s->chain, 0, (size_t)s->chain_ids * 2 * sizeof *s->chain);
        memset(s->owned, 0, s->chain_ids);
    }
}

void rv_jit_hart_free(rv_cpu *cpu)
{
    rv_block_state *s = &cpu->blk;
    free((void *)s->chain);
    free(s->owned);
    s->chain = NULL;
    s->owned = NULL;
    s->chain_ids = 0;
    if (s->jit_own)
        rv_jit_destroy(s->jit);
    s->jit = NULL;
}
