/* The man page and the bash completion of the evtrace command, both made from the same tables as
 * `--help`: the commands (commands.def), the one option table (options.def), the readers' options
 * and the exporters. `evtrace help --man` and `evtrace help --bash-completion` print them; the
 * build writes them (cmake/docs.cmake) and `make install` installs them. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "evtrace/exporter.h"
#include "evtrace/reader.h"
#include "evtrace/version.h"

/* Text as roff: backslashes doubled, a leading '.' or '\'' protected, '-' as \-. */
static void roff_(FILE *o, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\'')) fputs("\\&", o);
        if (*s == '\\') fputs("\\e", o);
        else if (*s == '-') fputs("\\-", o);
        else fputc(*s, o);
        bol = *s == '\n';
    }
}

/* "--name ARG" / "-x, --name ARG" in bold/italic. */
static void man_opt_head_(FILE *o, const cli_option_info *in)
{
    fputs(".TP\n", o);
    if (in->shortopt) fprintf(o, "\\fB\\-%c\\fR, ", in->shortopt);
    fputs("\\fB\\-\\-", o);
    roff_(o, in->name);
    fputs("\\fR", o);
    if (in->arg) {
        fputs(" \\fI", o);
        roff_(o, in->arg);
        fputs("\\fR", o);
    }
    fputc('\n', o);
}

/* Help text joined into one paragraph (the table's \n are line breaks of --help only). */
static void roff_para_(FILE *o, const char *s)
{
    for (; *s; s++) {
        char one[2] = {*s == '\n' ? ' ' : *s, 0};
        roff_(o, one);
    }
    fputc('\n', o);
}

void cli_doc_man(FILE *o)
{
    fprintf(o, ".\\\" Made by `evtrace help --man` from the option and command tables; do not edit.\n");
    fprintf(o, ".TH EVTRACE 1 \"\" \"evtrace %s\" \"User Commands\"\n", EVT_VERSION_STRING);
    fprintf(o, ".SH NAME\nevtrace \\- decode, check, analyse and convert embedded event traces\n");
    fprintf(o, ".SH SYNOPSIS\n.B evtrace\n.I COMMAND\n[\\fIoptions\\fR] \\fIFILE\\fR\n");
    fprintf(o, ".SH DESCRIPTION\nevtrace reads ThreadX, ETW, LLVM XRay and RKH traces (auto-detected) into one event "
               "model and prints, checks, analyses or converts them.\n");
    fprintf(o, ".SH COMMANDS\n");
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        fprintf(o, ".TP\n\\fBevtrace %s\\fR ", c->name);
        roff_(o, c->usage);
        fputc('\n', o);
        roff_para_(o, c->summary);
        fputs(".sp\n", o);
        roff_para_(o, c->help);
        fputs("Options: ", o);
        cli_option_info in;
        int first = 1;
        for (size_t k = 0; k < cli_option_count(); k++)
            if (cli_option_row(k, c, &in)) {
                fprintf(o, "%s\\-\\-", first ? "" : ", ");
                roff_(o, in.name);
                first = 0;
            }
        fputs(".\n", o);
    }
    fprintf(o, ".SH OPTIONS\n");
    cli_option_info in;
    for (size_t k = 0; k < cli_option_count(); k++) {
        cli_option_row(k, NULL, &in);
        man_opt_head_(o, &in);
        roff_para_(o, in.help);
    }
    fprintf(o, ".SH READER OPTIONS\n");
    char readers[128];
    for (size_t i = 0; cli_reader_option(i, &in, readers, sizeof readers); i++) {
        man_opt_head_(o, &in);
        roff_para_(o, in.help);
        fprintf(o, "(%s)\n", readers);
    }
    fprintf(o, ".SH FORMATS\n");
    for (size_t i = 0; i < evt_reader_count(); i++) {
        const evt_reader_desc *d = evt_reader_at(i);
        if (d->flags & EVT_READER_HIDDEN) continue;
        fprintf(o, ".TP\n\\fB%s\\fR\n", d->name);
        roff_para_(o, d->description);
    }
    fprintf(o, ".SH OUTPUT KINDS\n");
    for (size_t i = 0; i < evt_exporter_count(); i++) {
        const evt_exporter_desc *x = evt_exporter_at(i);
        fprintf(o, ".TP\n\\fB%s\\fR%s%s\n", x->name, x->ext ? " (" : "", x->ext ? x->ext : "");
        if (x->ext) fputs(")\n", o);
        roff_para_(o, x->description);
    }
    fprintf(o, ".SH ENVIRONMENT\n"
               ".TP\n\\fBCLICKHOUSE_USER\\fR, \\fBCLICKHOUSE_PASSWORD\\fR\ncredentials of \\-\\-to clickhouse "
               "(\\-\\-user and \\-\\-password\\-file win).\n"
               ".TP\n\\fBEVT_PROGRESS\\fR\n1 forces the progress line on stderr, 0 turns it off.\n"
               ".TP\n\\fBTMPDIR\\fR\nwhere query puts the temporary database of a trace.\n");
    fprintf(o, ".SH EXIT STATUS\n0 success, 1 the data has errors (or a limit stopped the output), 2 usage, "
               "3 unreadable or unsupported input.\n");
    fprintf(o, ".SH SEE ALSO\nThe documentation in docs/ of the source tree: json\\-contract.md, exports.md, "
               "sqlite.md, clickhouse.md, analyses.md, report.md.\n");
}

/* Words of a command's options, for the completion. */
static void bash_opts_(FILE *o, const cli_command *c)
{
    cli_option_info in;
    int first = 1;
    for (size_t k = 0; k < cli_option_count(); k++)
        if (cli_option_row(k, c, &in)) {
            fprintf(o, "%s--%s", first ? "" : " ", in.name);
            if (in.shortopt) fprintf(o, " -%c", in.shortopt);
            first = 0;
        }
    if (!(c->opts & OPT_NO_FILE))
        for (size_t i = 0; cli_reader_option(i, &in, NULL, 0); i++) fprintf(o, " --%s", in.name);
}

void cli_doc_bash(FILE *o)
{
    fprintf(o, "# bash completion for evtrace -- made by `evtrace help --bash-completion`; do not edit.\n");
    fprintf(o, "_evtrace()\n{\n    local cur prev cmd opts\n    cur=${COMP_WORDS[COMP_CWORD]}\n"
               "    prev=${COMP_WORDS[COMP_CWORD-1]}\n    cmd=${COMP_WORDS[1]}\n");
    fprintf(o, "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"");
    for (size_t i = 0; i < cli_command_count(); i++) fprintf(o, "%s ", cli_command_at(i)->name);
    fprintf(o, "help --help --version\" -- \"$cur\"))\n        return\n    fi\n");
    fprintf(o, "    case \"$prev\" in\n        --format) COMPREPLY=($(compgen -W \"");
    for (size_t i = 0; i < evt_reader_count(); i++)
        if (!(evt_reader_at(i)->flags & EVT_READER_HIDDEN)) fprintf(o, "%s ", evt_reader_at(i)->name);
    fprintf(o, "\" -- \"$cur\")); return ;;\n        --to) COMPREPLY=($(compgen -W \"");
    for (size_t i = 0; i < evt_exporter_count(); i++) fprintf(o, "%s ", evt_exporter_at(i)->name);
    fprintf(o, "html\" -- \"$cur\")); return ;;\n");
    fprintf(o, "        --serial) COMPREPLY=($(compgen -f -- \"${cur:-/dev/tty}\")); return ;;\n");
    /* options whose value is a file: the files; other valued options: nothing to offer */
    fprintf(o, "        -o|--output");
    cli_option_info in;
    for (size_t k = 0; k < cli_option_count(); k++) {
        cli_option_row(k, NULL, &in);
        if (in.arg && (strcmp(in.arg, "FILE") == 0 || strcmp(in.arg, "OUT") == 0) && strcmp(in.name, "output") != 0)
            fprintf(o, "|--%s", in.name);
    }
    for (size_t i = 0; cli_reader_option(i, &in, NULL, 0); i++)
        if (in.arg && strcmp(in.arg, "FILE") == 0) fprintf(o, "|--%s", in.name);
    fprintf(o, ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n        ");
    int first = 1;
    for (size_t k = 0; k < cli_option_count(); k++) {
        cli_option_row(k, NULL, &in);
        if (in.arg && strcmp(in.arg, "FILE") != 0 && strcmp(in.arg, "OUT") != 0 && strcmp(in.name, "format") != 0 &&
            strcmp(in.name, "to") != 0 && strcmp(in.name, "serial") != 0) {
            fprintf(o, "%s--%s", first ? "" : "|", in.name);
            first = 0;
        }
    }
    fprintf(o, ") return ;;\n    esac\n    case \"$cmd\" in\n");
    for (size_t i = 0; i < cli_command_count(); i++) {
        const cli_command *c = cli_command_at(i);
        fprintf(o, "        %s) opts=\"", c->name);
        bash_opts_(o, c);
        fprintf(o, "\" ;;\n");
    }
    fprintf(o, "        *) opts=\"--help\" ;;\n    esac\n"
               "    if [[ \"$cur\" == -* ]]; then\n        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
               "    else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\n"
               "complete -o filenames -F _evtrace evtrace\n");
}
