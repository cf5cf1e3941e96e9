/*
 * schema_cmds — the `:` commands that change a table's definition from the
 * explorer: `:create-index`, `:delete-index` (UpdateTable's
 * GlobalSecondaryIndexUpdates) and `:ttl` (UpdateTimeToLive). Each says
 * what it will do and asks before it writes; the view on screen is then
 * reloaded, so a new index joins the `i` cycle and a deleted one leaves it.
 * The store calls are typed (data/store.h); nothing here is kept.
 */
#include "ui/schema_cmds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/undo.h"

static bool is_word(const char *word, const char *name)
{
    for (; *word && *name; word++, name++)
        if (*word != *name && !(*word == '-' && *name == '_'))
            return false;
    return *word == *name;
}

/* "NAME[:S|N|B]" into k (name malloc'd); false with a message when the
 * type is not one of the three. */
static bool key_arg(const char *arg, key_attr *k)
{
    const char *colon = strrchr(arg, ':');
    const char *type = colon ? colon + 1 : "S";
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    if (n == 0 || (strcmp(type, "S") != 0 && strcmp(type, "N") != 0 && strcmp(type, "B") != 0)) {
        display_error("A key is NAME or NAME:S, NAME:N, NAME:B, not '%s'", arg);
        return false;
    }
    k->name = xstrndup(arg, n);
    k->type = av_type_from_name(type, 1);
    return true;
}

/* One side of an index key: NAME[:TYPE], or a multi-attribute key's
 * parts joined by '+' (a:S+b:N, up to SCHEMA_MAX_KEY_PARTS), the first
 * into k, the others into rest. */
static bool keys_arg(const char *arg, key_attr *k, key_attr *rest, size_t *n_rest)
{
    *n_rest = 0;
    size_t parts = 1;
    for (const char *c = arg; *c; c++)
        parts += *c == '+';
    if (parts > SCHEMA_MAX_KEY_PARTS) {
        display_error("A key has at most %d attributes (a+b+c+d), not %zu: '%s'", SCHEMA_MAX_KEY_PARTS,
                      parts, arg);
        return false;
    }
    char *copy = xstrdup(arg), *save = NULL;
    bool ok = true;
    size_t i = 0;
    for (char *part = strtok_r(copy, "+", &save); part && ok; part = strtok_r(NULL, "+", &save), i++) {
        ok = key_arg(part, i ? &rest[i - 1] : k);
        if (ok && i)
            *n_rest = i;
    }
    if (ok && i != parts) {
        display_error("A key is NAME or NAME:S, NAME:N, NAME:B, its parts joined by +, not '%s'", arg);
        ok = false;
    }
    free(copy);
    return ok;
}

/* --projection ALL|KEYS_ONLY|INCLUDE:a,b into ix. */
static bool projection_arg(const char *arg, index_def *ix)
{
    if (strcmp(arg, "ALL") == 0) {
        ix->proj = PROJ_ALL;
        return true;
    }
    if (strcmp(arg, "KEYS_ONLY") == 0) {
        ix->proj = PROJ_KEYS_ONLY;
        return true;
    }
    if (strncmp(arg, "INCLUDE:", 8) != 0 || !arg[8]) {
        display_error("--projection is ALL, KEYS_ONLY or INCLUDE:a,b, not '%s'", arg);
        return false;
    }
    ix->proj = PROJ_INCLUDE;
    char *names = xstrdup(arg + 8);
    for (char *save = NULL, *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        ix->include = xrealloc(ix->include, (ix->n_include + 1) * sizeof *ix->include);
        ix->include[ix->n_include++] = xstrdup(t);
    }
    free(names);
    return true;
}

void schema_index_done(index_def *ix)
{
    free(ix->name);
    free((char *)ix->pk.name);
    free((char *)ix->sk.name);
    for (size_t i = 0; i < ix->n_pk_rest; i++)
        free((char *)ix->pk_rest[i].name);
    for (size_t i = 0; i < ix->n_sk_rest; i++)
        free((char *)ix->sk_rest[i].name);
    for (size_t i = 0; i < ix->n_include; i++)
        free(ix->include[i]);
    free(ix->include);
}

bool schema_parse_index(int argc, char **argv, index_def *ix)
{
    memset(ix, 0, sizeof *ix);
    ix->global = true;
    ix->proj = PROJ_ALL;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--projection") == 0 && i + 1 < argc) {
            if (!projection_arg(argv[++i], ix))
                return false;
        } else if (strncmp(argv[i], "--projection=", 13) == 0) {
            if (!projection_arg(argv[i] + 13, ix))
                return false;
        } else if (pos == 0) {
            ix->name = xstrdup(argv[i]);
            pos++;
        } else if (pos == 1 || pos == 2) {
            if (pos == 1 ? !keys_arg(argv[i], &ix->pk, ix->pk_rest, &ix->n_pk_rest)
                         : !keys_arg(argv[i], &ix->sk, ix->sk_rest, &ix->n_sk_rest))
                return false;
            pos++;
        } else {
            pos++;
        }
    }
    if (pos < 2 || pos > 3) {
        display_error("usage: :create-index NAME PK[:S|N|B][+PK2...] [SK[:TYPE][+SK2...]] [--projection ALL|KEYS_ONLY|INCLUDE:a,b]");
        return false;
    }
    return true;
}

/* display_confirm, and on a no the question stays on the status line, so
 * what would have been written is still there to read. */
static bool ask(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool ask(const char *fmt, ...)
{
    char q[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q, sizeof q, fmt, ap);
    va_end(ap);
    bool yes = display_confirm("%s", q);
    if (!yes)
        display_message("Cancelled: %s", q);
    return yes;
}

static void reload(view *v)
{
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}

static void create_index(view *v, const char *table, int argc, char **argv)
{
    index_def ix;
    if (!schema_parse_index(argc, argv, &ix)) {
        schema_index_done(&ix);
        return;
    }
    table_stats ts = { 0 };
    diag d;
    diag_init(&d);
    store_stats(display_store(), table, NULL, &ts, &d);
    buf keys = BUF_INIT;
    for (size_t i = 0; i < index_def_n_hash(&ix); i++)
        buf_printf(&keys, "%s%s:%s", i ? "+" : "", index_def_hash(&ix, i)->name,
                   av_type_name(index_def_hash(&ix, i)->type));
    for (size_t i = 0; i < index_def_n_range(&ix); i++)
        buf_printf(&keys, "%s%s:%s", i ? "+" : ", ", index_def_range(&ix, i)->name,
                   av_type_name(index_def_range(&ix, i)->type));
    if (ask("Create GSI %s (%s, %s) on %s from its %llu item%s?", ix.name, keys.data,
            proj_type_name(ix.proj), table, (unsigned long long)ts.items, ts.items == 1 ? "" : "s")) {
        status st = store_create_index(display_store(), table, &ix, &d);
        if (st != ST_OK) {
            display_diag(NULL, st, &d);
        } else {
            table_stats is = { 0 };
            store_stats(display_store(), table, ix.name, &is, &d);
            reload(v);
            display_message("GSI %s created, backfilled: %llu of %llu item%s in it; ACTIVE (i shows it)",
                            ix.name, (unsigned long long)is.items, (unsigned long long)ts.items,
                            ts.items == 1 ? "" : "s");
        }
    }
    buf_done(&keys);
    schema_index_done(&ix);
}

static void delete_index(view *v, const char *table, const char *name)
{
    diag d;
    diag_init(&d);
    /* What the store would refuse is said before anything is asked. */
    status st = store_delete_index_check(display_store(), table, name, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    undo_guard g;
    undo_guard_init(&g);
    g.no_undo = true;
    undo_guard_add(&g, table);
    bool yes = ask("Delete GSI %s of %s? Its entries go; the table's items stay. %s", name, table,
                   undo_guard_says(&g)) && undo_guard_take(&g);
    undo_guard_done(&g);
    if (!yes)
        return;
    st = store_delete_index(display_store(), table, name, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    reload(v);
    display_message("GSI %s of %s deleted", name, table);
}

static void ttl(view *v, const char *table, const char *arg)
{
    diag d;
    diag_init(&d);
    char *now = NULL;
    status st = store_ttl_get(display_store(), table, &now, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    if (!arg) {
        if (now)
            display_message("TTL of %s: ENABLED on %s (items whose %s is a past epoch time are deleted)",
                            table, now, now);
        else
            display_message("TTL of %s: DISABLED (:ttl ATTR enables it)", table);
    } else if (strcmp(arg, "off") == 0) {
        if (!now)
            display_message("TTL of %s is already disabled", table);
        else if (ask("Disable TTL on %s (attribute %s)? Expired items then stay.", table, now)) {
            if ((st = store_ttl_set(display_store(), table, NULL, &d)) != ST_OK)
                display_diag(NULL, st, &d);
            else {
                reload(v);
                display_message("TTL of %s disabled", table);
            }
        }
    } else if ((st = store_ttl_check(display_store(), table, arg, &d)) != ST_OK) {
        /* What UpdateTimeToLive would refuse (a name of no characters,
         * TTL enabled already) is said before anything is asked. */
        buf what = BUF_INIT;
        if (now)
            buf_printf(&what, "TTL of %s is ENABLED on %s (:ttl off first)", table, now);
        display_diag(what.data, st, &d);
        buf_done(&what);
    } else if (ask("Enable TTL on %s with attribute %s? Items whose %s is a Number of epoch"
                               " seconds in the past will be deleted.", table, arg, arg)) {
        if ((st = store_ttl_set(display_store(), table, arg, &d)) != ST_OK)
            display_diag(NULL, st, &d);
        else {
            reload(v);
            display_message("TTL of %s enabled on %s", table, arg);
        }
    }
    free(now);
}

bool schema_command(view *v, int argc, char **argv)
{
    const char *c = argv[0];
    bool create = is_word(c, "create_index"), del = is_word(c, "delete_index"), t = is_word(c, "ttl");
    if (!create && !del && !t)
        return false;
    cond_arg a = { 0 };
    if (v->ops->context)
        v->ops->context(v, &a);
    if (!a.table) {
        display_error(":%s works on a table: open one first", c);
        return true;
    }
    if (create)
        create_index(v, a.table, argc, argv);
    else if (del && argc == 2)
        delete_index(v, a.table, argv[1]);
    else if (del)
        display_error("usage: :delete-index NAME");
    else if (argc <= 2)
        ttl(v, a.table, argc == 2 ? argv[1] : NULL);
    else
        display_error("usage: :ttl [ATTR|off]");
    return true;
}
