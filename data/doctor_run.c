/*
 * doctor_run — gathering what the doctor looks at (see doctor_run.h).
 */
#include "data/doctor_run.h"

#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

typedef struct pass {
    doctor *doc;
    ent_infer *inf;
    const ent_table *declared;
} pass;

static bool one(void *ctx, const av *item)
{
    pass *p = ctx;
    doctor_item(p->doc, p->declared, item);
    ent_infer_add(p->inf, item);
    return true;
}

/* The largest partitions of the table (index NULL) or an index. */
static status partitions(store *s, const char *table, const index_def *ix, doctor *doc,
                         const table_def *def, diag *d)
{
    const char *index = ix ? ix->name : NULL;
    table_stats ts;
    status st = store_stats(s, table, index, &ts, d);
    if (st != ST_OK)
        return st;
    part_info parts[DOCTOR_RUN_PARTITIONS];
    size_t n = 0;
    st = store_partitions_by_size(s, table, index, DOCTOR_RUN_PARTITIONS, parts, &n, d);
    for (size_t i = 0; st == ST_OK && i < n; i++) {
        doctor_partition(doc, index, &parts[i].pk, parts[i].items, parts[i].bytes, ts.items,
                         ts.bytes, ts.partitions);
        /* A table with an LSI: the item collection is the partition and
         * its LSI entries. */
        uint64_t coll = parts[i].bytes;
        bool lsi = false;
        for (size_t k = 0; !ix && k < def->n_idx; k++) {
            if (def->idx[k].global)
                continue;
            lsi = true;
            part_info pi;
            bool found = false;
            if (store_partition(s, table, def->idx[k].name, &parts[i].pk, &pi, &found, d) == ST_OK &&
                found) {
                coll += pi.bytes;
                av_done(&pi.pk);
            }
        }
        if (lsi)
            doctor_collection(doc, &parts[i].pk, coll);
    }
    for (size_t i = 0; i < n; i++)
        av_done(&parts[i].pk);
    return st;
}

status doctor_run(store *s, const char *table, const ent_table *declared,
                  const pattern_set *const *sets, size_t n_sets, uint64_t sample, double now,
                  doctor_report *out, table_read *info, diag *d)
{
    table_def def;
    status st = store_describe(s, table, &def, d);
    if (st != ST_OK)
        return st;
    char *ttl = NULL;
    diag td;
    diag_init(&td);
    if (store_ttl_get(s, table, &ttl, &td) != ST_OK)
        ttl = NULL;   /* an endpoint without TTL (dynalite): nothing to judge */
    pass p = { doctor_new(table, &def, ttl, now), ent_infer_new(&def), declared };
    st = table_read_items(s, table, sample, one, &p, info, d);
    ent_table inferred;
    ent_table_init(&inferred);
    ent_infer_finish(p.inf, info->total, info->sampled, &inferred);
    if (st == ST_OK && !info->remote) {
        st = partitions(s, table, NULL, p.doc, &def, d);
        for (size_t k = 0; st == ST_OK && k < def.n_idx; k++)
            st = partitions(s, table, &def.idx[k], p.doc, &def, d);
    }
    doctor_finish(p.doc, &inferred, declared, sets, n_sets, out);
    if (info->sampled || info->remote) {
        buf b = BUF_INIT;
        buf_printf(&b, "%s: %llu of %s%llu items read (%s)", table, (unsigned long long)info->items,
                   info->total_approx ? "about " : "", (unsigned long long)info->total,
                   info->sampled ? "a sample: per-item findings are of those only" : "all of them");
        if (info->remote)
            buf_adds(&b, "; partition sizes are not known on a remote table, so hot partitions"
                         " are not looked for");
        out->notes = xrealloc(out->notes, (out->n_notes + 1) * sizeof *out->notes);
        out->notes[out->n_notes++] = buf_steal(&b);
    }
    ent_table_done(&inferred);
    table_def_free(&def);
    free(ttl);
    return st;
}
