/* FreeRTOS configuration of the matrix application (matrix_app.c): the kernel settings the other
 * FreeRTOS checks do not use, chosen per build by CMake (freertos.cmake): MATRIX_PREEMPT and
 * MATRIX_SLICE (configUSE_PREEMPTION, configUSE_TIME_SLICING), MATRIX_STATIC (static allocation only),
 * MATRIX_PRIOS (configMAX_PRIORITIES; > 16: the tasks at 30..37, the timer daemon at the top),
 * MATRIX_NAMELEN (configMAX_TASK_NAME_LEN; 2: one-letter names), MATRIX_NOTIFY_N (notification array
 * entries) and MATRIX_TICK0 (configINITIAL_TICK_COUNT: near the end of TickType_t, the tick count
 * wraps during the run). Last: evtrace's trace macros, as docs/freertos.md asks. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include "evt_freertos_test.h" /* FreeRTOS's counters in the hooks below (tests/support) */
#endif

#ifndef MATRIX_PREEMPT
#define MATRIX_PREEMPT 1
#endif
#ifndef MATRIX_SLICE
#define MATRIX_SLICE 1
#endif
#ifndef MATRIX_STATIC
#define MATRIX_STATIC 0
#endif
#ifndef MATRIX_PRIOS
#define MATRIX_PRIOS 8
#endif
#ifndef MATRIX_NAMELEN
#define MATRIX_NAMELEN 16
#endif
#ifndef MATRIX_NOTIFY_N
#define MATRIX_NOTIFY_N 1
#endif
#ifndef MATRIX_TICK0
#define MATRIX_TICK0 0
#endif

#define configUSE_PREEMPTION                    MATRIX_PREEMPT
#define configUSE_TIME_SLICING                  MATRIX_SLICE
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configTICK_RATE_HZ                      1000u
#define configINITIAL_TICK_COUNT                MATRIX_TICK0
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     1
#define configMAX_PRIORITIES                    MATRIX_PRIOS
#define configMINIMAL_STACK_SIZE                ((unsigned short)1024)
#define configTOTAL_HEAP_SIZE                   ((size_t)(1024 * 1024))
#define configMAX_TASK_NAME_LEN                 MATRIX_NAMELEN
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TRACE_FACILITY                1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configUSE_QUEUE_SETS                    1
#define configUSE_TASK_NOTIFICATIONS            1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES   MATRIX_NOTIFY_N
#define configQUEUE_REGISTRY_SIZE               16
#define configSUPPORT_DYNAMIC_ALLOCATION        (!MATRIX_STATIC)
#define configSUPPORT_STATIC_ALLOCATION         1
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH                16
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)
#define configGENERATE_RUN_TIME_STATS           1
#define configRUN_TIME_COUNTER_TYPE             uint64_t
#define portALT_GET_RUN_TIME_COUNTER_VALUE(x)   ((x) = evt_freertos_test_run_time())
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configASSERT(x)                         do { if (!(x)) evt_freertos_test_assert(__FILE__, __LINE__); } while (0)
#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_xTaskDelayUntil                 1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskGetSchedulerState          1
#define INCLUDE_xTaskGetCurrentTaskHandle       1
#define INCLUDE_xTaskAbortDelay                 1
#define INCLUDE_eTaskGetState                   1

/* FreeRTOS's own counters, beside evtrace's records (evtrace/freertos_trace.h's application hooks) */
#define evtFREERTOS_APP_SWITCHED_IN()            evt_freertos_test_switched_in(pxCurrentTCB)
#define evtFREERTOS_APP_PRIORITY_INHERIT(t, p)   evt_freertos_test_inherited(t)
#define evtFREERTOS_APP_MOVED_TO_READY(t)        evt_freertos_test_ready(t)
#define evtFREERTOS_APP_TASK_DELETE(t)           evt_freertos_test_deleted(t)

#include "evtrace/freertos_trace.h"

#endif
