/* Decode cache and instruction fetch.
 *
 * Each DMI region has one pointer per 4 KiB physical page to an array of decoded instructions, one
 * slot per halfword, allocated on the first fetch from that page and filled lazily. The executor
 * remembers the virtual page it is fetching from (fetch_vpage/fetch_code), so the common fetch is a
 * compare and an array index. Fetches from outside DMI, and 32-bit instructions straddling a page
 * boundary (whose second half may live in another physical page), are decoded every time into a
 * scratch slot. Stores into code are not seen until fence.i or rv_cpu_flush_decode_cache (the ISA
 * allows this).
 */
#include "block.h"
#include "cpu_internal.h"

#include <stdlib.h>
#include <string.h>

static const rv_insn *fetch_uncached(rv_cpu *cpu, uint32_t paddr)
{
    uint32_t pc = cpu->pc;
    uint32_t lo;
    if (!rv_phys_read(cpu, paddr, 2, &lo, RV_ACCESS_FETCH)) {
        rv_raise(cpu, RV_EXC_INSN_ACCESS, pc);
        return NULL;
    }
    uint32_t word = lo;
    if ((lo & 3u) == 3u) {
        uint32_t hi;
        const rv_tlb_entry *e = rv_translate_fetch(cpu, pc + 2u);
        if (!e)
            return NULL;
        uint32_t paddr_hi = e->ppn_base | ((pc + 2u) & RV_PAGE_MASK);
        if (!rv_phys_read(cpu, paddr_hi, 2, &hi, RV_ACCESS_FETCH)) {
            rv_raise(cpu, RV_EXC_INSN_ACCESS, pc + 2u);
            return NULL;
        }
        word |= hi << 16;
    }
    cpu->stats.decode_cache_misses++;
    rv_decode(cpu, word, &cpu->scratch);
    return &cpu->scratch;
}

const rv_insn *rv_fill_slot(rv_cpu *cpu, rv_insn *slot)
{
    uint32_t off = cpu->pc & RV_PAGE_MASK;
    const uint8_t *host = cpu->fetch_dmi->host + (cpu->fetch_ppage - cpu->fetch_dmi->base) + off;
    uint32_t word = (uint32_t)host[0] | ((uint32_t)host[1] << 8);
    if ((word & 3u) == 3u) {
        if (off == RV_PAGE_SIZE - 2u)
            return fetch_uncached(cpu, cpu->fetch_ppage | off);
        word |= ((uint32_t)host[2] << 16) | ((uint32_t)host[3] << 24);
    }
    cpu->stats.decode_cache_misses++;
    rv_decode(cpu, word, slot);
    return slot;
}

/* Translates pc's page and, if it is DMI, makes it the fetch page (its decoded page allocated).
 * Returns the fetch TLB entry (NULL after a fetch trap) and whether the page is now cached. */
static rv_tlb_entry *enter_page(rv_cpu *cpu, bool *cached)
{
    uint32_t pc = cpu->pc;
    *cached = false;
    cpu->fetch_vpage = RV_TLB_INVALID;
    /* A watched page is entered only by rv_cpu_run_debug, and its TLB entry never gets the code
     * page: translated code and chained blocks find pages through it, so they cannot enter. */
    bool watched = RV_UNLIKELY(cpu->code_watch_count != 0) && rv_code_watch_contains(cpu, pc);
    if (watched && !cpu->code_watch_suspended) {
        cpu->code_watch_hit = true;
        return NULL;
    }
    rv_tlb_entry *e = rv_translate_fetch(cpu, pc);
    if (!e || !e->dmi)
        return e;
    rv_dmi *d = e->dmi;
    rv_code_page *page = e->code;
    if (!page) {
        uint32_t index = (e->ppn_base - (d->base & ~RV_PAGE_MASK)) >> RV_PAGE_SHIFT;
        page = d->code[index];
        if (!page) {
            page = calloc(1, sizeof *page);
            if (!page)
                return e;
            d->code[index] = page;
        }
        if (!watched)
            e->code = page;
    }
    cpu->fetch_vpage = pc & ~RV_PAGE_MASK;
    cpu->fetch_code = page;
    cpu->fetch_dmi = d;
    cpu->fetch_ppage = e->ppn_base;
    *cached = true;
    return e;
}

int rv_fetch_page(rv_cpu *cpu)
{
    bool cached;
    if (!enter_page(cpu, &cached)) {
        if (RV_UNLIKELY(cpu->code_watch_hit)) {
            cpu->code_watch_hit = false;
            return -2;
        }
        return -1;
    }
    return cached ? 1 : 0;
}

const rv_insn *rv_fetch_slow(rv_cpu *cpu)
{
    uint32_t pc = cpu->pc;
    bool cached;
    rv_tlb_entry *e = enter_page(cpu, &cached);
    if (!e)
        return NULL;
    if (!cached)
        return fetch_uncached(cpu, e->ppn_base | (pc & RV_PAGE_MASK));
    rv_insn *slot = &cpu->fetch_code->slot[(pc & RV_PAGE_MASK) >> 1];
    if (slot->op != RV_OP_UNDECODED)
        return slot;
    return rv_fill_slot(cpu, slot);
}

/* Zeroes (empties) every allocated page rather than freeing it: the executor may still hold a
 * pointer to the slot of the instruction being executed (fence.i, or a host flush from inside a bus
 * callback), and pages are reused anyway. The blocks built from the slots go with them. */
void rv_decode_cache_flush(rv_cpu *cpu)
{
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        rv_dmi *d = &cpu->dmi[i];
        for (uint32_t p = 0; p < d->code_pages; p++)
            if (d->code[p])
                memset(d->code[p]->slot, 0, sizeof d->code[p]->slot);
    }
    rv_blocks_drop(cpu);
    cpu->fetch_vpage = RV_TLB_INVALID;
}

void rv_decode_cache_free(rv_cpu *cpu)
{
    for (unsigned i = 0; i < cpu->dmi_count; i++) {
        rv_dmi *d = &cpu->dmi[i];
        for (uint32_t p = 0; p < d->code_pages; p++) {
            if (d->code[p])
                free(d->code[p]->blocks);
            free(d->code[p]);
            d->code[p] = NULL;
        }
    }
    cpu->fetch_vpage = RV_TLB_INVALID;
}
