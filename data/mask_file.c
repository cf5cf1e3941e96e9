/*
 * mask_file — reading masking rules and their key (see mask_file.h).
 */
#include "data/mask_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/jsonread.h"
#include "data/sigv4.h"
#include "model/buf.h"
#include "model/mem.h"

#define KEY_BYTES 32
#define KEY_MIN 16
#define KEY_MAX 4096

struct mask_file {
    mask *m;
    unsigned char *key;
    size_t key_len;
    char *key_path;
    bool created;
};

static void mac(void *ctx, const void *p, size_t n, unsigned char out[32])
{
    const mask_file *f = ctx;
    sigv4_hmac_sha256(f->key, f->key_len, p, n, out);
}

static bool set_action(const char *word, mask_rule *rule)
{
    return mask_action_parse(word, &rule->action);
}

static bool set_as(const char *word, mask_rule *rule)
{
    return mask_as_parse(word, &rule->as);
}

/* A rule's member v naming one of a few words (the reader at it): set
 * takes the word into the rule, false when it is none of them ("unknown
 * WHAT 'WORD' (LIST)"). */
static status read_word(jsonread *r, const cJSON *v, const char *what, const char *list,
                        bool (*set)(const char *word, mask_rule *rule), mask_rule *rule)
{
    char *word = NULL;
    status st = jsonread_string(r, v, false, &word);
    if (st == ST_OK && !set(word, rule))
        st = jsonread_fail(r, "unknown %s '%s' (%s)", what, word, list);
    free(word);
    return st;
}

/* One rule object (the reader at rules[i]). */
static status read_rule(jsonread *r, const cJSON *v, mask_rule *rule)
{
    static const char *const members[] = { "path", "name", "action", "as", "tables", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "a rule is an object: {\"path\": \"a.b\" or \"name\": \"*pattern*\", "
                             "\"action\": \"%s\"}", "hash");
    jsonread_where(r, &rule->line, &rule->col, NULL);
    status st = jsonread_members(r, v, members);
    if (st != ST_OK)
        return st;
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(v, "path");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(v, "name");
    if (!path == !name)
        return jsonread_fail(r, "a rule names its attributes by \"path\" (a.b[2].c) or by \"name\" "
                             "(a pattern such as *phone*): one of the two");
    const char *which = path ? "path" : "name";
    jsonread_push_name(r, which);
    st = jsonread_string(r, path ? path : name, false, &rule->text);
    if (st == ST_OK && path) {
        size_t at = 0;
        diag pd;
        diag_init(&pd);
        if (mask_parse_path(rule->text, &rule->path, &rule->depth, &at, &pd) != ST_OK) {
            st = jsonread_fail(r, "%s (at character %zu of the path)", pd.msg, at + 1);
            r->d->col += (int)at + 1;   /* past the opening quote, to the fault */
        }
    } else if (st == ST_OK) {
        rule->pattern = xstrdup(rule->text);
    }
    jsonread_pop(r);
    if (st != ST_OK)
        return st;

    const cJSON *action = cJSON_GetObjectItemCaseSensitive(v, "action");
    if (!action)
        return jsonread_fail(r, "a rule needs \"action\": %s", mask_action_list);
    jsonread_push_name(r, "action");
    st = read_word(r, action, "action", mask_action_list, set_action, rule);
    jsonread_pop(r);
    if (st != ST_OK)
        return st;

    const cJSON *as = cJSON_GetObjectItemCaseSensitive(v, "as");
    if (as) {
        jsonread_push_name(r, "as");
        st = rule->action != MASK_FAKE ? jsonread_fail(r, "\"as\" goes with the action fake")
                                       : read_word(r, as, "fake", mask_as_list, set_as, rule);
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
    }

    const cJSON *tables = cJSON_GetObjectItemCaseSensitive(v, "tables");
    if (!tables)
        return ST_OK;
    jsonread_push_name(r, "tables");
    if (!cJSON_IsArray(tables) || cJSON_GetArraySize(tables) == 0) {
        st = jsonread_fail(r, "must be a list of table names or patterns, not empty");
    } else {
        rule->tables = xcalloc((size_t)cJSON_GetArraySize(tables), sizeof *rule->tables);
        const cJSON *t;
        cJSON_ArrayForEach(t, tables) {
            jsonread_push_index(r, rule->n_tables);
            st = jsonread_string(r, t, false, &rule->tables[rule->n_tables]);
            jsonread_pop(r);
            if (st != ST_OK)
                break;
            rule->n_tables++;
        }
    }
    jsonread_pop(r);
    return st;
}

/* The document: the rules into f->m; *key_file the key_file member (or NULL). */
static status read_doc(jsonread *r, mask_file *f, char **key_file)
{
    static const char *const members[] = { "rules", "key_file", NULL };
    cJSON *root = NULL;
    status st = jsonread_parse(r, &root);
    if (st != ST_OK)
        return st;
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    const cJSON *kf = cJSON_GetObjectItemCaseSensitive(root, "key_file");
    if (!cJSON_IsObject(root))
        st = jsonread_fail(r, "a rules file is an object: {\"rules\": [...]}");
    else if ((st = jsonread_members(r, root, members)) != ST_OK)
        ;
    else if (!rules)
        st = jsonread_fail(r, "a rules file needs \"rules\": [...]");
    if (st == ST_OK && kf) {
        jsonread_push_name(r, "key_file");
        st = jsonread_string(r, kf, false, key_file);
        jsonread_pop(r);
    }
    if (st == ST_OK) {
        jsonread_push_name(r, "rules");
        if (!cJSON_IsArray(rules) || cJSON_GetArraySize(rules) == 0)
            st = jsonread_fail(r, "must be a list of rules, not empty");
        size_t i = 0;
        const cJSON *one;
        cJSON_ArrayForEach(one, rules) {
            if (st != ST_OK)
                break;
            mask_rule rule;
            memset(&rule, 0, sizeof rule);
            jsonread_push_index(r, i++);
            st = read_rule(r, one, &rule);
            jsonread_pop(r);
            if (st == ST_OK)
                mask_add(f->m, &rule);
            else
                mask_rule_done(&rule);
        }
        jsonread_pop(r);
    }
    cJSON_Delete(root);
    return st;
}

status mask_file_parse(const char *name, const char *text, size_t len, const void *key,
                       size_t key_len, mask_file **out, diag *d)
{
    *out = NULL;
    mask_file *f = xcalloc(1, sizeof *f);
    f->m = mask_new(mac, f);
    f->key = xmemdup(key, key_len);
    f->key_len = key_len;
    jsonread r;
    jsonread_init(&r, name, text, len, d);
    char *key_file = NULL;
    status st = read_doc(&r, f, &key_file);
    free(key_file);
    if (st != ST_OK) {
        mask_file_free(f);
        return st;
    }
    *out = f;
    return ST_OK;
}

/* dir of path (with its '/'), then name; name itself when absolute. */
static char *beside(const char *path, const char *name)
{
    if (name[0] == '/')
        return xstrdup(name);
    const char *slash = strrchr(path, '/');
    buf b = BUF_INIT;
    if (slash)
        buf_add(&b, path, (size_t)(slash - path) + 1);
    buf_adds(&b, name);
    return buf_steal(&b);
}

status mask_file_key_load(const char *path, unsigned char **key, size_t *len, bool *created, diag *d)
{
    *key = NULL;
    *len = 0;
    if (created)
        *created = false;
    int fd = open(path, O_RDONLY);
    if (fd < 0 && errno == ENOENT) {
        unsigned char k[KEY_BYTES];
        /* getentropy, not Linux's getrandom: glibc, macOS and the BSDs
         * all have it (at most 256 bytes a call). */
        if (getentropy(k, sizeof k) != 0)
            return diag_set(d, ST_IO, "%s: no random bytes for a new key: %s", path, strerror(errno));
        int w = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (w < 0 || write(w, k, sizeof k) != (ssize_t)sizeof k || close(w) != 0) {
            int e = errno;
            if (w >= 0)
                unlink(path);
            return diag_set(d, ST_IO, "%s: cannot write a new key: %s", path, strerror(e));
        }
        memset(k, 0, sizeof k);
        if (created)
            *created = true;
        fd = open(path, O_RDONLY);
    }
    if (fd < 0)
        return diag_set(d, ST_IO, "%s: cannot read the key: %s", path, strerror(errno));
    unsigned char k[KEY_MAX + 1];
    ssize_t n = read(fd, k, sizeof k);
    close(fd);
    if (n < KEY_MIN || n > KEY_MAX)
        return diag_set(d, ST_IO, "%s: a key file holds %d to %d bytes (%zd here)", path, KEY_MIN, KEY_MAX, n);
    *key = xmemdup(k, (size_t)n);
    *len = (size_t)n;
    memset(k, 0, sizeof k);
    return ST_OK;
}

/* The key's bytes from f->key_path, made first when the file is missing. */
static status load_key(mask_file *f, diag *d)
{
    unsigned char *k = NULL;
    size_t n = 0;
    status st = mask_file_key_load(f->key_path, &k, &n, &f->created, d);
    if (st != ST_OK)
        return st;
    free(f->key);
    f->key = k;
    f->key_len = n;
    return ST_OK;
}

status mask_file_load(const char *path, const char *db_path, mask_file **out, diag *d)
{
    *out = NULL;
    buf text = BUF_INIT;
    status st = jsonread_load(path, &text, d);
    mask_file *f = NULL;
    char *key_file = NULL;
    if (st == ST_OK) {
        f = xcalloc(1, sizeof *f);
        f->m = mask_new(mac, f);
        jsonread r;
        jsonread_init(&r, path, text.data ? text.data : "", text.len, d);
        st = read_doc(&r, f, &key_file);
    }
    if (st == ST_OK) {
        f->key_path = key_file ? beside(path, key_file) : beside(db_path, "mask.key");
        st = load_key(f, d);
    }
    free(key_file);
    buf_done(&text);
    if (st != ST_OK) {
        mask_file_free(f);
        return st;
    }
    *out = f;
    return ST_OK;
}

void mask_file_free(mask_file *f)
{
    if (!f)
        return;
    mask_free(f->m);
    if (f->key)
        memset(f->key, 0, f->key_len);
    free(f->key);
    free(f->key_path);
    free(f);
}

const mask *mask_file_mask(const mask_file *f)
{
    return f->m;
}

const char *mask_file_key_path(const mask_file *f)
{
    return f->key_path ? f->key_path : "";
}

bool mask_file_key_created(const mask_file *f)
{
    return f->created;
}
