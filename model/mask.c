/*
 * mask — hashing, faking, redacting and dropping attributes (see mask.h).
 */
#include "model/mask.h"

#include <assert.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/num.h"

#define HASH_CHARS 16         /* base32 letters a hashed segment becomes (80 bits) */
#define MAX_DEPTH 40

static const char *const action_names[] = { "keep", "hash", "fake", "redact", "drop" };
const char mask_action_list[] = "keep, hash, fake, redact, drop";
static const char *const as_names[] = { "auto", "name", "email", "phone", "text", "number", "uuid" };
const char mask_as_list[] = "name, email, phone, text, number, uuid";

/* "keep", "hash", ... */
static const char *mask_action_name(mask_action a)
{
    return (unsigned)a < 5 ? action_names[a] : "?";
}

bool mask_action_parse(const char *s, mask_action *out)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(s, action_names[i]) == 0) {
            *out = (mask_action)i;
            return true;
        }
    return false;
}

bool mask_as_parse(const char *s, mask_as *out)
{
    for (int i = 1; i < 7; i++)
        if (strcmp(s, as_names[i]) == 0) {
            *out = (mask_as)i;
            return true;
        }
    return false;
}

/* ---- rules -------------------------------------------------------------- */

status mask_parse_path(const char *text, mask_step **out, size_t *n, size_t *at, diag *d)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    const char *p = text;
    status st = ST_OK;
    for (;;) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 4;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        mask_step *s = &(*out)[*n];
        memset(s, 0, sizeof *s);
        if (*p == '[') {
            if (*n == 0) {
                st = diag_set(d, ST_PARSE, "a path begins with an attribute name");
                break;
            }
            p++;
            if (p[0] == '*' && p[1] == ']') {
                s->kind = MASK_STEP_ANY_INDEX;
                p += 2;
            } else if (*p >= '0' && *p <= '9') {
                char *end = NULL;
                s->kind = MASK_STEP_INDEX;
                s->index = strtoul(p, &end, 10);
                p = end;
                if (*p != ']') {
                    st = diag_set(d, ST_PARSE, "a list index ends with ]");
                    break;
                }
                p++;
            } else {
                st = diag_set(d, ST_PARSE, "a list index is a number or *");
                break;
            }
        } else {
            size_t len = strcspn(p, ".[]");
            if (len == 0) {
                st = diag_set(d, ST_PARSE, *p == ']' ? "a ] without its [" : "an empty attribute name");
                break;
            }
            if (len == 1 && *p == '*') {
                s->kind = MASK_STEP_ANY_NAME;
            } else {
                s->kind = MASK_STEP_NAME;
                s->name = xmalloc(len + 1);
                memcpy(s->name, p, len);
                s->name[len] = '\0';
            }
            p += len;
        }
        (*n)++;
        if (*n > MAX_DEPTH) {
            st = diag_set(d, ST_PARSE, "a path deeper than %d steps", MAX_DEPTH);
            break;
        }
        if (*p == '\0')
            return ST_OK;
        if (*p == '.') {
            p++;
            if (*p == '\0' || *p == '.' || *p == '[') {
                st = diag_set(d, ST_PARSE, "an empty attribute name");
                break;
            }
        } else if (*p != '[') {
            st = diag_set(d, ST_PARSE, "unexpected %c", *p);
            break;
        }
    }
    *at = (size_t)(p - text);
    for (size_t i = 0; i < *n; i++)
        free((*out)[i].name);
    free(*out);
    *out = NULL;
    *n = 0;
    return st;
}

void mask_rule_done(mask_rule *r)
{
    for (size_t i = 0; i < r->depth; i++)
        free(r->path[i].name);
    free(r->path);
    for (size_t i = 0; i < r->n_tables; i++)
        free(r->tables[i]);
    free(r->tables);
    free(r->pattern);
    free(r->text);
    memset(r, 0, sizeof *r);
}

struct mask {
    mask_mac_fn mac;
    void *ctx;
    mask_rule *rules;
    size_t n, cap;
};

mask *mask_new(mask_mac_fn mac, void *ctx)
{
    assert(mac);
    mask *m = xcalloc(1, sizeof *m);
    m->mac = mac;
    m->ctx = ctx;
    return m;
}

void mask_free(mask *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        mask_rule_done(&m->rules[i]);
    free(m->rules);
    free(m);
}

void mask_add(mask *m, mask_rule *r)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 8;
        m->rules = xrealloc(m->rules, m->cap * sizeof *m->rules);
    }
    m->rules[m->n++] = *r;
    memset(r, 0, sizeof *r);
}

/* ---- binding to a table --------------------------------------------------- */

typedef struct key_decision {
    const char *name;     /* borrowed from the def copy */
    mask_action action;
    bool mirrored;        /* an index key hashed because the table's keys are */
    bool index;           /* an index's key, not the table's */
    av_type type;
    const mask_rule *rule;/* the rule that decided it; NULL: mirrored or none */
} key_decision;

struct mask_plan {
    const mask *m;
    const mask_rule **rules;   /* those for this table, in order */
    size_t n;
    table_def def;
    key_decision *keys;
    size_t n_keys;
};

static bool rule_for_table(const mask_rule *r, const char *table)
{
    if (r->n_tables == 0)
        return true;
    for (size_t i = 0; i < r->n_tables; i++)
        if (fnmatch(r->tables[i], table, 0) == 0)
            return true;
    return false;
}

/* One step of the path being walked: a member's name or an element's index. */
typedef struct seg {
    const char *name;     /* NULL: an element */
    size_t index;
} seg;

static bool rule_matches(const mask_rule *r, const seg *path, size_t depth)
{
    if (r->pattern) {
        const seg *s = &path[depth - 1];
        return s->name && fnmatch(r->pattern, s->name, FNM_CASEFOLD) == 0;
    }
    if (r->depth != depth)
        return false;
    for (size_t i = 0; i < depth; i++) {
        const mask_step *st = &r->path[i];
        const seg *s = &path[i];
        switch (st->kind) {
        case MASK_STEP_NAME:
            if (!s->name || strcmp(s->name, st->name) != 0)
                return false;
            break;
        case MASK_STEP_ANY_NAME:
            if (!s->name)
                return false;
            break;
        case MASK_STEP_INDEX:
            if (s->name || s->index != st->index)
                return false;
            break;
        case MASK_STEP_ANY_INDEX:
            if (s->name)
                return false;
            break;
        }
    }
    return true;
}

static const mask_rule *first_rule(const mask_plan *p, const seg *path, size_t depth)
{
    for (size_t i = 0; i < p->n; i++)
        if (rule_matches(p->rules[i], path, depth))
            return p->rules[i];
    return NULL;
}

static void add_key(mask_plan *p, const key_attr *k, bool index)
{
    const char *name = k->name;
    if (!name)
        return;
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].name, name) == 0)
            return;
    p->keys = xrealloc(p->keys, (p->n_keys + 1) * sizeof *p->keys);
    p->keys[p->n_keys++] = (key_decision){ name, MASK_KEEP, false, index, k->type, NULL };
}

status mask_bind(const mask *m, const char *table, const table_def *def, mask_plan **out,
                 diag *d)
{
    *out = NULL;
    mask_plan *p = xcalloc(1, sizeof *p);
    p->m = m;
    p->rules = xcalloc(m->n ? m->n : 1, sizeof *p->rules);
    for (size_t i = 0; i < m->n; i++)
        if (rule_for_table(&m->rules[i], table))
            p->rules[p->n++] = &m->rules[i];
    table_def_copy(&p->def, def);
    add_key(p, &p->def.pk, false);
    add_key(p, &p->def.sk, false);
    for (size_t i = 0; i < p->def.n_idx; i++) {
        add_key(p, &p->def.idx[i].pk, true);
        add_key(p, &p->def.idx[i].sk, true);
    }
    /* The types of the table's hashed keys: an index key can only mirror
     * a key of its own type. */
    unsigned hashed_types = 0;
    const mask_rule **explicit_rule = xcalloc(p->n_keys, sizeof *explicit_rule);
    for (size_t i = 0; i < p->n_keys; i++) {
        key_decision *k = &p->keys[i];
        seg s = { k->name, 0 };
        const mask_rule *r = first_rule(p, &s, 1);
        explicit_rule[i] = r;
        if (!r)
            continue;
        if (r->action != MASK_HASH && r->action != MASK_KEEP) {
            d->line = r->line;
            d->col = r->col;
            diag_set(d, ST_VALIDATION, "the rule for %s (%s) would %s %s, a key attribute of %s%s: "
                     "that merges or loses items; only hash (which keeps the key's shape) or keep",
                     r->text, mask_action_name(r->action), mask_action_name(r->action), k->name,
                     table, k->index ? "'s indexes" : "");
            free(explicit_rule);
            mask_plan_free(p);
            return ST_VALIDATION;
        }
        k->action = r->action;
        k->rule = r;
        if (!k->index && r->action == MASK_HASH)
            hashed_types |= 1u << k->type;
    }
    for (size_t i = 0; i < p->n_keys; i++)
        if ((hashed_types & 1u << p->keys[i].type) && p->keys[i].index && !explicit_rule[i]) {
            p->keys[i].action = MASK_HASH;
            p->keys[i].mirrored = true;
        }
    free(explicit_rule);
    *out = p;
    return ST_OK;
}

void mask_plan_free(mask_plan *p)
{
    if (!p)
        return;
    free(p->rules);
    free(p->keys);
    table_def_free(&p->def);
    free(p);
}

void mask_plan_describe(const mask_plan *p, buf *out)
{
    buf own = BUF_INIT, with = BUF_INIT;
    for (size_t i = 0; i < p->n_keys; i++) {
        const key_decision *k = &p->keys[i];
        buf *b = k->mirrored ? &with : &own;
        if (k->action != MASK_HASH)
            continue;
        buf_adds(b, b->len ? ", " : "");
        buf_adds(b, k->name);
    }
    if (!own.len)
        buf_adds(out, "key attributes kept");
    else
        buf_printf(out, "%s hashed", own.data);
    if (with.len)
        buf_printf(out, " (%s with them)", with.data);
    buf_done(&own);
    buf_done(&with);
}

/* ---- the MAC as bytes, text, numbers ---------------------------------------- */

/* A stream of bytes from the MAC of a value: blocks MAC(value, 0, i). */
typedef struct stream {
    const mask *m;
    const void *p;
    size_t n;
    unsigned char block[32];
    unsigned counter, used;
} stream;

static void stream_init(stream *s, const mask *m, const void *p, size_t n)
{
    *s = (stream){ .m = m, .p = p, .n = n, .used = 32 };
}

static unsigned char stream_byte(stream *s)
{
    if (s->used == 32) {
        if (s->counter == 0) {
            s->m->mac(s->m->ctx, s->p, s->n, s->block);
        } else {
            unsigned char *tmp = xmalloc(s->n + 5);
            memcpy(tmp, s->p, s->n);
            tmp[s->n] = 0;
            memcpy(tmp + s->n + 1, &s->counter, 4);
            s->m->mac(s->m->ctx, tmp, s->n + 5, s->block);
            free(tmp);
        }
        s->counter++;
        s->used = 0;
    }
    return s->block[s->used++];
}

/* A number below n, near enough uniform for fakes. */
static unsigned stream_below(stream *s, unsigned n)
{
    unsigned v = (unsigned)stream_byte(s) << 8 | stream_byte(s);
    return v % n;
}

static void base32(buf *out, const unsigned char *mac, size_t chars)
{
    static const char alpha[] = "abcdefghijklmnopqrstuvwxyz234567";
    for (size_t i = 0; i < chars; i++) {
        size_t bit = i * 5, byte = bit / 8, shift = bit % 8;
        unsigned v = ((unsigned)mac[byte] << 8 | mac[byte + 1]) >> (11 - shift);
        buf_addc(out, alpha[v & 31]);
    }
}

/* An entity tag: capitals, digits and _ after a capital (PROFILE, CRS, A). */
static bool tag_like(const char *p, size_t n)
{
    if (n == 0 || n > 32 || p[0] < 'A' || p[0] > 'Z')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
            return false;
    return true;
}

static void hash_text(const mask *m, const char *p, size_t n, buf *out)
{
    size_t segs = 1;
    for (size_t i = 0; i < n; i++)
        segs += p[i] == '#';
    size_t at = 0;
    for (size_t k = 0; k < segs; k++) {
        const char *h = memchr(p + at, '#', n - at);
        size_t len = h ? (size_t)(h - (p + at)) : n - at;
        const char *s = p + at;
        if (len == 0 || (k == 0 && segs > 1) || tag_like(s, len)) {
            buf_add(out, s, len);
        } else {
            unsigned char mac[32];
            m->mac(m->ctx, s, len, mac);
            base32(out, mac, HASH_CHARS);
        }
        if (h)
            buf_addc(out, '#');
        at += len + 1;
    }
}

static void set_num_text(av *v, const char *text, size_t len)
{
    num n;
    diag d;
    diag_init(&d);
    if (num_parse(text, len, &n, &d) != ST_OK)
        num_parse("0", 1, &n, &d);
    av_init_n(v, &n);
}

static void hash_scalar(const mask *m, const av *in, av *out)
{
    unsigned char mac[32];
    char text[NUM_TEXT_MAX];
    switch (in->type) {
    case AV_S: {
        buf b = BUF_INIT;
        hash_text(m, in->u.s.ptr, in->u.s.len, &b);
        av_init_s(out, b.data ? b.data : "", b.len);
        buf_done(&b);
        break;
    }
    case AV_N: {
        size_t len = num_format(&in->u.n, text);
        m->mac(m->ctx, text, len, mac);
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v = v << 8 | mac[i];
        len = (size_t)snprintf(text, sizeof text, "%llu",
                               (unsigned long long)(v % 900000000000000000ULL + 100000000000000000ULL));
        set_num_text(out, text, len);
        break;
    }
    case AV_B:
        m->mac(m->ctx, in->u.s.ptr, in->u.s.len, mac);
        av_init_b(out, mac, 16);
        break;
    default:
        av_copy(out, in);
        break;
    }
}

/* ---- fakes ------------------------------------------------------------------ */

static const char *const first_names[] = { "Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey",
                                           "Riley", "Jamie", "Minjun", "Seoyeon", "Jiho", "Yuna",
                                           "Noah", "Emma", "Lucas", "Mia" };
static const char *const last_names[] = { "Kim", "Lee", "Park", "Smith", "Garcia", "Chen",
                                          "Novak", "Silva", "Khan", "Jones", "Choi", "Muller" };

/* Letters by letters (case kept), digits by digits, Hangul syllables by
 * Hangul syllables, other characters beyond ASCII by letters, the rest
 * (punctuation, spaces, @ . -) kept: the text's shape. digits_only keeps
 * letters too (phone numbers). */
static void fake_shape(stream *r, const char *p, size_t n, bool digits_only, buf *out)
{
    const unsigned char *s = (const unsigned char *)p;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c >= '0' && c <= '9')
                buf_addc(out, (char)('0' + stream_below(r, 10)));
            else if (!digits_only && c >= 'a' && c <= 'z')
                buf_addc(out, (char)('a' + stream_below(r, 26)));
            else if (!digits_only && c >= 'A' && c <= 'Z')
                buf_addc(out, (char)('A' + stream_below(r, 26)));
            else
                buf_addc(out, (char)c);
            i++;
            continue;
        }
        size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (i + k > n)
            k = n - i;
        unsigned cp = k == 3 ? (c & 0x0Fu) << 12 | (s[i + 1] & 0x3Fu) << 6 | (s[i + 2] & 0x3Fu) : 0;
        if (digits_only) {
            buf_add(out, s + i, k);
        } else if (cp >= 0xAC00 && cp <= 0xD7A3) {
            /* A Hangul syllable for a Hangul syllable. */
            cp = 0xAC00 + stream_below(r, 11172);
            buf_addc(out, (char)(0xE0 | (cp >> 12)));
            buf_addc(out, (char)(0x80 | ((cp >> 6) & 0x3F)));
            buf_addc(out, (char)(0x80 | (cp & 0x3F)));
        } else {
            buf_addc(out, (char)('a' + stream_below(r, 26)));
        }
        i += k;
    }
}

static void fake_scalar(const mask *m, mask_as as, const av *in, av *out)
{
    char text[NUM_TEXT_MAX];
    const void *p = in->u.s.ptr;
    size_t n = in->u.s.len;
    if (in->type == AV_N) {
        n = num_format(&in->u.n, text);
        p = text;
    } else if (in->type != AV_S && in->type != AV_B) {
        av_copy(out, in);
        return;
    }
    stream r;
    stream_init(&r, m, p, n);
    buf b = BUF_INIT;
    if (in->type == AV_B) {
        for (size_t i = 0; i < n; i++)
            buf_addc(&b, (char)stream_byte(&r));
        av_init_b(out, b.data ? b.data : "", b.len);
        buf_done(&b);
        return;
    }
    /* A number stays a number: its digits' shape (or a phone's). */
    if (in->type == AV_N && as != MASK_AS_PHONE)
        as = MASK_AS_NUMBER;
    if (as == MASK_AS_AUTO)
        as = MASK_AS_TEXT;
    switch (as) {
    case MASK_AS_NAME:
        buf_printf(&b, "%s %s", first_names[stream_below(&r, 16)], last_names[stream_below(&r, 12)]);
        break;
    case MASK_AS_EMAIL: {
        unsigned char mac[32];
        for (int i = 0; i < 32; i++)
            mac[i] = stream_byte(&r);
        buf_adds(&b, "user-");
        base32(&b, mac, 10);
        buf_adds(&b, "@example.com");
        break;
    }
    case MASK_AS_UUID: {
        unsigned char u[16];
        for (int i = 0; i < 16; i++)
            u[i] = stream_byte(&r);
        u[6] = (u[6] & 0x0f) | 0x40;
        u[8] = (u[8] & 0x3f) | 0x80;
        for (int i = 0; i < 16; i++)
            buf_printf(&b, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
        break;
    }
    case MASK_AS_NUMBER:
    case MASK_AS_PHONE:
        fake_shape(&r, p, n, true, &b);
        /* A number keeps a leading digit that is not 0 (or its sign). */
        if (as == MASK_AS_NUMBER && in->type == AV_N) {
            size_t lead = b.data[0] == '-';
            if (lead < b.len && b.data[lead] == '0' && ((const char *)p)[lead] != '0')
                b.data[lead] = (char)('1' + stream_below(&r, 9));
        }
        break;
    default:
        fake_shape(&r, p, n, false, &b);
        break;
    }
    if (in->type == AV_N)
        set_num_text(out, b.data, b.len);
    else
        av_init_s(out, b.data ? b.data : "", b.len);
    buf_done(&b);
}

static void redact_scalar(const av *in, av *out)
{
    static const char marker[] = "REDACTED";
    switch (in->type) {
    case AV_S:
        av_init_s(out, marker, sizeof marker - 1);
        break;
    case AV_B:
        av_init_b(out, marker, sizeof marker - 1);
        break;
    case AV_N:
        set_num_text(out, "0", 1);
        break;
    case AV_BOOL:
        av_init_bool(out, false);
        break;
    default:
        av_copy(out, in);
        break;
    }
}

/* ---- applying ----------------------------------------------------------------- */

/* The action (not drop or keep) on v and everything inside it; how many
 * scalars it changed. */
static size_t transform(const mask *m, const mask_rule *r, mask_action a, av *v)
{
    size_t n = 0;
    if (v->type == AV_M) {
        for (size_t i = 0; i < v->u.m.len; i++)
            n += transform(m, r, a, &v->u.m.v[i].val);
        return n;
    }
    if (v->type == AV_L || av_is_set(v->type)) {
        if (a == MASK_REDACT && av_is_set(v->type)) {
            /* One marker element: a set has no duplicates. */
            av one;
            redact_scalar(&v->u.l.v[0], &one);
            n = v->u.l.len;
            for (size_t i = 0; i < v->u.l.len; i++)
                av_done(&v->u.l.v[i]);
            v->u.l.len = 0;
            av_list_push(v, &one);
            return n;
        }
        for (size_t i = 0; i < v->u.l.len; i++)
            n += transform(m, r, a, &v->u.l.v[i]);
        if (av_is_set(v->type))
            av_set_normalize(v);
        return n;
    }
    if (v->type == AV_NULL)
        return 0;
    av out;
    if (a == MASK_HASH)
        hash_scalar(m, v, &out);
    else if (a == MASK_FAKE)
        fake_scalar(m, r ? r->as : MASK_AS_AUTO, v, &out);
    else
        redact_scalar(v, &out);
    bool same = av_equal(v, &out);
    av_done(v);
    *v = out;
    return same ? 0 : 1;
}

typedef struct walker {
    const mask_plan *p;
    seg path[MAX_DEPTH + 1];
    size_t depth;
    size_t changed;
    mask_tally *t;       /* NULL: not counted */
} walker;

/* The walker's path as the summary names it: a.b, [*] for any element. */
static void path_text(const walker *w, buf *out)
{
    for (size_t i = 0; i < w->depth; i++) {
        if (w->path[i].name)
            buf_printf(out, "%s%s", i ? "." : "", w->path[i].name);
        else
            buf_adds(out, "[*]");
    }
}

/* Adds path to the tally's strings left clear, once; takes it. */
static void clear_add(mask_tally *t, char *path)
{
    for (size_t i = 0; i < t->n_clear; i++)
        if (strcmp(t->clear[i], path) == 0) {
            free(path);
            return;
        }
    if (t->n_clear < MASK_CLEAR_MAX)
        t->clear[t->n_clear++] = path;
    else {
        t->more_clear = true;
        free(path);
    }
}

/* A string (S or SS) no rule took, at the walker's path. */
static void note_clear(walker *w, const av *v)
{
    if (!w->t || (v->type != AV_S && v->type != AV_SS) || w->t->more_clear)
        return;
    buf b = BUF_INIT;
    path_text(w, &b);
    clear_add(w->t, buf_steal(&b));
}

static void walk_value(walker *w, av *v);

/* Decides the value at the path's end: true when a rule took it (and
 * *drop when it goes). */
static bool decide(walker *w, av *v, const key_decision *key, bool *drop)
{
    *drop = false;
    mask_action a;
    const mask_rule *r = NULL;
    if (key) {
        a = key->action;
        r = key->rule;
        if (w->t && key->mirrored)
            w->t->mirrored++;
        if (!r && !key->mirrored)
            return true;   /* a key no rule names: kept, not counted */
    } else {
        r = first_rule(w->p, w->path, w->depth);
        if (!r)
            return false;
        a = r->action;
    }
    if (w->t && r)
        w->t->by_rule[r - w->p->m->rules]++;
    if (a == MASK_DROP) {
        *drop = true;
        w->changed++;
    } else if (a != MASK_KEEP) {
        w->changed += transform(w->p->m, r, a, v);
    }
    return true;
}

static void walk_map(walker *w, av *m)
{
    size_t out = 0;
    for (size_t i = 0; i < m->u.m.len; i++) {
        av_member *x = &m->u.m.v[i];
        const key_decision *key = NULL;
        if (w->depth == 0)
            for (size_t k = 0; k < w->p->n_keys && !key; k++)
                if (strcmp(w->p->keys[k].name, x->name) == 0)
                    key = &w->p->keys[k];
        w->path[w->depth++] = (seg){ x->name, 0 };
        bool drop = false;
        if (!decide(w, &x->val, key, &drop)) {
            note_clear(w, &x->val);
            walk_value(w, &x->val);
        }
        w->depth--;
        if (drop) {
            free(x->name);
            av_done(&x->val);
            continue;
        }
        m->u.m.v[out++] = *x;
    }
    m->u.m.len = out;
}

static void walk_list(walker *w, av *l)
{
    size_t out = 0;
    for (size_t i = 0; i < l->u.l.len; i++) {
        w->path[w->depth++] = (seg){ NULL, i };
        bool drop = false;
        if (!decide(w, &l->u.l.v[i], NULL, &drop)) {
            note_clear(w, &l->u.l.v[i]);
            walk_value(w, &l->u.l.v[i]);
        }
        w->depth--;
        if (drop) {
            av_done(&l->u.l.v[i]);
            continue;
        }
        l->u.l.v[out++] = l->u.l.v[i];
    }
    l->u.l.len = out;
}

static void walk_value(walker *w, av *v)
{
    if (w->depth >= MAX_DEPTH)
        return;
    if (v->type == AV_M)
        walk_map(w, v);
    else if (v->type == AV_L)
        walk_list(w, v);
}

size_t mask_apply_tally(const mask_plan *p, av *item, mask_tally *t)
{
    assert(item->type == AV_M);
    walker w = { .p = p, .t = t };
    walk_map(&w, item);
    return w.changed;
}

size_t mask_apply(const mask_plan *p, av *item)
{
    return mask_apply_tally(p, item, NULL);
}

/* ---- the tally ------------------------------------------------------------ */

void mask_tally_init(mask_tally *t, const mask *m)
{
    memset(t, 0, sizeof *t);
    t->n_rules = m->n;
    t->by_rule = xcalloc(m->n ? m->n : 1, sizeof *t->by_rule);
}

void mask_tally_done(mask_tally *t)
{
    free(t->by_rule);
    for (size_t i = 0; i < t->n_clear; i++)
        free(t->clear[i]);
    memset(t, 0, sizeof *t);
}

void mask_tally_add(mask_tally *into, const mask_tally *from)
{
    for (size_t i = 0; i < into->n_rules && i < from->n_rules; i++)
        into->by_rule[i] += from->by_rule[i];
    into->mirrored += from->mirrored;
    for (size_t i = 0; i < from->n_clear && !into->more_clear; i++)
        clear_add(into, xstrdup(from->clear[i]));
    into->more_clear |= from->more_clear;
}

void mask_tally_rules(const mask *m, const char *table, const mask_tally *t, buf *out)
{
    for (size_t i = 0; i < m->n; i++) {
        const mask_rule *r = &m->rules[i];
        buf_printf(out, "  %s %s", r->text, mask_action_name(r->action));
        if (r->action == MASK_FAKE && r->as != MASK_AS_AUTO)
            buf_printf(out, " as %s", as_names[r->as]);
        uint64_t n = i < t->n_rules ? t->by_rule[i] : 0;
        if (!rule_for_table(r, table))
            buf_adds(out, ": not for this table\n");
        else if (!n)
            buf_adds(out, ": no value matched\n");
        else
            buf_printf(out, ": %llu value%s\n", (unsigned long long)n, n == 1 ? "" : "s");
    }
    if (t->mirrored)
        buf_printf(out, "  index keys hashed with the table's: %llu value%s\n",
                   (unsigned long long)t->mirrored, t->mirrored == 1 ? "" : "s");
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void mask_tally_clear(const mask_tally *t, buf *out)
{
    /* In name order: the same whichever segment saw a path first. */
    char *sorted[MASK_CLEAR_MAX];
    memcpy(sorted, t->clear, t->n_clear * sizeof *sorted);
    qsort(sorted, t->n_clear, sizeof *sorted, str_cmp);
    for (size_t i = 0; i < t->n_clear; i++)
        buf_printf(out, "%s%s", i ? ", " : "", sorted[i]);
    if (t->more_clear)
        buf_adds(out, ", and more");
}

void mask_hash_value(const mask *m, const av *in, av *out)
{
    av_copy(out, in);
    transform(m, NULL, MASK_HASH, out);
}
