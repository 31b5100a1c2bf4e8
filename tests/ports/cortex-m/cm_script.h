/* The fixed TXTB recording script shared by the Cortex-M harness (cm_main.c, on QEMU) and its host
 * twin (cm_twin_host.c): the same calls, the same counter clock (0, 1, 2, ...), the same fixed
 * object/thread addresses and trace base address, so both must produce the same bytes.
 * check_cortexm.py holds the independent list of the events this script must decode to.
 *
 * The includer defines, before including this header:
 *   CM_SET_TASK(addr)   make addr the running task (target: evt_cm_current_task)
 *   CM_GET_TASK()       the running task as uint32_t (0 = none: initialisation)
 *   cm_platform_isr(fn) run fn in interrupt context (target: a real PendSV exception; host: the
 *                       POSIX port's in-ISR flag) -- declared below, defined by the includer.
 * The context callback is kernel-like: ISR from evt_port_in_isr() (IPSR on the target), otherwise
 * the running task with its priority word, or initialisation when no task runs. */
#ifndef CM_SCRIPT_H
#define CM_SCRIPT_H

#include <stdint.h>

#include "evtrace/port.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"

#define CM_REGISTRY      4u
#define CM_SLOTS         16u
#define CM_SLACK         8u                 /* bytes after the last slot, never written */
#define CM_BUF_SIZE      (48u + 48u * CM_REGISTRY + 32u * CM_SLOTS + CM_SLACK)
#define CM_TRACE_BASE    0x20010000u        /* "trace base address" written in the header */

/* Fixed target addresses of the scripted objects (as a ThreadX kernel would own them). */
#define CM_T_PRODUCER    0x20000100u
#define CM_T_CONSUMER    0x20000200u
#define CM_Q             0x20000300u
#define CM_S             0x20000400u
#define CM_PRIO_PRODUCER 5u
#define CM_PRIO_CONSUMER 7u
#define CM_ISR_ID        11u

static void cm_platform_isr(void (*fn)(void));

static uint32_t cm_clock;        /* the counter clock */
static uint32_t cm_wraps;        /* buffer-full notifications seen */
static uint32_t cm_enable_rc, cm_user_rc;

static uint32_t cm_counter_clock(void) { return cm_clock++; }
static void cm_buffer_full(void *buffer) { (void)buffer; cm_wraps++; }

static const void *cm_ptr(uint32_t addr) { return (const void *)(uintptr_t)addr; }

/* Stack samples ("stk" info fields) are fixed per context, as if the kernel reported each
 * context's stack pointer, so the Cortex-M and the host builds write the same bytes. */
#define CM_STK_INIT      0x2003FF00u
#define CM_STK_ISR       0x2003FFC0u
#define CM_STK_PRODUCER  0x20002380u
#define CM_STK_CONSUMER  0x200027C0u

static void cm_context(evt_tx_context *out)
{
    uint32_t task = CM_GET_TASK();
    if (evt_port_in_isr()) {
        out->context = TXTB_CTX_ISR;
        out->priority_word = task; /* the interrupted thread */
        out->stack = CM_STK_ISR;   /* system_state left 0: the recorder writes 1 (ISR nesting) */
    } else if (task == 0u) {
        out->context = TXTB_CTX_INIT;
        out->priority_word = 0;
        out->stack = CM_STK_INIT;
    } else {
        uint32_t prio = task == CM_T_PRODUCER ? CM_PRIO_PRODUCER : CM_PRIO_CONSUMER;
        out->context = task;
        out->priority_word = TXTB_PRIO_CURRENT_BIT | prio << 16 | prio;
        out->stack = task == CM_T_PRODUCER ? CM_STK_PRODUCER : CM_STK_CONSUMER;
    }
}

/* Interrupt body: the ISR puts the semaphore, which resumes the consumer. */
static void cm_isr_body(void)
{
    evt_tx_trace_isr_enter_insert(CM_ISR_ID);
    evt_tx_trace_kernel_event(TXTB_EVENT_SEMAPHORE_PUT, CM_S, 0, 1, 0x2003FFC0u);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_RESUME, CM_T_CONSUMER, 6, 0x2003FFC0u, 0);
    evt_tx_trace_isr_exit_insert(CM_ISR_ID);
}

/* Record the script into buf (CM_BUF_SIZE bytes, zeroed by the caller). Returns 0 when every
 * API call returned what ThreadX returns. 20 records into 16 slots: wraps once. */
static int cm_script_run(uint8_t *buf)
{
    evt_tx_options opt; /* every member set one by one: "= {0}" makes GCC call memset */
    opt.big_endian = 0;
    opt.name_size = 0;
    opt.time_source = cm_counter_clock;
    opt.time_mask = 0;
    opt.context = cm_context;
    opt.base_address = CM_TRACE_BASE;
    cm_clock = 0;
    cm_wraps = 0;
    CM_SET_TASK(0u);
    evt_tx_trace_buffer_full_notify(cm_buffer_full);
    cm_enable_rc = evt_tx_trace_enable_ex(buf, CM_BUF_SIZE, CM_REGISTRY, &opt);  /* 2 x RUNNING */

    /* initialisation: create two threads, a queue and a semaphore */
    evt_tx_trace_thread_register(cm_ptr(CM_T_PRODUCER), "producer", 0x20002000u, 1024u, CM_PRIO_PRODUCER);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_CREATE, CM_T_PRODUCER, CM_PRIO_PRODUCER, 0x20002000u, 1024u);
    evt_tx_trace_thread_register(cm_ptr(CM_T_CONSUMER), "consumer", 0x20002400u, 1024u, CM_PRIO_CONSUMER);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_CREATE, CM_T_CONSUMER, CM_PRIO_CONSUMER, 0x20002400u, 1024u);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, cm_ptr(CM_Q), "cm queue", 64u, 1u);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_CREATE, CM_Q, 1u, 0x20003000u, 64u);
    evt_tx_trace_object_register(TXTB_OBJ_SEMAPHORE, cm_ptr(CM_S), "cm semaphore", 0u, 0u);
    evt_tx_trace_kernel_event(TXTB_EVENT_SEMAPHORE_CREATE, CM_S, 0u, 0x20001F00u, 0u);

    /* the producer runs and sends */
    CM_SET_TASK(CM_T_PRODUCER);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_RESUME, CM_T_PRODUCER, 3u, 0x20002380u, 0u);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, CM_Q, 0x200023F0u, 0xFFFFFFFFu, 0u);
    cm_user_rc = evt_tx_trace_user_event_insert(4096u, 1u, 2u, 3u, 4u);

    /* an interrupt while the producer runs */
    cm_platform_isr(cm_isr_body);

    /* the consumer runs */
    CM_SET_TASK(CM_T_CONSUMER);
    evt_tx_trace_kernel_event(TXTB_EVENT_SEMAPHORE_GET, CM_S, 0xFFFFFFFFu, 1u, 0x200027C0u);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_RECEIVE, CM_Q, 0x200027F0u, 0xFFFFFFFFu, 1u);
    cm_user_rc |= evt_tx_trace_user_event_insert(4097u, 0xCAFEu, 0u, 0u, 0xFFFFFFFFu);
    evt_tx_trace_interrupt_control(1u);
    evt_tx_trace_interrupt_control(0u);

    /* a filtered class records nothing (and reads no clock) */
    evt_tx_trace_event_filter(EVT_TX_TRACE_QUEUE_EVENTS);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, CM_Q, 0x200027F0u, 0u, 0u);
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_QUEUE_EVENTS);

    cm_user_rc |= evt_tx_trace_user_event_insert(0x12345u, 5u, 6u, 7u, 8u); /* unchecked 32-bit id */
    evt_tx_trace_object_unregister(cm_ptr(CM_S));                           /* slot 3 available */
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_SUSPEND, CM_T_CONSUMER, 5u, 0x200027A0u, 0u);
    CM_SET_TASK(0u);
    /* The wrap overwrote records: disable reports them with a LOST record (one more clock read). */
    unsigned dis = evt_tx_trace_disable();

    return (cm_enable_rc == EVT_TX_SUCCESS && cm_user_rc == EVT_TX_SUCCESS && dis == EVT_TX_SUCCESS &&
            cm_wraps == 1u && cm_clock == 21u) ? 0 : 1;
}

#endif
