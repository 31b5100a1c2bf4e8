/* FreeRTOS configuration of the evtrace FreeRTOS example on QEMU's mps2-an385 (Cortex-M3, 25 MHz,
 * FreeRTOS's ARM_CM3 port): 1 kHz tick, run-time stats on the board's cycle counter (the trace's
 * clock too), evtrace's trace macros included at the end (docs/freertos.md). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef __ASSEMBLER__
#include <stdint.h>
uint32_t app_run_time(void);
void app_switched_in(void *tcb);
void app_inherited(void *tcb);
void app_assert_failed(int line);
#endif

#define configCPU_CLOCK_HZ                      25000000u
#define configTICK_RATE_HZ                      1000u
#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     1
#define configMINIMAL_STACK_SIZE                ((unsigned short)256)
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
#define configTOTAL_HEAP_SIZE                   ((size_t)(48 * 1024))
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH                8
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)
#define configGENERATE_RUN_TIME_STATS           1
#define configRUN_TIME_COUNTER_TYPE             uint32_t
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() do { } while (0)
#define portGET_RUN_TIME_COUNTER_VALUE()        app_run_time()
#define configKERNEL_INTERRUPT_PRIORITY         255
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0xA0 /* the ISR that gives a semaphore runs at 0xE0 */
#define configASSERT(x)                         do { if (!(x)) app_assert_failed(__LINE__); } while (0)

#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_xTaskDelayUntil                 1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskGetSchedulerState          1
#define INCLUDE_xTaskGetCurrentTaskHandle       1

#define evtFREERTOS_APP_SWITCHED_IN()            app_switched_in(pxCurrentTCB)
#define evtFREERTOS_APP_PRIORITY_INHERIT(t, p)   app_inherited(t)

#include "evtrace/freertos_trace.h"

#endif
