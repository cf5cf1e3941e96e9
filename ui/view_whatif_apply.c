/*
 * view_whatif_apply — `:apply-index NAME` in the what-if view (see
 * cli_evolve.h): a GSI simulated on the scratch copy, made real.
 */
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/cli.h"
#include "ui/cli_evolve.h"
#include "ui/display.h"

/* "a+b" of a key's parts, parsed as the named form. */
static bool named(const key_attr *first, const key_attr *rest, size_t n_rest, keytmpl *t)
{
    buf b = BUF_INIT;
    buf_adds(&b, first->name);
    for (size_t i = 0; i < n_rest; i++)
        buf_printf(&b, "+%s", rest[i].name);
    diag d;
    diag_init(&d);
    bool ok = keytmpl_parse(b.data, "", t, &d) == ST_OK;
    if (!ok)
        display_error("The key %s cannot be applied: %s", b.data, d.msg);
    buf_done(&b);
    return ok;
}

static const index_def *find(const table_def *def, const char *name)
{
    for (size_t i = 0; i < def->n_idx; i++)
        if (strcmp(def->idx[i].name, name) == 0)
            return &def->idx[i];
    return NULL;
}

/* The reasons, "3 an attribute missing: x; 1 ...", at most three. */
static void reasons(const evolve_counts *c, buf *out)
{
    for (size_t i = 0; i < c->n_why && i < 3; i++)
        buf_printf(out, "%s%llu %s", i ? "; " : "", (unsigned long long)c->why[i].n, c->why[i].text);
    if (c->n_why > 3)
        buf_adds(out, "; ...");
}

/* Esc or Ctrl-C while counting. */
static bool interrupted(void *ctx)
{
    return display_interrupted();
}

static void counting(void *ctx, const evolve_counts *c)
{
    display_progress("Counting the items of %s: %llu read (Esc stops)...", (const char *)ctx,
                     (unsigned long long)c->read);
}

static void apply(const char *table, const index_def *ix, const char *where)
{
    keytmpl hash, range;
    memset(&range, 0, sizeof range);
    if (!named(&ix->pk, ix->pk_rest, ix->n_pk_rest, &hash))
        return;
    if (ix->sk.name && !named(&ix->sk, ix->sk_rest, ix->n_sk_rest, &range)) {
        keytmpl_done(&hash);
        return;
    }
    evolve_spec sp = { .table = table, .index = ix->name, .hash = &hash, .range = ix->sk.name ? &range : NULL,
                       .ix = ix, .where = where, .dry = true, .stop = interrupted, .progress = counting,
                       .ctx = (void *)table };
    evolve_counts c;
    evolve_counts_init(&c);
    c.hash_type = ix->pk.type;
    c.range_type = ix->sk.name ? ix->sk.type : AV_NONE;
    diag d;
    diag_init(&d);
    display_progress("Counting the items of %s that %s will hold...", table, ix->name);
    if (evolve_run(display_store(), &sp, &c, &d) != ST_OK) {
        display_diag("apply", d.code, &d);
    } else if (c.stopped) {
        display_message("Stopped after counting %llu items: nothing created", (unsigned long long)c.read);
    } else {
        buf why = BUF_INIT, q = BUF_INIT;
        reasons(&c, &why);
        buf_printf(&q, "Create GSI %s on %s itself? %llu item%s will be in it, %llu left out%s%s%s."
                   " :delete-index %s takes it back.", ix->name, table, (unsigned long long)c.gets,
                   c.gets == 1 ? "" : "s", (unsigned long long)c.left_out, why.len ? " (" : "",
                   why.len ? why.data : "", why.len ? ")" : "", ix->name);
        bool yes = display_confirm("%s", q.data);
        bool existed = false;
        if (!yes) {
            /* The question stays to be read: what would have been done. */
            display_message("Cancelled: %s", q.data);
        } else {
            display_progress("Creating GSI %s on %s and waiting for ACTIVE...", ix->name, table);
            if (evolve_create_index(display_store(), &sp, &c, 600, &existed, &d) != ST_OK) {
                display_diag("apply", d.code, &d);
            } else {
                char *db = paths_db(NULL, 0);
                char *dir = paths_patterns_dir(display_db_path() ? display_db_path() : db);
                buf log = BUF_INIT;
                buf_printf(&log, "%s/evolve.log", dir);
                evolve_log(log.data, "index", &sp, &c, NULL);
                buf_done(&log);
                free(dir);
                free(db);
                display_message("GSI %s of %s created: %llu item%s in it; ACTIVE", ix->name, table,
                                (unsigned long long)c.gets, c.gets == 1 ? "" : "s");
            }
        }
        buf_done(&why);
        buf_done(&q);
    }
    evolve_counts_done(&c);
    keytmpl_done(&hash);
    if (ix->sk.name)
        keytmpl_done(&range);
}

void evolve_apply_simulated(struct store *copy, const char *table, const char *name)
{
    table_def cd, rd;
    diag d;
    diag_init(&d);
    if (store_describe(copy, table, &cd, &d) != ST_OK) {
        display_diag("apply", d.code, &d);
        return;
    }
    const index_def *ix = find(&cd, name);
    if (!ix) {
        display_error("No GSI %s on the copy: :create-index %s PK [SK] makes one there first", name, name);
    } else if (!ix->global) {
        display_error("%s is a local secondary index: only a GSI can be added to a table", name);
    } else if (store_describe(display_store(), table, &rd, &d) != ST_OK) {
        display_diag("apply", d.code, &d);
    } else {
        if (find(&rd, name)) {
            display_error("%s has a GSI %s already", table, name);
        } else {
            store_info info;
            store_get_info(display_store(), &info);
            apply(table, ix, info.remote ? info.where : display_db_path());
        }
        table_def_free(&rd);
    }
    table_def_free(&cd);
}
