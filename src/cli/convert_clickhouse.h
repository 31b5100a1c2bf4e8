/* `evtrace convert FILE... --to clickhouse -o URL`: each FILE one trace (convert_clickhouse.c). */
#ifndef EVT_CLI_CONVERT_CLICKHOUSE_H
#define EVT_CLI_CONVERT_CLICKHOUSE_H

#include "cli.h"

/* Loads a->file and every a->extra[] into the ClickHouse server at a->out. Returns the exit code. */
int cli_convert_clickhouse(const cli_args *a);

#endif
