/* The example's evtrace settings (EVT_APP_CONFIG, read first by the kit's evtrace_config.h). The
 * Makefile builds the application twice: EVT_CFG_STREAM=0 (snapshot) and 1 (live). */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#define EVT_CFG_TIMESTAMP_HZ 25000000u                 /* board_timestamp(): CPU cycles */
#define EVT_CFG_TXTB_REGISTRY_ENTRIES 8u               /* 3 tasks, the profile marker, spare */
#define EVT_CFG_TXTB_BUFFER_SIZE (48u + 48u * 8u + 32u * 1024u) /* 1024 events: a 100 ms run uses ~560 */
#define EVT_CFG_RTT_BUFFER_SIZE 16384u                 /* RTT build: ~0.3 s of this app's stream */
#define EVT_CFG_RKH_RING_SIZE 512u                     /* drained to the UART after every record */

#endif
