/* The table of subcommands (commands.def; each is `cli_cmd_<name>` in src/cli/cmd_<name>.c). */
#include <string.h>
#include "cli.h"

#define CLI_COMMAND(n) extern const cli_command cli_cmd_##n;
#include "commands.def"
#undef CLI_COMMAND

static const cli_command *const k_cmds[] = {
#define CLI_COMMAND(n) &cli_cmd_##n,
#include "commands.def"
#undef CLI_COMMAND
};
#define NCMDS (sizeof k_cmds / sizeof k_cmds[0])

size_t cli_command_count(void) { return NCMDS; }
const cli_command *cli_command_at(size_t i) { return i < NCMDS ? k_cmds[i] : NULL; }

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < NCMDS; i++)
        if (strcmp(k_cmds[i]->name, name) == 0) return k_cmds[i];
    return NULL;
}
