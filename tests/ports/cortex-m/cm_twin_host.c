/* Host twin of the Cortex-M harness: records cm_script.h with the host build of the recorder
 * (POSIX port; the interrupt is the port's in-ISR flag) and writes the buffer to a file, which
 * run_cortexm.sh compares byte for byte with the buffer the Cortex-M4 build wrote under QEMU.
 * Usage: cortexm_twin OUT.trx */
#include <stdio.h>

#include "evtrace/port.h"

static uint32_t cm_host_task; /* the "running task" of the script */
#define CM_SET_TASK(addr) (cm_host_task = (addr))
#define CM_GET_TASK() cm_host_task
#include "cm_script.h"

static void cm_platform_isr(void (*fn)(void))
{
    evt_posix_in_isr = 1;
    fn();
    evt_posix_in_isr = 0;
}

static uint8_t cm_buf[CM_BUF_SIZE];

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.trx\n", argv[0]);
        return 2;
    }
    int rc = cm_script_run(cm_buf);
    if (rc != 0)
        fprintf(stderr, "cortexm_twin: script API results wrong (enable %u, user %u, wraps %u, clock %u)\n",
                (unsigned)cm_enable_rc, (unsigned)cm_user_rc, (unsigned)cm_wraps, (unsigned)cm_clock);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(cm_buf, 1, sizeof cm_buf, f) != sizeof cm_buf || fclose(f) != 0) {
        fprintf(stderr, "cortexm_twin: cannot write %s\n", argv[1]);
        return 1;
    }
    return rc;
}
