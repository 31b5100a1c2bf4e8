/* The FreeRTOS configuration both evtrace FreeRTOS examples share (freertos-posix, freertos-cortex-m3):
 * a 1 kHz tick with time slicing, the kernel features the application (app.c) uses, run-time stats,
 * the application's counting hooks and, last, evtrace's trace macros (the one line docs/freertos.md
 * asks for). An example's FreeRTOSConfig.h defines its target's settings first (stack and heap size,
 * configRUN_TIME_COUNTER_TYPE and the run-time counter macros, configASSERT), then includes this. */
#ifndef FREERTOS_CONFIG_COMMON_H
#define FREERTOS_CONFIG_COMMON_H

#ifndef __ASSEMBLER__
#include "app.h"
#endif

#define configTICK_RATE_HZ                      1000u
#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     1
#define configMAX_PRIORITIES                    8
#define configMAX_TASK_NAME_LEN                 16
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TRACE_FACILITY                1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configUSE_QUEUE_SETS                    1
#define configUSE_TASK_NOTIFICATIONS            1
#define configQUEUE_REGISTRY_SIZE               8
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configSUPPORT_STATIC_ALLOCATION         0
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               (configMAX_PRIORITIES - 1)
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)
#define configGENERATE_RUN_TIME_STATS           1

#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_xTaskDelayUntil                 1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskGetSchedulerState          1
#define INCLUDE_xTaskGetCurrentTaskHandle       1

/* The application's own counters, beside evtrace's records (compared by the examples' tests). */
#define evtFREERTOS_APP_SWITCHED_IN()            app_switched_in(pxCurrentTCB)
#define evtFREERTOS_APP_PRIORITY_INHERIT(t, p)   app_inherited(t)
#define evtFREERTOS_APP_MOVED_TO_READY(t)        app_moved_to_ready(t)
#define evtFREERTOS_APP_TASK_DELETE(t)           app_task_deleted(t)

#include "evtrace/freertos_trace.h"

#endif
