/* FreeRTOS configuration of the evtrace FreeRTOS example on QEMU's mps2-an385 (Cortex-M3, 25 MHz,
 * FreeRTOS's ARM_CM3 port): this target's settings, then the part both examples share
 * (../freertos-common/FreeRTOSConfig_common.h: the kernel features, the counting hooks and evtrace's
 * trace macros, included last). Run-time stats on the board's cycle counter (the trace's clock too). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include <stdint.h>
void app_assert_failed(int line); /* main.c */
#endif

#define configCPU_CLOCK_HZ                      25000000u
#define configMINIMAL_STACK_SIZE                ((unsigned short)256)
#define configTOTAL_HEAP_SIZE                   ((size_t)(48 * 1024))
#define configTIMER_QUEUE_LENGTH                8
#define configRUN_TIME_COUNTER_TYPE             uint32_t
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() do { } while (0)
#define portGET_RUN_TIME_COUNTER_VALUE()        ((uint32_t)app_run_time())
#define configKERNEL_INTERRUPT_PRIORITY         255
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0xA0 /* the ISR that gives a semaphore runs at 0xE0 */
#define configASSERT(x)                         do { if (!(x)) app_assert_failed(__LINE__); } while (0)

#include "FreeRTOSConfig_common.h"

#endif
