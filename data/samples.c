/*
 * samples — loading the bundled sample tables (see samples.h).
 */
#include "data/samples.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "data/import.h"
#include "data/pattern_file.h"

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

status samples_write_patterns(const char *dir, buf *written, diag *d)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(d->file, sizeof d->file, "%s", dir);
        return diag_set(d, ST_IO, "cannot create the folder: %s", strerror(errno));
    }
    for (size_t i = 0; i < samples_n_pattern_assets; i++) {
        const samples_asset *a = &samples_pattern_assets[i];
        buf path = BUF_INIT;
        buf_printf(&path, "%s/%s", dir, a->name);
        status st = pattern_file_write_text(path.data, (const char *)a->data, a->len, d);
        if (st == ST_OK)
            buf_printf(written, "%s\n", path.data);
        buf_done(&path);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}
