/* k_printf and u_write print whole lines (docs/kernel.md): a write without a trailing newline is
 * a line of its own, not text the next write continues. A kernel thread and a task each write
 * twice without a newline, then once with one; every write must come out as its own line:
 * "kernel line 1", "kernel line 2", "task line 1", "task line 2", "kernel lines ok". */
#include <stdint.h>

#include "hal/hal.h"
#include "kernel/user.h"
#include "ktest.h"

volatile unsigned ktest_failures;

struct task_text {
    char one[12], two[12];
};

static void task_writer(void *arg)
{
    const struct task_text *t = arg;
    u_write(t->one, 11);
    u_write(t->two, 11);
    u_exit(0);
}

static void main_thread(void *arg)
{
    (void)arg;
    k_printf("kernel line %d", 1);
    k_printf("kernel line %d", 2);
    static const struct task_text text = {"task line 1", "task line 2"};
    k_task_image_t img = {"writer", task_writer, &text, sizeof text, 1, 3, 0};
    k_thread_t *t = k_task_create(&img);
    CHECK(t != NULL);
    int status = -1;
    CHECK_EQ(k_join(t, K_FOREVER, &status), K_OK);
    CHECK_EQ(status, 0);
    if (ktest_failures == 0)
        k_printf("kernel lines ok\n");
    k_exit(ktest_failures != 0);
}

int main(void)
{
    if (hart_id() == 0) {
        k_config_t cfg = {.tick_ticks = 500, .slice_ticks = 1};
        k_init(&cfg);
        k_thread_create("main", main_thread, NULL, 10, 0);
    }
    k_start();
}
