/* Default demo: every core of every tile says where it runs and does a small piece of work.
 *
 * Each core sums the integers of its own slice of 1..N (slices split over the tile's cores), the
 * cores of a tile meet at a barrier, and core 0 prints the tile total, which must equal
 * N*(N+1)/2 on every tile: a visible check that SMP start-up, atomics and barriers work. Core 0
 * of tile 0 also prints the platform summary. Exit code 0, or 1 if the tile total is wrong. */
#include <stdio.h>

#include "hal/hal.h"

#define WORK_N 20000u

static volatile uint32_t tile_sum_lo; /* shared by the cores of this tile */
static volatile uint32_t tile_sum_hi;

static uint64_t sum_slice(uint32_t core, uint32_t cores)
{
    uint32_t per = (WORK_N + cores - 1) / cores;
    uint32_t first = core * per + 1;
    uint32_t last = first + per - 1 > WORK_N ? WORK_N : first + per - 1;
    uint64_t sum = 0;
    for (uint32_t i = first; i <= last; i++)
        sum += i;
    return sum;
}

static void print_platform_summary(void)
{
    uint32_t version = tile_platform_version();
    printf("namp-vp platform %lu.%lu: %lux%lu mesh (%lu tiles), %lu core(s) per tile, "
           "SRAM %lu KiB at 0x%08lx, core clock %lu Hz, timer %lu Hz\n",
           (unsigned long)(version >> 16), (unsigned long)(version & 0xFFFF),
           (unsigned long)tile_mesh_width(), (unsigned long)tile_mesh_height(),
           (unsigned long)(tile_mesh_width() * tile_mesh_height()), (unsigned long)tile_num_cores(),
           (unsigned long)(tile_sram_size() / 1024), (unsigned long)tile_sram_base(),
           (unsigned long)tile_clock_hz(), (unsigned long)tile_timer_hz());
}

int main(void)
{
    uint32_t core = tile_core_id();
    uint32_t cores = tile_num_cores();

    if (tile_id() == 0 && core == 0)
        print_platform_summary();

    printf("hello from tile %lu (%lu,%lu) core %lu of %lu\n", (unsigned long)tile_id(),
           (unsigned long)tile_x(), (unsigned long)tile_y(), (unsigned long)core,
           (unsigned long)cores);

    /* 64-bit total accumulated with two 32-bit AMOs; the carry goes into the high word. */
    uint64_t mine = sum_slice(core, cores);
    uint32_t lo = (uint32_t)mine;
    uint32_t old = atomic_fetch_add_u32(&tile_sum_lo, lo);
    uint32_t carry = (uint32_t)(old + lo < old);
    atomic_fetch_add_u32(&tile_sum_hi, (uint32_t)(mine >> 32) + carry);
    tile_barrier();

    if (core != 0)
        return 0;
    uint64_t total = ((uint64_t)tile_sum_hi << 32) | tile_sum_lo;
    uint64_t expect = (uint64_t)WORK_N * (WORK_N + 1) / 2;
    printf("tile %lu: sum 1..%lu over %lu core(s) = %llu (%s), core 0 retired %llu instructions\n",
           (unsigned long)tile_id(), (unsigned long)WORK_N, (unsigned long)cores,
           (unsigned long long)total, total == expect ? "ok" : "WRONG",
           (unsigned long long)cpu_instret());
    return total == expect ? 0 : 1;
}
