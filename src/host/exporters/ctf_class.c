/* CTF event classes: per layout of reader events, the classes it grew through (a wider integer,
 * a label index become a whole string, an arg alias broken: ctf.h), plus the built-in classes of
 * ctf.h's CTF_BUILTIN_TABLE. Ids are dense, in first-use order, so the classes of a trace's
 * first events (usually its common ones) get the compact-header ids 0..30. */
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "host/exporters/ctf.h"

/* Append field i (not an alias) to the write plan of class k (ctf.h, ctf_class.put). */
static void put_(ctf_class *k, const ctf_field *f, uint32_t i)
{
    int var = f->type == CTF_FT_BYTES || (f->type == CTF_FT_STRING && f->wlog >= CTF_WLOG_STRING);
    struct ctf_put *e = &k->put[k->nw++];
    e->i = (uint8_t)i;
    e->w = var ? 0 : (uint8_t)(1u << f->wlog);
    e->add = 0;
    e->out = 0; /* 64-bit integers, whole strings, bytes: any value */
    if (var) k->nvar++;
    else k->fixed += e->w;
    if (!var && f->wlog < 3) {
        unsigned bits = 8u << f->wlog;
        e->out = ~(((uint64_t)1 << bits) - 1);
        if (f->type == CTF_FT_SINT) e->add = (uint64_t)1 << (bits - 1);
    }
}

/* A copy of a class (strings owned by the copy, literal idents kept by pointer), with the sizes
 * its events' payloads are made of and its write plan. keys: the raw keys of its non-literal
 * fields (the proto ctf_class_for was given), or NULL (every field literal). */
static ctf_class *class_new_(const char *name, const char *emf, const ctf_field *f, const ctf_field *keys, uint32_t nf)
{
    size_t len = 0;
    for (uint32_t i = 0; i < nf; i++)
        if (!f[i].lit) len += strlen(f[i].ident) + 1 + strlen(keys[i].ident) + 1;
    size_t nl = strlen(name) + 1, el = emf ? strlen(emf) + 1 : 0;
    ctf_class *k = evt_calloc(1, sizeof *k + nl + el + len);
    if (!k) return NULL;
    char *p = (char *)(k + 1);
    k->name = memcpy(p, name, nl);
    p += nl;
    if (emf) { k->emf = memcpy(p, emf, el); p += el; }
    k->nf = nf;
    for (uint32_t i = 0; i < nf; i++) {
        k->f[i] = f[i];
        if (f[i].alias < 0) put_(k, &f[i], i);
        else {
            k->al[k->nal].i = (uint8_t)i;
            k->al[k->nal++].a = (uint8_t)f[i].alias;
        }
        if (f[i].lit) continue;
        size_t il = strlen(f[i].ident) + 1, kl = strlen(keys[i].ident) + 1;
        k->f[i].ident = memcpy(p, f[i].ident, il);
        p += il;
        k->key[i] = memcpy(p, keys[i].ident, kl);
        p += kl;
    }
    return k;
}

static int64_t add_(ctf_classes *c, ctf_class *k)
{
    if (!k) return -1;
    if (c->n == c->cap) {
        uint32_t nc = c->cap ? c->cap * 2 : 32;
        ctf_class **np = evt_realloc(c->cls, nc * sizeof *np);
        if (!np) { evt_free(k); return -1; }
        c->cls = np;
        c->cap = nc;
    }
    c->cls[c->n] = k;
    return c->n++;
}

/* Signature of a layout: name, emf, then each field's type and ident ('\n' separated; widths
 * and aliases excluded: they change within the layout). Built in one reserved pass. */
static int signature_(ctf_classes *c, const char *name, const char *emf, const ctf_field *f, uint32_t nf, size_t *n)
{
    size_t nl = strlen(name), el = emf ? strlen(emf) : 0, il[CTF_MAX_FIELDS], need = nl + 1 + el;
    for (uint32_t i = 0; i < nf; i++) need += 2 + (il[i] = strlen(f[i].ident));
    if (need > c->sigcap) {
        size_t nc = c->sigcap ? c->sigcap : 256;
        while (nc < need) nc *= 2;
        char *np = evt_realloc(c->sig, nc);
        if (!np) return 0;
        c->sig = np;
        c->sigcap = nc;
    }
    char *p = c->sig;
    memcpy(p, name, nl);
    p += nl;
    *p++ = '\n';
    if (el) { memcpy(p, emf, el); p += el; }
    for (uint32_t i = 0; i < nf; i++) {
        *p++ = '\n';
        *p++ = (char)('a' + f[i].type);
        memcpy(p, f[i].ident, il[i]);
        p += il[i];
    }
    *n = (size_t)(p - c->sig);
    return 1;
}

/* Field i of an event with values u may alias field k: an integer value field, equal (64 bits). */
static int can_alias_(const ctf_field *f, const uint64_t *u, uint32_t i, uint32_t k)
{
    return f[k].role == CTF_ROLE_VALUE && (f[k].type == CTF_FT_UINT || f[k].type == CTF_FT_SINT) && u[k] == u[i];
}

/* Class k is of the layout (name, field types and idents) of these: the signature's parts but
 * emf, which the hint that picked k decides (ctf.h). A literal ident kept by the class is the
 * same pointer; a raw key is compared with the one the class was made from (equal raw keys give
 * equal identifiers; different ones may too, which the signature then finds). */
static int same_layout_(const ctf_class *k, const char *name, const ctf_field *f, uint32_t nf)
{
    if (k->nf != nf || strcmp(k->name, name) != 0) return 0;
    for (uint32_t i = 0; i < nf; i++) {
        if (k->f[i].type != f[i].type || k->f[i].lit != f[i].lit) return 0;
        if (f[i].lit ? k->f[i].ident != f[i].ident : strcmp(k->key[i], f[i].ident) != 0) return 0;
    }
    return 1;
}

/* A TSDL identifier for field n from key: [A-Za-z0-9_] kept, others '_', cut to fit, then made
 * unique among the fields before it, f[0..n-1] with their identifiers (suffix _2, _3...; a bytes
 * field also claims <ident>_len). The result is c->ident[n]. */
static const char *ident_(ctf_classes *c, const ctf_field *f, uint32_t n, const char *key, int bytes)
{
    char base[CTF_IDENT_MAX - 8];
    size_t i = 0;
    for (; key[i] && i < sizeof base - 1; i++) {
        char ch = key[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        base[i] = ok ? ch : '_';
    }
    base[i] = '\0';
    char *out = c->ident[n];
    for (unsigned dup = 1;; dup++) {
        if (dup == 1) memcpy(out, base, i + 1); /* base and its NUL fit (CTF_IDENT_MAX - 8 bytes) */
        else snprintf(out, CTF_IDENT_MAX, "%s_%u", base, dup);
        size_t ol = strlen(out);
        int clash = 0;
        for (uint32_t j = 0; j < n && !clash; j++) {
            const char *o = f[j].ident;
            /* every clash below needs o and out to start alike (both non-empty here) */
            if (o[0] != out[0] && o[0] && out[0]) continue;
            size_t l = strlen(o);
            clash = strcmp(o, out) == 0 || (f[j].type == CTF_FT_BYTES && l + 4 == ol && strncmp(o, out, l) == 0 &&
                                            strcmp(out + l, "_len") == 0) ||
                    (bytes && ol + 4 == l && strncmp(o, out, ol) == 0 && strcmp(o + ol, "_len") == 0);
        }
        if (!clash) return out;
    }
}

/* An event with these fields and values can be written with class k (of its layout): every
 * alias of k still holds and every width of k is enough. */
static int fits_(const ctf_class *k, const ctf_field *proto, const uint64_t *v, uint32_t nf)
{
    for (uint32_t i = 0; i < nf; i++) {
        const ctf_field *o = &k->f[i];
        if (o->alias >= 0 ? !can_alias_(proto, v, i, (uint32_t)o->alias) : proto[i].wlog > o->wlog) return 0;
    }
    return 1;
}

/* The fields of a new class: proto's, with the TSDL identifiers of the raw keys. */
static void idents_(ctf_classes *c, ctf_field *f, const ctf_field *proto, uint32_t nf)
{
    memcpy(f, proto, nf * sizeof *f);
    for (uint32_t i = 0; i < nf; i++)
        if (!f[i].lit) f[i].ident = ident_(c, f, i, proto[i].ident, f[i].type == CTF_FT_BYTES);
}

/* ctf_class_for when the hint's recent layout is not this one or its class does not fit: the
 * layout found by signature (added when new), then its class, made when none fits. */
static int64_t class_slow_(ctf_classes *c, uint32_t r, uint64_t hint, uint32_t lid, const char *name,
                           const char *emf, const ctf_field *proto, const uint64_t *v, uint32_t nf)
{
    int added = 0;
    ctf_field f[CTF_MAX_FIELDS];
    idents_(c, f, proto, nf);
    if (!lid) {
        size_t n;
        if (!signature_(c, name, emf, f, nf, &n)) return -1;
        lid = evt_strtab_intern(&c->layouts, c->sig, n, &added);
        if (!lid) return -1;
        c->recent[r].hint = hint;
        c->recent[r].lid = 0; /* set once the layout has a class */
    }
    if (lid > c->curcap) {
        uint32_t nc = c->curcap ? c->curcap * 2 : 32;
        while (nc < lid) nc *= 2;
        uint32_t *np = evt_realloc(c->cur, nc * sizeof *np);
        if (!np) return -1;
        c->cur = np;
        c->curcap = nc;
    }
    if (!added) {
        const ctf_class *k = c->cls[c->cur[lid - 1]];
        if (fits_(k, proto, v, nf)) { c->recent[r].lid = lid; return c->cur[lid - 1]; }
        /* the new class of the layout: aliases that still hold, widths grown (never shrunk) */
        for (uint32_t i = 0; i < nf; i++) {
            const ctf_field *o = &k->f[i];
            if (o->alias >= 0 && can_alias_(f, v, i, (uint32_t)o->alias)) f[i].alias = o->alias;
            else if (o->alias < 0 && f[i].wlog <= o->wlog) f[i].wlog = o->wlog;
        }
    } else {
        /* each arg aliases the first integer value field (in field order) holding the same value */
        for (uint32_t i = 0; i < nf; i++)
            for (uint32_t k = 0; f[i].role == CTF_ROLE_ARG && f[i].alias < 0 && k < nf; k++)
                if (can_alias_(f, v, i, k)) f[i].alias = (int8_t)k;
    }
    int64_t id = add_(c, class_new_(name, emf, f, proto, nf));
    if (id >= 0) { c->cur[lid - 1] = (uint32_t)id; c->recent[r].lid = lid; }
    return id;
}

int64_t ctf_class_for(ctf_classes *c, uint64_t hint, const char *name, const char *emf, const ctf_field *proto,
                      const uint64_t *v, uint32_t nf, uint32_t *layout)
{
    uint32_t r = (uint32_t)((hint * 0x9E3779B97F4A7C15ull) >> 56), lid = c->recent[r].lid;
    int64_t id;
    if (lid && c->recent[r].hint == hint && same_layout_(c->cls[c->cur[lid - 1]], name, proto, nf)) {
        if (fits_(c->cls[c->cur[lid - 1]], proto, v, nf)) id = c->cur[lid - 1];
        else id = class_slow_(c, r, hint, lid, name, emf, proto, v, nf); /* known layout, new class */
    } else id = class_slow_(c, r, hint, 0, name, emf, proto, v, nf);
    if (id >= 0) *layout = c->recent[r].lid; /* the layout of the class found or made */
    return id;
}

int64_t ctf_class_builtin(ctf_classes *c, ctf_builtin b)
{
    if (c->builtin[b]) return c->builtin[b] - 1;
#define CTF_F_(i, t, w) {#i, t, w, CTF_ROLE_VALUE, -1, 1},
#define CTF_B_(e, n, fields) static const ctf_field e##_f_[] = {fields};
    CTF_BUILTIN_TABLE(CTF_B_, CTF_F_)
#undef CTF_B_
#define CTF_B_(e, n, fields) {n, e##_f_, sizeof e##_f_ / sizeof e##_f_[0]},
    static const struct { const char *name; const ctf_field *f; uint32_t nf; } tab[] = {
        CTF_BUILTIN_TABLE(CTF_B_, CTF_F_)
    };
#undef CTF_B_
#undef CTF_F_
    int64_t id = add_(c, class_new_(tab[b].name, "evtrace:builtin", tab[b].f, NULL, tab[b].nf));
    if (id >= 0) c->builtin[b] = (uint32_t)id + 1;
    return id;
}

void ctf_classes_free(ctf_classes *c)
{
    for (uint32_t i = 0; i < c->n; i++) evt_free(c->cls[i]);
    evt_free(c->cls);
    evt_free(c->cur);
    evt_free(c->sig);
    evt_strtab_free(&c->layouts);
    memset(c, 0, sizeof *c);
}
