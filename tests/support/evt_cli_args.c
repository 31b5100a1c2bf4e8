/* Command lines as words for the cli_parse tests (evt_cli_args.h). */
#include "evt_cli_args.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>

int evt_test_parse_words(cli_args *a, const char *const *words)
{
    static char store[32][128];
    static char *argv[33];
    int argc = 0;
    for (; words[argc]; argc++) {
        assert_true(argc < 31);
        snprintf(store[argc], sizeof store[argc], "%s", words[argc]);
        argv[argc] = store[argc];
    }
    argv[argc] = NULL;
    const cli_command *c = cli_command_find(words[0]);
    assert_non_null(c);
    return cli_parse(c, argc, argv, a);
}
