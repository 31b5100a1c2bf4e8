/* The TXTB recorder's compile-time switches and their defaults: one place, read by txtb_enc.c and
 * by the tests that check each configuration (tests/formats/threadx/test_txtb_switches.c).
 * Freestanding, no includes. */
#ifndef EVT_TXTB_SWITCHES_H
#define EVT_TXTB_SWITCHES_H

/* Compile-time switches (docs/firmware.md, "Footprint switches"). Each defaults to 1, today's
 * recorder; 0 compiles the feature out for a small target:
 *  EVT_TX_REGISTRY      the object registry (register/unregister do nothing, and the buffer has
 *                       no registry area: registry_entries is taken as 0);
 *  EVT_TX_KERNEL_EVENTS kernel events, ISR enter/exit and interrupt control (user events only:
 *                       those calls record nothing);
 *  EVT_TX_BYTE_SWAP     a buffer in the other byte order (opt->big_endian): without it enable
 *                       refuses that order with EVT_TX_PTR_ERROR;
 *  EVT_TX_OPTIONS       evt_tx_trace_enable_ex's options (byte order, name size, time source and
 *                       mask, context callback, base address): without them enable_ex refuses a
 *                       non-NULL opt with EVT_TX_PTR_ERROR, and records take the port's context
 *                       and clock;
 *  EVT_TX_USER_RECORDS  the multi-slot user records of evtrace/user.h (txtb_enc.c);
 *  EVT_TX_STATS         evt_tx_trace_get_stats and evt_tx_trace_get_rec_stats (without them those
 *                       two are not defined, so a program that calls them does not link; the loss
 *                       account is kept all the same and written into the buffer as LOST records);
 *  EVT_TX_FULL_NOTIFY   the buffer-full callback (evt_tx_trace_buffer_full_notify: not defined
 *                       without it; the buffer wraps as before, its overwrites counted);
 *  EVT_TX_LOST_GUARD    user_event_insert refuses a record that would read back as evtrace's
 *                       LOST record (id 190 with info3 "evtr": dropped and counted, NOT_DONE);
 *                       without it such an insert is written and misread (its info1 + info4 taken
 *                       as losses): an application must not insert it. 0 in the MCU profiles.
 * The last two are left out by the smallest configuration (scripts/footprint.def).
 * EVT_REC_NESTING (evtrace/recorder.h) compiles the nesting guard out. */
#ifndef EVT_TX_REGISTRY
#define EVT_TX_REGISTRY 1
#endif
#ifndef EVT_TX_KERNEL_EVENTS
#define EVT_TX_KERNEL_EVENTS 1
#endif
#ifndef EVT_TX_OPTIONS
#define EVT_TX_OPTIONS 1
#endif
#ifndef EVT_TX_STATS
#define EVT_TX_STATS 1
#endif
#ifndef EVT_TX_FULL_NOTIFY
#define EVT_TX_FULL_NOTIFY 1
#endif
#ifndef EVT_TX_BYTE_SWAP
#define EVT_TX_BYTE_SWAP EVT_TX_OPTIONS /* the other order is an option */
#endif
#ifndef EVT_TX_USER_RECORDS
#define EVT_TX_USER_RECORDS 1
#endif
#ifndef EVT_TX_LOST_GUARD
#define EVT_TX_LOST_GUARD 1
#endif

#endif
