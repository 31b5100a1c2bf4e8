/* FreeRTOS configuration of the evtrace FreeRTOS example on FreeRTOS's POSIX port (Linux): a
 * 1 kHz tick with time slicing, run-time stats on the recorder's own timestamp counter, and
 * evtrace's trace macros included at the end (the one line docs/freertos.md asks for). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include <stdint.h>
/* The example's hooks (main.c): run-time counter, switch-in and inheritance counters, assert. */
uint64_t app_run_time(void);
void app_run_time_start(void);
void app_switched_in(void *tcb);
void app_inherited(void *tcb);
void app_assert_failed(const char *file, int line);
#endif

#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     1
#define configTICK_RATE_HZ                      1000
#define configMINIMAL_STACK_SIZE                ((unsigned short)1024)
#define configMAX_PRIORITIES                    8
#define configMAX_TASK_NAME_LEN                 16
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TRACE_FACILITY                1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configUSE_TASK_NOTIFICATIONS            1
#define configQUEUE_REGISTRY_SIZE               8
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configSUPPORT_STATIC_ALLOCATION         0
#define configTOTAL_HEAP_SIZE                   ((size_t)(1024 * 1024))
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH                16
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)
#define configGENERATE_RUN_TIME_STATS           1
#define configRUN_TIME_COUNTER_TYPE             uint64_t
/* The POSIX port defines portGET_RUN_TIME_COUNTER_VALUE as the process's user CPU time in 10 ms
 * units (times()); the kernel prefers the ALT form, here the recorder's timestamp counter from the
 * scheduler's start (app_run_time_start in main). */
#define portALT_GET_RUN_TIME_COUNTER_VALUE(x)   ((x) = app_run_time())
#define configASSERT(x)                         do { if (!(x)) app_assert_failed(__FILE__, __LINE__); } while (0)

#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_xTaskDelayUntil                 1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskGetSchedulerState          1
#define INCLUDE_xTaskGetCurrentTaskHandle       1
#define INCLUDE_xTaskGetIdleTaskHandle          1
#define INCLUDE_xSemaphoreGetMutexHolder        1

/* The application's own counters, beside evtrace's records (compared by the example's test). */
#define evtFREERTOS_APP_SWITCHED_IN()            app_switched_in(pxCurrentTCB)
#define evtFREERTOS_APP_PRIORITY_INHERIT(t, p)   app_inherited(t)

#include "evtrace/freertos_trace.h"

#endif
