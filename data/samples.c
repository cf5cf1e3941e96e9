/*
 * samples — loading the bundled sample tables (see samples.h).
 */
#include "data/samples.h"

#include <string.h>

#include "data/import.h"

const samples_asset *samples_find(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < samples_n_assets; i++) {
        const char *a = samples_assets[i].name;
        if (strcmp(a, name) == 0)
            return &samples_assets[i];
        if (strncmp(a, name, n) == 0 && strcmp(a + n, ".json") == 0)
            return &samples_assets[i];
    }
    return NULL;
}

status samples_load(store *s, size_t *tables, size_t *items, diag *d)
{
    size_t nt = 0, ni = 0;
    status rc = ST_OK;
    for (size_t i = 0; i < samples_n_assets && rc == ST_OK; i++) {
        const samples_asset *a = &samples_assets[i];
        import_source *src = NULL;
        rc = import_source_open_mem(a->name, a->data, a->len, IMPORT_WORKBENCH, &src, d);
        if (rc != ST_OK)
            break;
        import_store_ctx ctx;
        import_sink sink;
        import_stats st;
        import_store_sink(&ctx, s, true, &sink);
        rc = import_run(src, &sink, NULL, &st, d);
        import_source_free(src);
        nt += st.tables;
        ni += st.items;
    }
    if (tables)
        *tables = nt;
    if (items)
        *items = ni;
    return rc;
}
