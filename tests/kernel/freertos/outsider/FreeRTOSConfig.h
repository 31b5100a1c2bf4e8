/* FreeRTOS configuration of the outsider application (outsider_app.c): a FreeRTOS POSIX-port program
 * written apart from evtrace's examples, checked against FreeRTOS's own counters
 * (check_freertos.py outsider). OUTSIDER_PREEMPTION / OUTSIDER_TIME_SLICING choose the scheduler
 * (CMake builds 1/1, 1/0 and 0/1). Last: evtrace's trace macros, as docs/freertos.md asks. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include "evt_freertos_test.h" /* FreeRTOS's counters in the hooks below (tests/support) */
#endif

#ifndef OUTSIDER_PREEMPTION
#define OUTSIDER_PREEMPTION 1
#endif
#ifndef OUTSIDER_TIME_SLICING
#define OUTSIDER_TIME_SLICING 1
#endif
#define configUSE_PREEMPTION                    OUTSIDER_PREEMPTION
#define configUSE_TIME_SLICING                  OUTSIDER_TIME_SLICING
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configTICK_RATE_HZ                      1000u
#define configUSE_IDLE_HOOK                     1
#define configUSE_TICK_HOOK                     1
#define configMAX_PRIORITIES                    8
#define configMINIMAL_STACK_SIZE                ((unsigned short)1024)
#define configTOTAL_HEAP_SIZE                   ((size_t)(1024 * 1024))
#define configMAX_TASK_NAME_LEN                 16
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TRACE_FACILITY                1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configUSE_TASK_NOTIFICATIONS            1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES   3
#define configQUEUE_REGISTRY_SIZE               16
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configSUPPORT_STATIC_ALLOCATION         0
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               6
#define configTIMER_QUEUE_LENGTH                32
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)
#define configGENERATE_RUN_TIME_STATS           1
#define configRUN_TIME_COUNTER_TYPE             uint64_t
/* run-time stats on the recorder's timestamp counter from the first switch-in */
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
#define INCLUDE_xTimerPendFunctionCall          1
#define INCLUDE_xTaskGetIdleTaskHandle          1
#define INCLUDE_eTaskGetState                   1

/* FreeRTOS's own counters, beside evtrace's records (evtrace/freertos_trace.h's application hooks;
 * the disinheritance has none: its macro is defined here with evtrace's call, then the count). */
#define evtFREERTOS_APP_SWITCHED_IN()            evt_freertos_test_switched_in(pxCurrentTCB)
#define evtFREERTOS_APP_PRIORITY_INHERIT(t, p)   evt_freertos_test_inherited(t)
#define evtFREERTOS_APP_MOVED_TO_READY(t)        evt_freertos_test_ready(t)
#define evtFREERTOS_APP_TASK_DELETE(t)           evt_freertos_test_deleted(t)
#define traceTASK_PRIORITY_DISINHERIT(t, p)                                  \
    do {                                                                     \
        evtFREERTOS_IF_(evt_freertos_prio((t), (uint32_t)(p), 2u));          \
        evt_freertos_test_disinherited(t);                                   \
    } while (0)

#include "evtrace/freertos_trace.h"

#endif
