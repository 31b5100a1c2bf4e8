/* FreeRTOS configuration of the evtrace FreeRTOS example on FreeRTOS's POSIX port (Linux): this
 * target's settings, then the part both examples share (../freertos-common/FreeRTOSConfig_common.h:
 * the kernel features, the counting hooks and evtrace's trace macros, included last). Run-time stats
 * on the recorder's own timestamp counter. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include <stdint.h>
void app_assert_failed(const char *file, int line); /* main.c */
#endif

#define configMINIMAL_STACK_SIZE                ((unsigned short)1024)
#define configTOTAL_HEAP_SIZE                   ((size_t)(1024 * 1024))
#define configTIMER_QUEUE_LENGTH                16
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configRUN_TIME_COUNTER_TYPE             uint64_t
/* The POSIX port defines portGET_RUN_TIME_COUNTER_VALUE as the process's user CPU time in 10 ms
 * units (times()); the kernel prefers the ALT form, here the recorder's timestamp counter from the
 * first switch-in (app_run_time, ../freertos-common/app.c). */
#define portALT_GET_RUN_TIME_COUNTER_VALUE(x)   ((x) = app_run_time())
#define configASSERT(x)                         do { if (!(x)) app_assert_failed(__FILE__, __LINE__); } while (0)
#define INCLUDE_xTaskGetIdleTaskHandle          1
#define INCLUDE_xSemaphoreGetMutexHolder        1

#include "FreeRTOSConfig_common.h"

#endif
