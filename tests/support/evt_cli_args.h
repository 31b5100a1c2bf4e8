/* Parsing a command line given as words, for the tests of cli_parse (src/cli/cli_parse.c). Tests
 * that use it link the CLI library (tests/cli/). */
#ifndef EVT_CLI_ARGS_H
#define EVT_CLI_ARGS_H

#include "cli/cli.h"

/* Parse a NULL-terminated list of words (the first is the command, at most 31 words of up to
 * 127 bytes) into *a; the words are copied into static storage that a points into until the
 * next call. Returns cli_parse's result. */
int evt_test_parse_words(cli_args *a, const char *const *words);
#define EVT_PARSE(a, ...) evt_test_parse_words((a), (const char *const[]){__VA_ARGS__, NULL})

#endif
