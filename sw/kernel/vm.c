/* Sv32 address spaces of tasks: a pool of 4 KiB pages for page tables, data and stacks, mapping,
 * and the kernel's check of user pointers (it walks the task's tables in software). The kernel
 * itself runs in M-mode without translation, so physical = kernel address. */
#include <string.h>

#include "kinternal.h"

static uint8_t pool[K_PAGE_POOL][K_PAGE_SIZE] __attribute__((aligned(K_PAGE_SIZE)));
static uint8_t pool_used[K_PAGE_POOL];
/* Tests (docs/security.md): free pages hold a pattern, checked when they are taken again, so that
 * a write into a page after it went back to the pool is seen. */
static uint32_t poison, poison_damage;

static uint32_t poison_check(uint32_t i)
{
    uint32_t bad = 0;
    for (uint32_t w = 0; w < K_PAGE_SIZE / 4; ++w)
        bad += ((const uint32_t *)pool[i])[w] != poison;
    return bad;
}

static void poison_fill(uint32_t i)
{
    for (uint32_t w = 0; w < K_PAGE_SIZE / 4; ++w)
        ((uint32_t *)pool[i])[w] = poison;
}

void k_pages_poison(uint32_t pattern)
{
    poison = pattern;
    poison_damage = 0;
    for (uint32_t i = 0; pattern && i < K_PAGE_POOL; ++i)
        if (!pool_used[i])
            poison_fill(i);
}

uint32_t k_pages_damage(void)
{
    uint32_t bad = poison_damage;
    for (uint32_t i = 0; poison && i < K_PAGE_POOL; ++i)
        if (!pool_used[i])
            bad += poison_check(i);
    return bad;
}

int k_page_free_at(uint32_t addr)
{
    const uint32_t off = addr - (uint32_t)(uintptr_t)pool;
    return off < sizeof pool && !pool_used[off / K_PAGE_SIZE];
}

void *vm_page_alloc(void)
{
    for (uint32_t i = 0; i < K_PAGE_POOL; ++i)
        if (!pool_used[i]) {
            pool_used[i] = 1;
            if (poison)
                poison_damage += poison_check(i);
            memset(pool[i], 0, K_PAGE_SIZE);
            return pool[i];
        }
    return NULL;
}

uint32_t k_pages_free(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < K_PAGE_POOL; ++i)
        n += !pool_used[i];
    return n;
}

void vm_page_free(void *p)
{
    uint32_t i = (uint32_t)((uint8_t *)p - &pool[0][0]) / K_PAGE_SIZE;
    if ((uint8_t *)p >= &pool[0][0] && i < K_PAGE_POOL) {
        pool_used[i] = 0;
        if (poison)
            poison_fill(i);
    }
}

static int in_pool(uint32_t pa) { return pa - (uint32_t)pool < sizeof pool; }

int vm_map(uint32_t *root, uint32_t va, uint32_t pa, uint32_t flags)
{
    uint32_t *l1 = &root[va >> 22];
    if (!(*l1 & PTE_V)) {
        uint32_t *table = vm_page_alloc();
        if (!table)
            return K_ENOMEM;
        *l1 = ((uint32_t)table >> 12) << 10 | PTE_V;
    }
    uint32_t *l0 = (uint32_t *)((*l1 >> 10) << 12);
    uint32_t *pte = &l0[(va >> 12) & 0x3ffu];
    if (*pte & PTE_V)
        return K_EINVAL; /* mapped twice: a bug of the caller */
    /* A and D preset: the kernel does not track them, and the walker need not write the table. */
    *pte = (pa >> 12) << 10 | flags | PTE_V | PTE_A | PTE_D;
    return K_OK;
}

static uint32_t lookup(const struct k_task *task, uint32_t va, uint32_t flags)
{
    uint32_t l1 = task->root[va >> 22];
    if (!(l1 & PTE_V) || (l1 & (PTE_R | PTE_X)))
        return 0; /* the kernel maps no megapages */
    uint32_t pte = ((uint32_t *)((l1 >> 10) << 12))[(va >> 12) & 0x3ffu];
    if (!(pte & PTE_V) || !(pte & PTE_U) || (pte & flags) != flags)
        return 0;
    return ((pte >> 10) << 12) | (va & 0xfffu);
}

/* The tile's SRAM (read once from the tile information block). */
static uint32_t sram_base, sram_size;

static int in_sram(uint32_t pa, uint32_t len)
{
    if (!sram_size) {
        sram_base = tile_sram_base();
        sram_size = tile_sram_size();
    }
    return pa >= sram_base && pa - sram_base < sram_size && len <= sram_size - (pa - sram_base);
}

uint32_t vm_user_range(const struct k_task *task, uint32_t va, uint32_t len, uint32_t flags)
{
    if (len == 0 || va + len < va)
        return 0;
    uint32_t pa = lookup(task, va, flags);
    /* Ranges that cross pages must be physically contiguous for the kernel's plain access. */
    for (uint32_t off = K_PAGE_SIZE - (va & 0xfffu); pa && off < len; off += K_PAGE_SIZE)
        if (lookup(task, va + off, flags) != pa + off)
            return 0;
    /* Only memory: a device or vif page the task has mapped is never a buffer of the kernel's
     * (reading a vif's registers as a string would start transfers; docs/kernel.md). */
    return pa && in_sram(pa, len) ? pa : 0;
}

void vm_space_free(struct k_task *task)
{
    if (!task->root)
        return;
    for (uint32_t i = 0; i < 1024; ++i) {
        uint32_t l1 = task->root[i];
        if (!(l1 & PTE_V))
            continue;
        uint32_t *l0 = (uint32_t *)((l1 >> 10) << 12);
        for (uint32_t j = 0; j < 1024; ++j) {
            uint32_t pa = (l0[j] >> 10) << 12;
            if ((l0[j] & PTE_V) && in_pool(pa)) /* pool pages are the task's own */
                vm_page_free((void *)pa);
        }
        vm_page_free(l0);
    }
    vm_page_free(task->root);
    task->root = NULL;
}
