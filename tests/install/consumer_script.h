/* What consumer_recorder records and consumer_host expects: CONSUMER_EVENTS user events with ids
 * CONSUMER_EVENT_ID0 + i and info fields (i, i * i, CONSUMER_MAGIC, 0), and one registered thread. */
#ifndef CONSUMER_SCRIPT_H
#define CONSUMER_SCRIPT_H

#define CONSUMER_EVENTS      10u
#define CONSUMER_EVENT_ID0   4096u          /* ThreadX user range 4096..65535 */
#define CONSUMER_MAGIC       0xC0FFEEu
#define CONSUMER_THREAD_NAME "install consumer"

#endif
