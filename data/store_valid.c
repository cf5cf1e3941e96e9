#include "data/store_valid.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/mem.h"

/* ---- pass 1: JSON types (SerializationException) ---- */

static const vspec av_fields[];
static const vspec av_elem = { "member", VT_ATTR, "AttributeValue", 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 };
static const vspec av_blob_elem = { "member", VT_END + 100, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 };
static const vspec av_str_elem = { "member", VT_STRING, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 };

#define VT_BLOB ((vtype)(VT_END + 100))

/* AttrStruct children, in DynamoDB's member order. */
static const vspec av_fields[] = {
    { "S", VT_STRING, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { "B", VT_BLOB, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { "N", VT_STRING, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { "BOOL", VT_BOOL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { "NULL", VT_BOOL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { "BS", VT_LIST, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, &av_blob_elem, 0 },
    { "NS", VT_LIST, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, &av_str_elem, 0 },
    { "SS", VT_LIST, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, &av_str_elem, 0 },
    { "L", VT_LIST, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, &av_elem, 0 },
    { "M", VT_ATTRMAP, "AttributeValue", 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
    { NULL, VT_END, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0 },
};

static status ser(diag *d, const char *fmt, const char *arg)
{
    return diag_set(d, ST_SERIALIZATION, fmt, arg ? arg : "");
}

static const char *num_kind(const cJSON *v)
{
    double x = v->valuedouble;
    return (x == floor(x) && isfinite(x)) ? "NUMBER_VALUE" : "DECIMAL_VALUE";
}

static bool b64_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '+' || c == '/';
}

/* Is s canonical base64 (what Buffer round-trips)? */
static bool b64_canonical(const char *s, size_t n)
{
    size_t pad = 0;
    while (pad < 2 && pad < n && s[n - 1 - pad] == '=')
        pad++;
    for (size_t i = 0; i < n - pad; i++)
        if (!b64_char(s[i]))
            return false;
    if (pad && n >= pad + 1) {
        /* The last data character must leave no stray bits. */
        static const char *tab =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        int v = (int)(strchr(tab, s[n - pad - 1]) - tab);
        if (pad == 1 && (v & 3))
            return false;
        if (pad == 2 && (v & 15))
            return false;
    }
    return true;
}

static status check_fields(const cJSON *obj, const vspec *fields, diag *d);

static status check_type(const cJSON *v, const vspec *sp, diag *d);

/* What the SDK's Java unmarshaller says for a scalar where a
 * parameterised list or map was wanted. */
static const char class_cast[] =
    "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl"
    " cannot be cast to class java.lang.Class (sun.reflect.generics."
    "reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in"
    " module java.base of loader 'bootstrap')";

/* String, Boolean, Integer and Long. */
static status check_scalar(const cJSON *v, const vspec *sp, diag *d)
{
    char msg[512];
    const char *tn = sp->type == VT_STRING ? "String" : sp->type == VT_BOOL ? "Boolean"
                     : sp->type == VT_INT ? "Integer" : "Long";
    if (cJSON_IsArray(v)) {
        snprintf(msg, sizeof msg, "Unrecognized collection type class java.lang.%s", tn);
        return ser(d, "%s", msg);
    }
    if (cJSON_IsObject(v))
        return ser(d, "Start of structure or map found where not expected", NULL);
    if (sp->type == VT_STRING) {
        if (cJSON_IsBool(v)) {
            return ser(d, "%s cannot be converted to String",
                       cJSON_IsTrue(v) ? "TRUE_VALUE" : "FALSE_VALUE");
        }
        if (cJSON_IsNumber(v))
            return ser(d, "%s cannot be converted to String", num_kind(v));
        return ST_OK;
    }
    if (sp->type == VT_BOOL) {
        if (cJSON_IsNumber(v))
            return ser(d, "%s cannot be converted to Boolean", num_kind(v));
        if (cJSON_IsString(v)) {
            const char *s = v->valuestring;
            if (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes") ||
                !strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "no"))
                return ST_OK;
            return ser(d, "Unexpected token received from parser", NULL);
        }
        return ST_OK;
    }
    if (cJSON_IsBool(v)) {
        snprintf(msg, sizeof msg, "%s cannot be converted to %s",
                 cJSON_IsTrue(v) ? "TRUE_VALUE" : "FALSE_VALUE", tn);
        return ser(d, "%s", msg);
    }
    if (cJSON_IsString(v)) {
        snprintf(msg, sizeof msg, "STRING_VALUE cannot be converted to %s", tn);
        return ser(d, "%s", msg);
    }
    return ST_OK;
}

/* A timestamp: the JSON protocol's epoch seconds. The refusals' wording
 * follows the other converters' (DynamoDB's own for a Date is not
 * published). */
static status check_timestamp(const cJSON *v, diag *d)
{
    if (cJSON_IsNumber(v))
        return ST_OK;
    if (cJSON_IsArray(v))
        return ser(d, "Unrecognized collection type class java.util.Date", NULL);
    if (cJSON_IsObject(v))
        return ser(d, "Start of structure or map found where not expected", NULL);
    if (cJSON_IsBool(v))
        return ser(d, "%s cannot be converted to Date", cJSON_IsTrue(v) ? "TRUE_VALUE" : "FALSE_VALUE");
    return ser(d, "STRING_VALUE cannot be converted to Date", NULL);
}

/* A blob: a string of canonical base64. */
static status check_blob(const cJSON *v, diag *d)
{
    if (cJSON_IsBool(v) || cJSON_IsNumber(v))
        return ser(d, "only base-64-encoded strings are convertible to bytes", NULL);
    if (cJSON_IsArray(v))
        return ser(d, "Unrecognized collection type class java.nio.ByteBuffer", NULL);
    if (cJSON_IsObject(v))
        return ser(d, "Start of structure or map found where not expected", NULL);
    if (cJSON_IsString(v)) {
        size_t n = strlen(v->valuestring);
        if (n % 4) {
            char msg[512];
            snprintf(msg, sizeof msg,
                     "Base64 encoded length is expected a multiple of 4 bytes but found: %zu", n);
            return ser(d, "%s", msg);
        }
        if (!b64_canonical(v->valuestring, n))
            return ser(d, "Invalid last non-pad Base64 character dectected", NULL);
    }
    return ST_OK;
}

/* Every element of an array or every member of an object against el. */
static status check_each(const cJSON *v, const vspec *el, diag *d)
{
    for (const cJSON *e = v->child; e; e = e->next) {
        status st = check_type(e, el, d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* A list (VT_PLIST: one of parameterised elements). */
static status check_list(const cJSON *v, const vspec *sp, diag *d)
{
    if (cJSON_IsBool(v) || cJSON_IsNumber(v) || cJSON_IsString(v)) {
        if (sp->type == VT_PLIST)
            return ser(d, "%s", class_cast);
        return ser(d, "Unexpected field type", NULL);
    }
    if (cJSON_IsObject(v))
        return ser(d, "Start of structure or map found where not expected", NULL);
    return check_each(v, sp->elem, d);
}

/* A map of AttributeValues read as a parameterised map. */
static status check_pmap(const cJSON *v, diag *d)
{
    if (cJSON_IsBool(v) || cJSON_IsNumber(v) || cJSON_IsString(v))
        return ser(d, "%s", class_cast);
    if (cJSON_IsArray(v))
        return ser(d, "Unrecognized collection type java.util.Map<java.lang.String, "
                      "com.amazonaws.dynamodb.v20120810.AttributeValue>", NULL);
    return check_each(v, &av_elem, d);
}

/* A map of sp->elem (VT_ATTRMAP: of AttributeValues). */
static status check_map(const cJSON *v, const vspec *sp, diag *d)
{
    const char *sub = sp->sub ? sp->sub : "AttributeValue";
    if (cJSON_IsBool(v) || cJSON_IsNumber(v) || cJSON_IsString(v))
        return ser(d, "Unexpected field type", NULL);
    if (cJSON_IsArray(v)) {
        char msg[512];
        snprintf(msg, sizeof msg, "Unrecognized collection type java.util.Map<java.lang.String, %s%s>",
                 strchr(sub, '.') ? "" : "com.amazonaws.dynamodb.v20120810.", sub);
        return ser(d, "%s", msg);
    }
    return check_each(v, sp->type == VT_ATTRMAP ? &av_elem : sp->elem, d);
}

/* A structure: its fields (an AttributeValue's for VT_ATTR and VT_ATTRF). */
static status check_struct(const cJSON *v, const vspec *sp, diag *d)
{
    bool value = sp->type == VT_VSTRUCT || sp->type == VT_ATTR;
    const char *sub = sp->sub ? sp->sub : "AttributeValue";
    if (cJSON_IsBool(v) || cJSON_IsNumber(v) || cJSON_IsString(v))
        return ser(d, value ? "Unexpected value type in payload" : "Unexpected field type", NULL);
    if (cJSON_IsArray(v)) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.%s", sub);
        return ser(d, "%s", msg);
    }
    return check_fields(v, (sp->type == VT_ATTR || sp->type == VT_ATTRF) ? av_fields : sp->fields, d);
}

static status check_type(const cJSON *v, const vspec *sp, diag *d)
{
    if (!v || cJSON_IsNull(v))
        return ST_OK;
    switch ((int)sp->type) {
    case VT_STRING:
    case VT_BOOL:
    case VT_INT:
    case VT_LONG:
        return check_scalar(v, sp, d);
    case VT_BLOB:
        return check_blob(v, d);
    case VT_TIMESTAMP:
        return check_timestamp(v, d);
    case VT_LIST:
    case VT_PLIST:
        return check_list(v, sp, d);
    case VT_PMAP:
        return check_pmap(v, d);
    case VT_MAP:
    case VT_ATTRMAP:
        return check_map(v, sp, d);
    case VT_VSTRUCT:
    case VT_FSTRUCT:
    case VT_ATTR:
    case VT_ATTRF:
        return check_struct(v, sp, d);
    default:
        return ST_OK;
    }
}

static status check_fields(const cJSON *obj, const vspec *fields, diag *d)
{
    for (const vspec *f = fields; f->type != VT_END; f++) {
        status st = check_type(cJSON_GetObjectItemCaseSensitive(obj, f->name), f, d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* ---- pass 2: constraints (ValidationException) ---- */

static void num_str(double x, char *out, size_t cap)
{
    if (x == floor(x) && fabs(x) < 1e15)
        snprintf(out, cap, "%lld", (long long)x);
    else
        snprintf(out, cap, "%.17g", x);
}

static void value_str_buf(const cJSON *v, buf *b)
{
    if (!v || cJSON_IsNull(v)) {
        buf_adds(b, "null");
    } else if (cJSON_IsArray(v)) {
        buf_addc(b, '[');
        for (const cJSON *e = v->child; e; e = e->next) {
            if (e != v->child)
                buf_adds(b, ", ");
            value_str_buf(e, b);
        }
        buf_addc(b, ']');
    } else if (cJSON_IsObject(v)) {
        char *t = cJSON_PrintUnformatted(v);
        buf_adds(b, t ? t : "{}");
        cJSON_free(t);
    } else if (cJSON_IsString(v)) {
        buf_adds(b, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        buf_adds(b, cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNumber(v)) {
        char tmp[64];
        num_str(v->valuedouble, tmp, sizeof tmp);
        buf_adds(b, tmp);
    }
}

typedef struct errs {
    int n;
    buf text;
} errs;

static void lower_first(buf *b, const char *s)
{
    if (!*s)
        return;
    char c = s[0];
    if (c >= 'A' && c <= 'Z')
        c = (char)(c - 'A' + 'a');
    buf_addc(b, c);
    buf_adds(b, s + 1);
}

/* Where a member is: its path as DynamoDB prints it beside a quoted value
 * (each member name with a lower-case first letter: "tableName",
 * "requestItems.T.member.keys") and as it prints it for a collection, in
 * the request's own casing ("RequestItems.T.member.Keys"). */
typedef struct vpath {
    const char *camel, *raw;
} vpath;

/* A value as AWS's Java prints it in a message, after its spec: a list
 * "[a, b]", a map "{k=v}", a struct "KeySchemaElement(attributeName=pk,
 * keyType=HASH)" (the members in the request's order, each with a
 * lower-case first letter); what has no spec, as value_str_buf. */
static void java_value(buf *b, const cJSON *v, const vspec *sp)
{
    bool list = sp && (sp->type == VT_LIST || sp->type == VT_PLIST) && cJSON_IsArray(v);
    bool map = sp && sp->type == VT_MAP && cJSON_IsObject(v);
    bool strct = sp && (sp->type == VT_VSTRUCT || sp->type == VT_FSTRUCT) && cJSON_IsObject(v);
    if (!list && !map && !strct) {
        value_str_buf(v, b);
        return;
    }
    buf_adds(b, list ? "[" : map ? "{" : sp->sub ? sp->sub : "");
    if (strct)
        buf_addc(b, '(');
    for (const cJSON *c = v->child; c; c = c->next) {
        if (c != v->child)
            buf_adds(b, ", ");
        const vspec *csp = list || map ? sp->elem : NULL;
        if (map) {
            buf_printf(b, "%s=", c->string);
        } else if (strct) {
            lower_first(b, c->string);
            buf_addc(b, '=');
            for (const vspec *f = sp->fields; f && f->type != VT_END; f++)
                if (strcmp(f->name, c->string) == 0)
                    csp = f;
        }
        java_value(b, c, csp);
    }
    buf_addc(b, list ? ']' : map ? '}' : ')');
}

/* "Value 'x' at 'path'" for a scalar (null: "Value null"); a list or a
 * map is not printed: "Value at 'Path'" (AWS: 101 keys in a BatchGetItem
 * answer "Value at 'RequestItems.T.member.Keys' failed to satisfy
 * constraint: ...", issue 29); sp's VF_NO_VALUE and VF_JAVA_VALUE say
 * otherwise (store_valid.h). */
static void add_err(errs *e, const cJSON *v, const vspec *sp, const vpath *at, const char *msg)
{
    if (e->n >= 10)
        return;
    if (e->n)
        buf_adds(&e->text, "; ");
    e->n++;
    bool coll = cJSON_IsArray(v) || cJSON_IsObject(v);
    if (coll && (sp->flags & VF_JAVA_VALUE)) {
        buf_adds(&e->text, "Value '");
        java_value(&e->text, v, sp);
        buf_printf(&e->text, "' at '%s' failed to satisfy constraint: %s", at->camel, msg);
        return;
    }
    if (coll || (v && !cJSON_IsNull(v) && (sp->flags & VF_NO_VALUE))) {
        buf_printf(&e->text, "Value at '%s' failed to satisfy constraint: %s", at->raw, msg);
        return;
    }
    if (!v || cJSON_IsNull(v)) {
        buf_adds(&e->text, "Value null");
    } else {
        buf_adds(&e->text, "Value '");
        value_str_buf(v, &e->text);
        buf_addc(&e->text, '\'');
    }
    buf_printf(&e->text, " at '%s' failed to satisfy constraint: %s", at->camel, msg);
}

/* A member's length: a string's in characters (the UTF-8 bytes that do
 * not continue a character), a list's or a map's in members. */
static size_t jlen(const cJSON *v)
{
    if (cJSON_IsString(v)) {
        size_t n = 0;
        for (const unsigned char *c = (const unsigned char *)v->valuestring; *c; c++)
            n += (*c & 0xC0) != 0x80;
        return n;
    }
    return (size_t)cJSON_GetArraySize(v);
}

bool store_valid_name(const char *s, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return false;
    }
    return true;
}

static bool name_ok(const char *s)
{
    return store_valid_name(s, strlen(s));
}

static void check_one(const cJSON *v, const vspec *sp, const vpath *parent, const char *key,
                      errs *e);

/* parent's path, a dot and key (lower-cased first letter in the camel
 * form) into camel and raw. */
static void path_join(buf *camel, buf *raw, const vpath *parent, const char *key)
{
    if (parent->camel && *parent->camel) {
        buf_adds(camel, parent->camel);
        buf_addc(camel, '.');
        buf_adds(raw, parent->raw);
        buf_addc(raw, '.');
    }
    lower_first(camel, key);
    buf_adds(raw, key);
}

static void check_children(const cJSON *v, const vspec *sp, const vpath *parent, const char *key,
                           errs *e)
{
    buf camel = BUF_INIT, raw = BUF_INIT;
    path_join(&camel, &raw, parent, key);
    size_t cbase = camel.len, rbase = raw.len;
    if (sp->type == VT_LIST || sp->type == VT_PLIST) {
        if (!sp->elem)
            goto out;
        int i = 1;
        for (const cJSON *c = v->child; c; c = c->next, i++) {
            camel.len = cbase;
            raw.len = rbase;
            buf_printf(&camel, ".%d", i);
            buf_printf(&raw, ".%d", i);
            check_one(c, sp->elem, &(vpath){ camel.data, raw.data }, "member", e);
        }
    } else if (sp->type == VT_MAP) {
        if (!sp->elem)
            goto out;
        for (const cJSON *c = v->child; c; c = c->next) {
            camel.len = cbase;
            raw.len = rbase;
            buf_printf(&camel, ".%s", c->string);
            buf_printf(&raw, ".%s", c->string);
            check_one(c, sp->elem, &(vpath){ camel.data, raw.data }, "member", e);
        }
    } else if (sp->type == VT_VSTRUCT || sp->type == VT_FSTRUCT) {
        for (const vspec *f = sp->fields; f && f->type != VT_END; f++)
            check_one(cJSON_GetObjectItemCaseSensitive(v, f->name), f, &(vpath){ camel.data, raw.data },
                      f->name, e);
    }
out:
    buf_done(&camel);
    buf_done(&raw);
}

/* The first constraint v breaks, into msg (cap bytes); false when none. A
 * member reports one error, its first, as DynamoDB does today (AWS: a
 * 2-character CreateTable name is one length error; an empty PutItem
 * TableName one error, not two; issue 29): not null, lengths, the map's
 * keys and values, the pattern, the bounds, the enum. */
static bool first_broken(const cJSON *v, const vspec *sp, char *msg, size_t cap)
{
    bool sized = cJSON_IsString(v) || cJSON_IsArray(v) || cJSON_IsObject(v);
    if (sp->min_len && sized && jlen(v) < (size_t)sp->min_len) {
        snprintf(msg, cap, "Member must have length greater than or equal to %d", sp->min_len);
        return true;
    }
    if (sp->max_len && sized && jlen(v) > (size_t)sp->max_len) {
        snprintf(msg, cap, "Member must have length less than or equal to %d", sp->max_len);
        return true;
    }
    if (sp->flags & VF_KEYS_TABLENAME) {
        /* BatchGetItem's and BatchWriteItem's table names or ARNs (API
         * reference: RequestItems' keys are 1 to 1024 long). */
        for (const cJSON *c = v->child; c; c = c->next) {
            size_t n = strlen(c->string);
            if (n < 1 || n > 1024) {
                snprintf(msg, cap, "Map keys must satisfy constraint: [Member must have length less than or"
                         " equal to 1024, Member must have length greater than or equal to 1]");
                return true;
            }
        }
    }
    if (sp->vmax_len) {
        for (const cJSON *c = v->child; c; c = c->next) {
            int n = cJSON_GetArraySize(c);
            if (n < sp->vmin_len || n > sp->vmax_len) {
                snprintf(msg, cap,
                         "Map value must satisfy constraint: [Member must have length less than or"
                         " equal to %d, Member must have length greater than or equal to %d]",
                         sp->vmax_len, sp->vmin_len);
                return true;
            }
        }
    }
    if (sp->flags & VF_NAMEPAT && cJSON_IsString(v) && !name_ok(v->valuestring)) {
        snprintf(msg, cap, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
        return true;
    }
    if (sp->has_ge && cJSON_IsNumber(v) && floor(v->valuedouble) < (double)sp->ge) {
        snprintf(msg, cap, "Member must have value greater than or equal to %lld", sp->ge);
        return true;
    }
    if (sp->has_le && cJSON_IsNumber(v) && floor(v->valuedouble) > (double)sp->le) {
        snprintf(msg, cap, "Member must have value less than or equal to %lld", sp->le);
        return true;
    }
    if (sp->enums && cJSON_IsString(v)) {
        for (const char *const *p = sp->enums; *p; p++)
            if (strcmp(*p, v->valuestring) == 0)
                return false;
        buf m = BUF_INIT;
        buf_adds(&m, "Member must satisfy enum value set: [");
        for (const char *const *p = sp->enums; *p; p++) {
            if (p != sp->enums)
                buf_adds(&m, ", ");
            buf_adds(&m, *p);
        }
        buf_addc(&m, ']');
        snprintf(msg, cap, "%s", m.data);
        buf_done(&m);
        return true;
    }
    return false;
}

static void check_one(const cJSON *v, const vspec *sp, const vpath *parent, const char *key,
                      errs *e)
{
    char msg[512];
    bool null = !v || cJSON_IsNull(v);
    if (e->n >= 10)
        return;
    buf camel = BUF_INIT, raw = BUF_INIT;
    path_join(&camel, &raw, parent, key);
    vpath at = { camel.data, raw.data };
    if (null) {
        if (sp->flags & VF_NOTNULL)
            add_err(e, v, sp, &at, "Member must not be null");
    } else if (first_broken(v, sp, msg, sizeof msg)) {
        add_err(e, v, sp, &at, msg);
    }
    buf_done(&camel);
    buf_done(&raw);
    if (null)
        return;
    if ((sp->type == VT_LIST || sp->type == VT_PLIST) && cJSON_IsArray(v))
        check_children(v, sp, parent, key, e);
    else if ((sp->type == VT_MAP || sp->type == VT_VSTRUCT || sp->type == VT_FSTRUCT) &&
             cJSON_IsObject(v))
        check_children(v, sp, parent, key, e);
}

/* The request's member for each field (the first of a repeated name, as
 * cJSON_GetObjectItemCaseSensitive finds it), in one pass over the
 * request's few members instead of three passes over the spec's many
 * fields: this ran on every request. */
static void members_of(const cJSON *obj, const vspec *fields, const cJSON **vals, size_t n)
{
    for (size_t i = 0; i < n; i++)
        vals[i] = NULL;
    if (!cJSON_IsObject(obj))
        return;
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (!c->string)
            continue;
        for (size_t i = 0; i < n; i++) {
            if (!vals[i] && strcmp(fields[i].name, c->string) == 0) {
                vals[i] = c;
                break;
            }
        }
    }
}

status store_valid_check(const cJSON *obj, const vspec *fields, diag *d, buf *full)
{
    size_t n = 0;
    while (fields[n].type != VT_END)
        n++;
    const cJSON *small[64], **vals = n <= 64 ? small : xmalloc(n * sizeof *vals);
    members_of(obj, fields, vals, n);
    status st = ST_OK;
    for (size_t i = 0; i < n && st == ST_OK; i++)
        st = check_type(vals[i], &fields[i], d);
    if (st != ST_OK)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const vspec *f = &fields[i];
        const cJSON *v = vals[i];
        bool null = !v || cJSON_IsNull(v);
        if (f->flags & VF_REQUIRED && null) {
            st = diag_set(d, ST_VALIDATION,
                          "The parameter '%s' is required but was not present in the request",
                          f->name);
            goto out;
        }
    }
    errs e = { 0, BUF_INIT };
    /* The members reported alone, in their rank's order; then every other
     * member's errors together. */
    bool ranked = true;
    for (int rank = 1; ranked && !e.n; rank++) {
        ranked = false;
        for (size_t i = 0; i < n && !e.n; i++) {
            if (fields[i].alone == rank) {
                ranked = true;
                check_one(vals[i], &fields[i], &(vpath){ "", "" }, fields[i].name, &e);
            }
        }
    }
    bool alone_wrong = e.n > 0;
    for (size_t i = 0; i < n && !alone_wrong; i++)
        if (!fields[i].alone)
            check_one(vals[i], &fields[i], &(vpath){ "", "" }, fields[i].name, &e);
    /* A name where a table is named (not an ARN) must be one a table can
     * have: DynamoDB Local 3.3's message, which takes ARNs too (not
     * confirmed against AWS). */
    for (size_t i = 0; i < n && !e.n; i++) {
        const cJSON *v = vals[i];
        size_t len = cJSON_IsString(v) ? strlen(v->valuestring) : 0;
        if (fields[i].flags & VF_TABLE_REF && len && strncmp(v->valuestring, "arn:", 4) != 0 &&
            (len < 3 || len > 255 || !name_ok(v->valuestring))) {
            st = diag_set(d, ST_VALIDATION, "Invalid table/index name.  Table/index names must be between 3 and"
                          " 255 characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-',"
                          " and '.'");
            goto out;
        }
    }
    if (e.n) {
        st = diag_set(d, ST_VALIDATION, "%d validation error%s detected: %s", e.n,
                      e.n > 1 ? "s" : "", e.text.data);
        if (full) {
            /* Messages quote the offending values and can outgrow diag. */
            buf_reset(full);
            buf_printf(full, "%d validation error%s detected: ", e.n, e.n > 1 ? "s" : "");
            buf_add(full, e.text.data, e.text.len);
        }
    }
    buf_done(&e.text);
out:
    if (vals != small)
        free(vals);
    return st;
}
