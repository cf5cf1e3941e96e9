/*
 * ddbjson — DynamoDB JSON <-> attribute values (see ddbjson.h).
 *
 * Decoding runs in two passes over the cJSON tree, as DynamoDB does: first
 * the shape of the whole request (a SerializationException names the
 * first JSON value of the wrong kind), then the values (a
 * ValidationException for bad numbers, empty or duplicate sets, ...), while
 * building the av. Messages are DynamoDB's, oddities included ("An number
 * set  may not be empty", "dectected"), as dynalite records them.
 *
 * This file is the cJSON reader and the writers; plain JSON is read in
 * ddbjson_plain.c, a request's flat members in ddbjson_flat.c (what they
 * share: ddbjson_int.h).
 */
#include "model/ddbjson.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "model/base64.h"
#include "model/ddbjson_int.h"
#include "model/mem.h"

#define MSG_EMPTY_AV "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
#define MSG_MULTI_AV "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
#define MSG_NULL_FALSE "One or more parameter values were invalid: Null attribute value types must have the value of true"
#define MSG_EMPTY_SS "One or more parameter values were invalid: An string set  may not be empty"
#define MSG_EMPTY_NS "One or more parameter values were invalid: An number set  may not be empty"
#define MSG_EMPTY_BS "One or more parameter values were invalid: Binary sets should not be empty"
#define MSG_NULL_MEMBER "One or more parameter values were invalid: Set members may not be null"
#define MSG_STRUCT "Start of structure or map found where not expected"
#define MSG_FIELD "Unexpected field type"
#define MSG_MAP_COLL "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"

__attribute__((format(printf, 4, 5)))
status ddbjson_fail(diag *d, status code, const path *p, const char *fmt, ...)
{
    char msg[sizeof d->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (d && p)
        snprintf(d->path, sizeof d->path, "%s", p->s);
    return diag_set(d, code, "%s", msg);
}

/* ---- pass 1: shapes (SerializationException) ---- */

/* "NUMBER_VALUE" for an integral JSON number, "DECIMAL_VALUE" otherwise,
 * decided on cJSON's printed text so no floating point is done here. */
static const char *number_kind(const cJSON *n)
{
    char text[64];
    num v;
    if (cJSON_PrintPreallocated((cJSON *)n, text, sizeof text, 0) &&
        num_parse(text, strlen(text), &v, NULL) == ST_OK && v.exp < 0)
        return "DECIMAL_VALUE";
    return "NUMBER_VALUE";
}

/* A JSON value where a Java scalar (String, Boolean) is expected. */
static status shape_scalar(const cJSON *n, const char *java, diag *d, const path *p)
{
    if (cJSON_IsBool(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "%s cannot be converted to %s",
                    cJSON_IsTrue(n) ? "TRUE_VALUE" : "FALSE_VALUE", java);
    if (cJSON_IsNumber(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "%s cannot be converted to %s", number_kind(n), java);
    if (cJSON_IsArray(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "Unrecognized collection type class java.lang.%s", java);
    if (cJSON_IsObject(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_STRUCT);
    return ST_OK;
}

/* DynamoDB (Jackson) reads "true"/"1"/"yes" and "false"/"0"/"no" as
 * booleans, in any case. Returns -1 for any other text. */
static int bool_text(const char *s)
{
    static const char *const yes[] = { "true", "1", "yes" }, *const no[] = { "false", "0", "no" };
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, yes[i]) == 0)
            return 1;
        if (strcasecmp(s, no[i]) == 0)
            return 0;
    }
    return -1;
}

static status shape_bool(const cJSON *n, diag *d, const path *p)
{
    if (cJSON_IsBool(n))
        return ST_OK;
    if (cJSON_IsString(n)) {
        if (bool_text(n->valuestring) < 0)
            return ddbjson_fail(d, ST_SERIALIZATION, p, "Unexpected token received from parser");
        return ST_OK;
    }
    return shape_scalar(n, "Boolean", d, p);
}

static status check_base64(const char *s, buf *scratch, diag *d, const path *p)
{
    size_t len = strlen(s);
    buf_reset(scratch);
    switch (base64_decode(scratch, s, len)) {
    case BASE64_OK:
        return ST_OK;
    case BASE64_BAD_LENGTH:
        return ddbjson_fail(d, ST_SERIALIZATION, p,
                    "Base64 encoded length is expected a multiple of 4 bytes but found: %zu", len);
    default:
        return ddbjson_fail(d, ST_SERIALIZATION, p, "Invalid last non-pad Base64 character dectected");
    }
}

static status shape_blob(const cJSON *n, buf *scratch, diag *d, const path *p)
{
    if (cJSON_IsString(n))
        return check_base64(n->valuestring, scratch, d, p);
    if (cJSON_IsBool(n) || cJSON_IsNumber(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "only base-64-encoded strings are convertible to bytes");
    if (cJSON_IsArray(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "Unrecognized collection type class java.nio.ByteBuffer");
    return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_STRUCT);
}

static status shape_list(const cJSON *n, diag *d, const path *p)
{
    if (cJSON_IsArray(n))
        return ST_OK;
    if (cJSON_IsObject(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_STRUCT);
    return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_FIELD);
}

static status shape_value(const cJSON *n, buf *scratch, diag *d, path *p);

static status shape_map(const cJSON *n, buf *scratch, diag *d, path *p)
{
    if (cJSON_IsArray(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_MAP_COLL);
    if (!cJSON_IsObject(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, MSG_FIELD);
    for (const cJSON *c = n->child; c; c = c->next) {
        size_t old = path_push_name(p, c->string);
        status st = shape_value(c, scratch, d, p);
        path_pop(p, old);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* One AttributeValue: an object of type keys. Unknown keys and null values
 * are ignored, as DynamoDB's deserializer does. */
static status shape_value(const cJSON *n, buf *scratch, diag *d, path *p)
{
    if (cJSON_IsNull(n))
        return ST_OK;           /* pass 2 reports the empty value */
    if (cJSON_IsArray(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p,
                    "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue");
    if (!cJSON_IsObject(n))
        return ddbjson_fail(d, ST_SERIALIZATION, p, "Unexpected value type in payload");
    for (const cJSON *c = n->child; c; c = c->next) {
        if (cJSON_IsNull(c))
            continue;
        av_type t = av_type_from_name(c->string, strlen(c->string));
        status st = ST_OK;
        size_t old = p->len;
        switch (t) {
        case AV_S:
        case AV_N:
            st = shape_scalar(c, "String", d, p);
            break;
        case AV_B:
            st = shape_blob(c, scratch, d, p);
            break;
        case AV_BOOL:
        case AV_NULL:
            st = shape_bool(c, d, p);
            break;
        case AV_SS:
        case AV_NS:
        case AV_BS:
        case AV_L: {
            if ((st = shape_list(c, d, p)) != ST_OK)
                break;
            int i = 0;
            if (t != AV_L)
                path_push_dot(p, c->string);
            for (const cJSON *e = c->child; e && st == ST_OK; e = e->next, i++) {
                size_t o2 = path_push_index(p, i);
                if (cJSON_IsNull(e))
                    ;   /* pass 2 */
                else if (t == AV_BS)
                    st = shape_blob(e, scratch, d, p);
                else if (t == AV_L)
                    st = shape_value(e, scratch, d, p);
                else
                    st = shape_scalar(e, "String", d, p);
                path_pop(p, o2);
            }
            break;
        }
        case AV_M:
            st = shape_map(c, scratch, d, p);
            break;
        default:
            break;      /* unknown key: ignored */
        }
        path_pop(p, old);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* ---- pass 2: values (ValidationException), building the av ---- */

static status build_value(const cJSON *n, path *p, av *out, diag *d, buf *scratch);

static bool node_true(const cJSON *n)
{
    return cJSON_IsTrue(n) || (cJSON_IsString(n) && bool_text(n->valuestring) == 1);
}

/* "[a, b, a]": the set as DynamoDB quotes it in its duplicates message. */
static void quote_set(buf *out, const cJSON *arr)
{
    buf_addc(out, '[');
    for (const cJSON *e = arr->child; e; e = e->next) {
        if (e != arr->child)
            buf_adds(out, ", ");
        buf_adds(out, cJSON_IsString(e) ? e->valuestring : "null");
        if (out->len > 900)
            break;      /* the message has room for so much */
    }
    buf_addc(out, ']');
}

/* ---- U+0000 through cJSON ----
 *
 * DynamoDB stores strings and attribute names holding U+0000. cJSON's
 * strings end at a NUL, so ddbjson_cjson_parse hands cJSON each "\u0000"
 * escape as the byte 0xFF instead: a byte that cannot occur in the text,
 * which is checked to be UTF-8 first, and that cJSON copies as it is. The
 * builders below turn it back into NUL (strings, set members, attribute
 * names), which ddbjson_write_string writes as \u0000. */
#define NUL_MARK '\xFF'

void ddbjson_unmark(char *p, size_t n)
{
    for (char *q = p; (q = memchr(q, NUL_MARK, n - (size_t)(q - p))) != NULL; q++)
        *q = '\0';
}

static void init_s_unmarked(av *v, const char *s)
{
    size_t n = strlen(s);
    av_init_s(v, s, n);
    ddbjson_unmark(v->u.s.ptr, n);
}

static status build_set(av_type t, const cJSON *arr, path *p, av *out, diag *d, buf *scratch)
{
    if (!arr->child)
        return ddbjson_fail(d, ST_VALIDATION, p, "%s",
                    t == AV_SS ? MSG_EMPTY_SS : t == AV_NS ? MSG_EMPTY_NS : MSG_EMPTY_BS);
    status st = ST_OK;
    av_init_list(out, t);
    int i = 0;
    size_t old = path_push_dot(p, av_type_name(t));
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        size_t o2 = path_push_index(p, i);
        av v;
        if (cJSON_IsNull(e)) {
            st = t == AV_NS ? ddbjson_fail(d, ST_VALIDATION, p, "The parameter cannot be converted to a numeric value")
                            : ddbjson_fail(d, ST_VALIDATION, p, MSG_NULL_MEMBER);
        } else if (t == AV_SS) {
            init_s_unmarked(&v, e->valuestring);
        } else if (t == AV_NS) {
            num x;
            if ((st = num_parse(e->valuestring, strlen(e->valuestring), &x, d)) != ST_OK)
                ddbjson_fail(d, st, p, "%s", d ? d->msg : "");
            else
                av_init_n(&v, &x);
        } else {
            buf_reset(scratch);
            base64_decode(scratch, e->valuestring, strlen(e->valuestring));
            av_init_b(&v, scratch->data ? scratch->data : "", scratch->len);
        }
        path_pop(p, o2);
        if (st != ST_OK)
            goto out;
        av_list_push(out, &v);
    }
    if (!av_set_normalize(out)) {
        if (t == AV_NS) {
            st = ddbjson_fail(d, ST_VALIDATION, p, "Input collection contains duplicates");
        } else {
            buf q = BUF_INIT;
            quote_set(&q, arr);
            st = ddbjson_fail(d, ST_VALIDATION, p,
                      t == AV_SS ? "One or more parameter values were invalid: Input collection %s contains duplicates."
                                 : "One or more parameter values were invalid: Input collection %sof type BS contains duplicates.",
                      q.data);
            buf_done(&q);
        }
    }
out:
    path_pop(p, old);
    if (st != ST_OK)
        av_done(out);
    return st;
}

/* A member's or element's value c, built at the path step just pushed
 * (old: what the path pops back to); on an error the map or list built
 * so far (out) is freed. */
static status build_in(const cJSON *c, path *p, size_t old, av *v, av *out, diag *d, buf *scratch)
{
    status st = build_value(c, p, v, d, scratch);
    path_pop(p, old);
    if (st != ST_OK)
        av_done(out);
    return st;
}

static status build_map(const cJSON *obj, path *p, av *out, diag *d, buf *scratch)
{
    av_init_list(out, AV_M);
    for (const cJSON *c = obj->child; c; c = c->next) {
        av v;
        status st = build_in(c, p, path_push_name(p, c->string), &v, out, d, scratch);
        if (st != ST_OK)
            return st;
        /* a repeated name: the last wins */
        if (strchr(c->string, NUL_MARK)) {
            buf name = BUF_INIT;
            buf_adds(&name, c->string);
            ddbjson_unmark(name.data, name.len);
            av_map_put(out, name.data, name.len, &v);
            buf_done(&name);
        } else {
            av_map_put(out, c->string, strlen(c->string), &v);
        }
    }
    return ST_OK;
}

static status build_typed(av_type t, const cJSON *c, path *p, av *out, diag *d, buf *scratch)
{
    switch (t) {
    case AV_S:
        init_s_unmarked(out, c->valuestring);
        return ST_OK;
    case AV_N: {
        num x;
        status st = num_parse(c->valuestring, strlen(c->valuestring), &x, d);
        if (st != ST_OK)
            return ddbjson_fail(d, st, p, "%s", d ? d->msg : "");
        av_init_n(out, &x);
        return ST_OK;
    }
    case AV_B:
        buf_reset(scratch);
        base64_decode(scratch, c->valuestring, strlen(c->valuestring));
        av_init_b(out, scratch->data ? scratch->data : "", scratch->len);
        return ST_OK;
    case AV_BOOL:
        av_init_bool(out, node_true(c));
        return ST_OK;
    case AV_NULL:
        /* {"NULL": false} is refused: AWS accepted it for a while in one
         * region in June 2026 and every region refused it again by
         * 2026-07-17 (dynoxide 0.12.0, issue 145, confirmed in eu-west-2). */
        if (!node_true(c))
            return ddbjson_fail(d, ST_VALIDATION, p, MSG_NULL_FALSE);
        av_init_null(out);
        return ST_OK;
    case AV_SS:
    case AV_NS:
    case AV_BS:
        return build_set(t, c, p, out, d, scratch);
    case AV_L: {
        av_init_list(out, AV_L);
        int i = 0;
        for (const cJSON *e = c->child; e; e = e->next, i++) {
            av v;
            status st = build_in(e, p, path_push_index(p, i), &v, out, d, scratch);
            if (st != ST_OK)
                return st;
            av_list_push(out, &v);
        }
        return ST_OK;
    }
    case AV_M:
        return build_map(c, p, out, d, scratch);
    default:
        assert(!"not a type");
        return ST_INTERNAL;
    }
}

static status build_value(const cJSON *n, path *p, av *out, diag *d, buf *scratch)
{
    out->type = AV_NONE;
    int ntypes = 0;
    if (n && cJSON_IsObject(n))
        for (const cJSON *c = n->child; c; c = c->next)
            if (!cJSON_IsNull(c) && av_type_from_name(c->string, strlen(c->string)) != AV_NONE)
                ntypes++;
    if (ntypes == 0)
        return ddbjson_fail(d, ST_VALIDATION, p, MSG_EMPTY_AV);
    /* DynamoDB validates each type given, in order, before refusing two. */
    for (const cJSON *c = n->child; c; c = c->next) {
        av_type t = cJSON_IsNull(c) ? AV_NONE : av_type_from_name(c->string, strlen(c->string));
        if (t == AV_NONE)
            continue;
        av v;
        status st = build_typed(t, c, p, &v, d, scratch);
        if (st != ST_OK)
            return st;
        if (ntypes == 1) {
            av_move(out, &v);
            return ST_OK;
        }
        av_done(&v);
    }
    return ddbjson_fail(d, ST_VALIDATION, p, MSG_MULTI_AV);
}

/* obj's shape checked (shape_map, shape_value), then built: an item (map)
 * or one AttributeValue. */
static status from_cjson(const cJSON *obj, const char *prefix, bool map, av *out, diag *d)
{
    path p;
    buf scratch = BUF_INIT;
    path_init(&p, prefix);
    status st = map ? shape_map(obj, &scratch, d, &p) : shape_value(obj, &scratch, d, &p);
    if (st == ST_OK)
        st = map ? build_map(obj, &p, out, d, &scratch) : build_value(obj, &p, out, d, &scratch);
    buf_done(&scratch);
    return st;
}

status ddbjson_item_from_cjson(const cJSON *obj, const char *prefix, av *item, diag *d)
{
    return from_cjson(obj, prefix, true, item, d);
}

status ddbjson_value_from_cjson(const cJSON *obj, const char *prefix, av *v, diag *d)
{
    return from_cjson(obj, prefix, false, v, d);
}

/* ---- JSON text in ---- */

void ddbjson_locate(diag *d, const char *text, size_t pos)
{
    if (!d)
        return;
    int line = 1, col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (text[i] == '\n')
            line++, col = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80)
            col++;      /* count characters, not UTF-8 continuation bytes */
    }
    d->line = line;
    d->col = col;
    d->pos = (long)pos;
}


static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The first \u escape not followed by four hex digits, or -1. cJSON
 * reads one as U+0000 (ending its C string there) and takes the next
 * four characters whatever they are, a quote or a backslash too: with
 * every \u escape well formed, an escape is the backslash and the one
 * character after it for the scans below, as for cJSON. JSON allows only
 * \u and four hex digits (RFC 8259, section 7). */
static size_t find_bad_u_escape(const char *text, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\')
            continue;
        if (text[i + 1] == 'u' && (i + 6 > len || !is_hex(text[i + 2]) || !is_hex(text[i + 3]) ||
                                   !is_hex(text[i + 4]) || !is_hex(text[i + 5])))
            return i;
        i++;    /* skip the escaped character */
    }
    return (size_t)-1;
}

/* cJSON turns "\u0000" into a NUL that ends its C string; refuse it
 * rather than truncate silently. Backslashes occur only inside strings. */
static size_t find_nul_escape(const char *text, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\')
            continue;
        if (text[i + 1] == 'u' && i + 6 <= len && memcmp(text + i + 2, "0000", 4) == 0)
            return i;
        i++;    /* skip the escaped character */
    }
    return (size_t)-1;
}

/* text with each \u0000 escape (outside another escape) as NUL_MARK. */
static void mark_nul_escapes(const char *text, size_t len, buf *out)
{
    size_t run = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\')
            continue;
        if (text[i + 1] == 'u' && i + 6 <= len && memcmp(text + i + 2, "0000", 4) == 0) {
            buf_add(out, text + run, i - run);
            buf_addc(out, NUL_MARK);
            run = i + 6;
            i += 5;
            continue;
        }
        i++;
    }
    buf_add(out, text + run, len - run);
}


status ddbjson_check_text(const char *text, size_t len, diag *d)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t k = s[i] == 0 ? 0 : utf8_seq(s + i, len - i);
        if (k == 0) {
            ddbjson_locate(d, text, i);
            return diag_set(d, ST_PARSE, "%s at line %d, column %d",
                            s[i] == 0 ? "NUL byte in JSON text" : "invalid UTF-8",
                            d ? d->line : 0, d ? d->col : 0);
        }
        i += k;
    }
    return ST_OK;
}

status ddbjson_cjson_parse(const char *text, size_t len, cJSON **root, diag *d)
{
    const char *end = NULL;
    *root = NULL;
    /* cJSON passes invalid UTF-8 through, and a raw NUL inside a string
     * would silently cut the string short: refuse both up front. */
    status cst = ddbjson_check_text(text, len, d);
    if (cst != ST_OK)
        return cst;
    size_t bad = find_bad_u_escape(text, len);
    if (bad != (size_t)-1) {
        ddbjson_locate(d, text, bad);
        return diag_set(d, ST_PARSE, "invalid JSON at line %d, column %d: \\u takes four hex digits",
                        d ? d->line : 0, d ? d->col : 0);
    }
    *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t pos = end ? (size_t)(end - text) : 0;
    if (*root) {
        while (pos < len && is_ws(text[pos]))
            pos++;
        if (pos == len) {
            if (find_nul_escape(text, len) == (size_t)-1)
                return ST_OK;
            /* Parse again with every \u0000 escape as the mark (see
             * ddbjson_unmark). The text parsed as it is, so this does too. */
            cJSON_Delete(*root);
            buf marked = BUF_INIT;
            mark_nul_escapes(text, len, &marked);
            *root = cJSON_ParseWithLengthOpts(marked.data, marked.len, NULL, 0);
            buf_done(&marked);
            if (*root)
                return ST_OK;
            ddbjson_locate(d, text, find_nul_escape(text, len));
            return diag_set(d, ST_INTERNAL, "JSON text with \\u0000 failed to parse again");
        }
        cJSON_Delete(*root);
        *root = NULL;
    }
    ddbjson_locate(d, text, pos > len ? len : pos);
    return diag_set(d, ST_PARSE, "invalid JSON at line %d, column %d", d ? d->line : 0, d ? d->col : 0);
}

/* JSON text parsed, then read as an item (map) or one AttributeValue. */
static status parse_text(const char *text, size_t len, bool map, av *out, diag *d)
{
    cJSON *root;
    status st = ddbjson_cjson_parse(text, len, &root, d);
    if (st != ST_OK)
        return st;
    st = from_cjson(root, NULL, map, out, d);
    cJSON_Delete(root);
    return st;
}

status ddbjson_parse_item(const char *text, size_t len, av *item, diag *d)
{
    return parse_text(text, len, true, item, d);
}

status ddbjson_parse_value(const char *text, size_t len, av *v, diag *d)
{
    return parse_text(text, len, false, v, d);
}

/* ---- JSON text out ---- */

/* True when none of the 8 bytes at p is a control byte, '"', '\\' or
 * >= 0x80 (the classic "has a byte less than / equal to" bit tricks). */
static inline bool plain_ascii8(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t bad = x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b);
    return (bad & highs) == 0;
}

void ddbjson_write_string(buf *out, const char *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)p;
    buf_reserve(out, n + 2);
    buf_addc(out, '"');
    size_t run = 0;     /* start of the pending run of bytes copied as is */
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = 1;
        const char *esc = NULL;
        char u[7];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            /* Skip 8 plain ASCII bytes at a time: most strings need no
             * escaping, and this loop dominates building Query responses. */
            while (i + 8 <= n && plain_ascii8(s + i))
                i += 8;
            continue;
        }
        if (c >= 0x80 && (k = utf8_seq(s + i, n - i)) > 0) {
            i += k;
            continue;
        }
        switch (c) {
        case '"':  esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:   /* other control bytes, and bytes that are not UTF-8 */
            memcpy(u, "\\u00", 4);
            u[4] = hex[c >> 4];
            u[5] = hex[c & 15];
            u[6] = '\0';
            esc = u;
        }
        buf_add(out, p + run, i - run);
        buf_adds(out, esc);
        run = ++i;
    }
    buf_add(out, p + run, n - run);
    buf_addc(out, '"');
}

static void write_num(buf *out, const num *n)
{
    char text[NUM_TEXT_MAX];
    size_t len = num_format(n, text);
    buf_add(out, text, len);
}

static void write_b64_string(buf *out, const av *v)
{
    buf_addc(out, '"');
    base64_encode(out, v->u.s.ptr, v->u.s.len);
    buf_addc(out, '"');
}

static void write_json(buf *out, const av *v, bool plain);

/* A map's members as a JSON object, each value in DynamoDB JSON or plain. */
static void write_members(buf *out, const av *item, bool plain)
{
    assert(item->type == AV_M);
    buf_addc(out, '{');
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, m->name, m->name_len);
        buf_addc(out, ':');
        write_json(out, &m->val, plain);
    }
    buf_addc(out, '}');
}

/* v's value without its type: what DynamoDB JSON puts in the type's member
 * ({"N":"5"} -> "5"), and the whole value in plain JSON, where a number is
 * bare digits (valid JSON) and NULL is null. A set's elements carry no
 * type in either. */
static void write_payload(buf *out, const av *v, bool plain)
{
    switch (v->type) {
    case AV_S:
        ddbjson_write_string(out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
        if (!plain)
            buf_addc(out, '"');
        write_num(out, &v->u.n);
        if (!plain)
            buf_addc(out, '"');
        break;
    case AV_B:
        write_b64_string(out, v);
        break;
    case AV_BOOL:
        buf_adds(out, v->u.b ? "true" : "false");
        break;
    case AV_NULL:
        buf_adds(out, plain ? "null" : "true");
        break;
    case AV_L:
    case AV_SS:
    case AV_NS:
    case AV_BS:
        buf_addc(out, '[');
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (i)
                buf_addc(out, ',');
            if (v->type == AV_L)
                write_json(out, &v->u.l.v[i], plain);
            else
                write_payload(out, &v->u.l.v[i], plain);
        }
        buf_addc(out, ']');
        break;
    case AV_M:
        write_members(out, v, plain);
        break;
    default:
        buf_adds(out, "null");      /* AV_NONE never reaches output */
        break;
    }
}

/* v in DynamoDB JSON ({"N":"5"}), or plain JSON (5). */
static void write_json(buf *out, const av *v, bool plain)
{
    if (plain) {
        write_payload(out, v, true);
        return;
    }
    buf_adds(out, "{\"");
    buf_adds(out, av_type_name(v->type));
    buf_adds(out, "\":");
    write_payload(out, v, false);
    buf_addc(out, '}');
}

void ddbjson_write_value(buf *out, const av *v)
{
    write_json(out, v, false);
}

void ddbjson_write_item(buf *out, const av *item)
{
    write_members(out, item, false);
}

/* ---- plain JSON ---- */

void ddbjson_write_plain_item(buf *out, const av *item)
{
    write_members(out, item, true);
}

/* ---- a parsed answer's members, for model/ddbres_*.c ---- */

const cJSON *ddbjson_member(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, name) : NULL;
    return v && !cJSON_IsNull(v) ? v : NULL;
}

const char *ddbjson_member_str(const cJSON *o, const char *name)
{
    const cJSON *v = ddbjson_member(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool ddbjson_member_num(const cJSON *o, const char *name, double *out)
{
    const cJSON *v = ddbjson_member(o, name);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valuedouble;
    return true;
}

bool ddbjson_member_true(const cJSON *o, const char *name)
{
    return cJSON_IsTrue(ddbjson_member(o, name));
}

const cJSON *ddbjson_first(const cJSON *o)
{
    return cJSON_IsArray(o) || cJSON_IsObject(o) ? o->child : NULL;
}

const cJSON *ddbjson_next(const cJSON *e)
{
    return e ? e->next : NULL;
}
