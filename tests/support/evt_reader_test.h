/* Reader helpers shared by the decoder tests. */
#ifndef EVT_READER_TEST_H
#define EVT_READER_TEST_H

#include <stdint.h>
#include "evtrace/reader.h"

/* A reader's diagnostics as the diag callback received them: the first EVT_TEST_DIAG_MAX kept,
 * all counted. */
#define EVT_TEST_DIAG_MAX 400
typedef struct evt_test_diags {
    unsigned n;                         /* received (may exceed EVT_TEST_DIAG_MAX) */
    uint64_t off[EVT_TEST_DIAG_MAX];
    char msg[EVT_TEST_DIAG_MAX][160];
} evt_test_diags;
/* An evt_diag_fn; user is an evt_test_diags (zeroed before the reader opens). */
void evt_test_diag_collect(void *user, uint64_t off, const char *msg);
/* A kept diagnostic at off whose message contains word. */
int evt_test_diag_has(const evt_test_diags *d, uint64_t off, const char *word);

/* The reader's `info --json` keys (its desc->info, called after the last event) as one JSON
 * object, e.g. {"frames":3,...}; malloc'd, the caller frees. Aborts the test process if the
 * memory stream cannot be opened. */
char *evt_test_info_json(evt_reader *rd);

/* Open the file at path with the named reader (NULL: detected) and read it to its end (EVT_END,
 * checked): *data = its events other than lost events, *lost = the reader's lost, *errors = its
 * errors. Fails the test (cmocka) when it cannot open or does not end cleanly. */
void evt_test_count_file(const char *path, const char *format, uint64_t *data, uint64_t *lost, uint64_t *errors);

/* Open the synthetic reader on spec (an "evtrace-synthetic 1" text) and begin the exporter named
 * kind writing to out: the exporter, *r the reader (the caller closes it) and *xs its state to
 * feed events to and end. Fails the test (cmocka) when either step fails. */
struct evt_exporter_desc;
const struct evt_exporter_desc *evt_test_export_begin(const char *kind, const char *spec, const char *out,
                                                      evt_reader **r, void **xs);

#endif
