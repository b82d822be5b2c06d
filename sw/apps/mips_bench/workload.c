/* The benchmark kernels: CRC32, integer matrix multiply, sieve of Eratosthenes and heap sort, on
 * pseudo-random data that depends on the round, all folded into one checksum. Integer only
 * (RV32IMAC has no FPU), deterministic, and a mix of loads/stores, branches, multiplies and
 * divides so that no single instruction class dominates the timing. */
#include "workload.h"

#include <stddef.h>

#define BUF_WORDS 1024u
#define MAT_N     24u
#define SIEVE_MAX 8192u

/* Module-level work areas (about 14 KiB): too large for a small per-core stack. */
static uint32_t buf[BUF_WORDS];
static int32_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N], mat_c[MAT_N][MAT_N];
static uint8_t sieve[SIEVE_MAX + 1024];
static uint32_t crc_table[256];

static uint32_t xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static void crc32_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32(uint32_t crc, const uint8_t *p, size_t len)
{
    crc = ~crc;
    while (len--)
        crc = crc_table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static uint32_t matmul(void)
{
    for (uint32_t i = 0; i < MAT_N; i++)
        for (uint32_t j = 0; j < MAT_N; j++) {
            int32_t sum = 0;
            for (uint32_t k = 0; k < MAT_N; k++)
                sum += mat_a[i][k] * mat_b[k][j];
            mat_c[i][j] = sum;
        }
    uint32_t h = 0;
    for (uint32_t i = 0; i < MAT_N; i++)
        h = h * 31u + (uint32_t)mat_c[i][(i * 7u) % MAT_N];
    return h;
}

static uint32_t count_primes(uint32_t limit)
{
    for (uint32_t i = 0; i <= limit; i++)
        sieve[i] = 1;
    sieve[0] = sieve[1] = 0;
    for (uint32_t i = 2; i * i <= limit; i++)
        if (sieve[i])
            for (uint32_t j = i * i; j <= limit; j += i)
                sieve[j] = 0;
    uint32_t count = 0, weighted = 0;
    for (uint32_t i = 0; i <= limit; i++)
        if (sieve[i]) {
            count++;
            weighted += i % 97u; /* a divide per prime */
        }
    return count ^ (weighted << 12);
}

static void sift_down(uint32_t *a, size_t start, size_t end)
{
    size_t root = start;
    while (2 * root + 1 <= end) {
        size_t child = 2 * root + 1;
        if (child + 1 <= end && a[child] < a[child + 1])
            child++;
        if (a[root] >= a[child])
            return;
        uint32_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void heap_sort(uint32_t *a, size_t n)
{
    for (size_t start = n / 2; start-- > 0;)
        sift_down(a, start, n - 1);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end - 1);
    }
}

static uint32_t sorted_digest(const uint32_t *a, size_t n)
{
    uint32_t h = 0;
    for (size_t i = 1; i < n; i++) {
        if (a[i - 1] > a[i])
            return 0xDEADBEEFu; /* never for a correct sort (and a correct core) */
        h += a[i] >> (i & 7);
    }
    return h;
}

uint32_t bench_run(uint32_t rounds)
{
    uint32_t checksum = 0x12345678u;
    crc32_init();
    for (uint32_t r = 0; r < rounds; r++) {
        uint32_t seed = 0x9E3779B9u ^ (r * 2654435761u);
        if (seed == 0)
            seed = 1;
        for (uint32_t i = 0; i < BUF_WORDS; i++)
            buf[i] = xorshift32(&seed);

        checksum ^= crc32(checksum, (const uint8_t *)buf, sizeof buf);

        for (uint32_t i = 0; i < MAT_N; i++)
            for (uint32_t j = 0; j < MAT_N; j++) {
                mat_a[i][j] = (int32_t)(buf[i * MAT_N + j] % 2001u) - 1000;
                mat_b[i][j] = (int32_t)(buf[(i * MAT_N + j + 512u) % BUF_WORDS] % 2001u) - 1000;
            }
        checksum = (checksum << 5 | checksum >> 27) ^ matmul();

        checksum += count_primes(SIEVE_MAX + (r % 1024u));

        heap_sort(buf, BUF_WORDS);
        checksum ^= sorted_digest(buf, BUF_WORDS) * 0x01000193u;
    }
    return checksum;
}
