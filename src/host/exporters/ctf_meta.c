/* The TSDL metadata of the CTF export, written at the end when every event class is known: the
 * trace (UUID, packet header), env (trace_name, format, source, clock), the clock, the one stream
 * class (LTTng's per-CPU packet context and compact event header) and the event classes. The
 * byte layout it declares is the one ctf.h draws and ctf.c writes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "host/exporters/ctf.h"

/* A TSDL string literal: quote and backslash escaped, control bytes as \xNN; other bytes (UTF-8)
 * unchanged. */
static void quoted_(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') { fputc('\\', f); fputc(*c, f); }
        else if (*c < 0x20 || *c == 0x7f) fprintf(f, "\\x%02x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

static const char *const uint_t_[4] = {"uint8_t", "uint16_t", "uint32_t", "uint64_t"};
static const char *const sint_t_[4] = {"int8_t", "int16_t", "int32_t", "int64_t"};

static void class_(FILE *f, const ctf_class *k, uint32_t id)
{
    fputs("event {\n\tname = ", f);
    quoted_(f, k->name);
    fprintf(f, ";\n\tid = %" PRIu32 ";\n\tstream_id = 0;\n", id);
    if (k->emf) {
        /* the class's emf, then `;args=` naming where each raw arg is (itself or the field it equals) */
        fprintf(f, "\tmodel.emf.uri = \"%s", k->emf);
        const char *sep = ";args=";
        for (uint32_t i = 0; i < k->nf; i++) {
            if (k->f[i].role != CTF_ROLE_ARG) continue;
            fprintf(f, "%s%s", sep, k->f[i].alias >= 0 ? k->f[k->f[i].alias].ident : k->f[i].ident);
            sep = ",";
        }
        fputs("\";\n", f);
    }
    fputs("\tfields := struct {\n", f);
    for (uint32_t i = 0; i < k->nf; i++) {
        const ctf_field *x = &k->f[i];
        if (x->alias >= 0) continue;
        /* identifiers get a leading '_' (which CTF readers strip): keys that are TSDL keywords work */
        switch (x->type) {
        case CTF_FT_UINT: fprintf(f, "\t\t%s _%s;\n", uint_t_[x->wlog], x->ident); break;
        case CTF_FT_SINT: fprintf(f, "\t\t%s _%s;\n", sint_t_[x->wlog], x->ident); break;
        case CTF_FT_STRING:
            if (x->wlog == 0) fprintf(f, "\t\tevtrace_label8_t _%s;\n", x->ident);
            else if (x->wlog == 1) fprintf(f, "\t\tevtrace_label16_t _%s;\n", x->ident);
            else fprintf(f, "\t\tstring _%s;\n", x->ident);
            break;
        default: fprintf(f, "\t\tuint32_t _%s_len;\n\t\tuint8_t _%s[_%s_len];\n", x->ident, x->ident, x->ident); break;
        }
    }
    fputs("\t};\n};\n\n", f);
}

/* The label enumerations: label8 holds the labels with index < 256, label16 all of them. */
static void labels_(FILE *f, const evt_strtab *labels)
{
    for (int w = 0; w < 2 && labels->n; w++) {
        fprintf(f, "typealias enum : %s {\n", uint_t_[w]);
        uint32_t n = w == 0 && labels->n > 256 ? 256 : labels->n;
        for (uint32_t i = 0; i < n; i++) {
            fputs("\t", f);
            quoted_(f, evt_strtab_str(labels, i + 1));
            fprintf(f, " = %" PRIu32 "%s\n", i, i + 1 < n ? "," : "");
        }
        fprintf(f, "} := evtrace_label%d_t;\n\n", 8 << w);
    }
}

int ctf_write_metadata(FILE *f, const ctf_classes *c, const evt_strtab *labels, const evt_reader *r, uint64_t hz,
                       const uint8_t uuid[16], const char *trace_name, uint64_t clamped,
                       uint64_t time_clamped)
{
    char us[37];
    ctf_uuid_str(uuid, us);
    const char *csrc = evt_clock_source_name(evt_reader_clock_source(r));
    fputs("/* CTF 1.8 */\n\n"
          "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n", f);
    for (int w = 0; w < 4; w++) {
        fprintf(f, "typealias integer { size = %d; align = 8; signed = false; } := %s;\n", 8 << w, uint_t_[w]);
        fprintf(f, "typealias integer { size = %d; align = 8; signed = true; } := %s;\n", 8 << w, sint_t_[w]);
    }
    fprintf(f,
            "\ntrace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
            "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
            "\t\tuint64_t stream_instance_id;\n\t};\n};\n\n",
            us);
    fputs("env {\n\ttracer_name = \"evtrace\";\n\ttrace_name = ", f);
    quoted_(f, trace_name);
    fprintf(f, ";\n\tformat = \"%s\";\n\tsource = ", r->desc->name);
    quoted_(f, r->src.path ? r->src.path : "");
    fprintf(f, ";\n\tclock_hz = %" PRIu64 ";\n\tclock_source = \"%s\";\n\ttime_unit = \"%s\";\n", hz, csrc,
            hz ? "ns" : "ticks");
    fprintf(f, "\tsched_clamped = %" PRIu64 ";\n\ttime_clamped = %" PRIu64 ";\n};\n\n", clamped, time_clamped);
    fputs("clock {\n\tname = evtrace_clock;\n\tdescription = ", f);
    if (hz) fprintf(f, "\"ns, from the trace clock of %" PRIu64 " Hz (%s)\"", hz, csrc);
    else fputs("\"ticks: clock rate unknown, 1 tick shown as 1 ns (give it with --clock-hz HZ)\"", f);
    fputs(";\n\tfreq = 1000000000;\n\toffset = 0;\n};\n\n"
          "typealias integer { size = 27; align = 1; signed = false; map = clock.evtrace_clock.value; } := uint27_clock_t;\n"
          "typealias integer { size = 64; align = 8; signed = false; map = clock.evtrace_clock.value; } := uint64_clock_t;\n\n"
          "struct packet_context {\n\tuint64_clock_t timestamp_begin;\n\tuint64_clock_t timestamp_end;\n"
          "\tuint64_t content_size;\n\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
          "\tuint64_t events_discarded;\n\tuint32_t cpu_id;\n};\n\n"
          "struct event_header_compact {\n\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
          "\tvariant <id> {\n\t\tstruct {\n\t\t\tuint27_clock_t timestamp;\n\t\t} compact;\n"
          "\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_t timestamp;\n\t\t} extended;\n\t} v;\n} align(8);\n\n"
          , f);
    labels_(f, labels);
    fputs("stream {\n\tid = 0;\n\tevent.header := struct event_header_compact;\n"
          "\tpacket.context := struct packet_context;\n};\n\n",
          f);
    for (uint32_t i = 0; i < c->n; i++) class_(f, c->cls[i], i);
    return !ferror(f);
}
