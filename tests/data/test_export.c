/*
 * export: every format from the sample tables, and round trips: export,
 * load into a fresh database, export again as JSON lines: the same bytes
 * (canonical form), for every loadable format and every sample table
 * (every DynamoDB type occurs in them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/export.h"
#include "data/import.h"
#include "data/samples.h"
#include "data/store.h"
#include "model/buf.h"

static char dir[64];
static int seq;

static void db_name(char *out, size_t cap, const char *tag)
{
    snprintf(out, cap, "%s/%s-%d.db", dir, tag, seq++);
}

static store *open_db(const char *tag)
{
    char p[128];
    db_name(p, sizeof p, tag);
    store *s = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(p, 0, &s, &d), ST_OK);
    return s;
}

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/ddbx-export-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char p[128];
    db_name(p, sizeof p, "samples");
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(p, 0, &s, &d) != ST_OK || samples_load(s, NULL, NULL, &d) != ST_OK)
        return -1;
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static status to_buf(void *ctx, const char *p, size_t n, diag *d)
{
    buf_add(ctx, p, n);
    return ST_OK;
}

static void export_to(store *s, const char *table, const char *index, export_format f, buf *out)
{
    diag d;
    diag_init(&d);
    buf_reset(out);
    status rc = export_table(s, table, index, f, to_buf, out, NULL, &d);
    if (rc != ST_OK)
        fail_msg("export %s %s: %s", table, export_format_name(f), d.msg);
    if (!out->data)
        buf_adds(out, "");
}

/* Loads text into s (table T for formats that do not name one). */
static status load_text(store *s, const char *table, const buf *text, import_format f,
                        import_stats *st, diag *d)
{
    import_source *src = NULL;
    status rc = import_source_open_mem("export", text->data, text->len, f, &src, d);
    if (rc != ST_OK)
        return rc;
    import_store_ctx ctx;
    import_sink sink;
    import_store_sink(&ctx, s, false, &sink);
    import_opts o = { .table = table };
    rc = import_run(src, &sink, &o, st, d);
    import_source_free(src);
    return rc;
}

static void create_like(store *from, store *to, const char *table)
{
    table_def def;
    diag d;
    diag_init(&d);
    assert_int_equal(store_describe(from, table, &def, &d), ST_OK);
    assert_int_equal(store_create_table(to, &def, &d), ST_OK);
    table_def_free(&def);
}

static const char *const tables[] = { "Music", "ProfileHistory", "SocialGraph", "StudentCourses" };

static void round_trips(void **state)
{
    store *a = *state;
    const export_format fmts[] = { EXPORT_JSONL, EXPORT_S3, EXPORT_AWS_CLI, EXPORT_WORKBENCH };
    const import_format expect[] = { IMPORT_JSONL, IMPORT_S3, IMPORT_AWS_CLI, IMPORT_WORKBENCH };
    buf ref = BUF_INIT, out = BUF_INIT, again = BUF_INIT;
    for (size_t t = 0; t < 4; t++) {
        export_to(a, tables[t], NULL, EXPORT_JSONL, &ref);
        assert_true(ref.len > 0);
        for (size_t f = 0; f < 4; f++) {
            export_to(a, tables[t], NULL, fmts[f], &out);
            store *b = open_db("rt");
            if (fmts[f] != EXPORT_WORKBENCH)
                create_like(a, b, tables[t]);
            import_stats st;
            diag d;
            diag_init(&d);
            status rc = load_text(b, tables[t], &out, IMPORT_AUTO, &st, &d);
            if (rc != ST_OK)
                fail_msg("%s/%s: %s:%d:%d %s (%s)", tables[t], export_format_name(fmts[f]),
                         d.file, d.line, d.col, d.msg, d.path);
            assert_int_equal(st.format, expect[f]);
            export_to(b, tables[t], NULL, EXPORT_JSONL, &again);
            if (strcmp(ref.data, again.data) != 0)
                fail_msg("%s via %s does not round-trip", tables[t], export_format_name(fmts[f]));
            if (fmts[f] == EXPORT_WORKBENCH) {
                /* The model recreates the indexes too. */
                table_def d1, d2;
                assert_int_equal(store_describe(a, tables[t], &d1, &d), ST_OK);
                assert_int_equal(store_describe(b, tables[t], &d2, &d), ST_OK);
                assert_int_equal(d1.n_idx, d2.n_idx);
                for (size_t i = 0; i < d1.n_idx; i++) {
                    assert_string_equal(d1.idx[i].name, d2.idx[i].name);
                    assert_int_equal(d1.idx[i].proj, d2.idx[i].proj);
                }
                table_def_free(&d1);
                table_def_free(&d2);
            }
            store_close(b);
        }
    }
    buf_done(&ref);
    buf_done(&out);
    buf_done(&again);
}

/* Non-canonical input (unsorted members, "1.50", unsorted sets) comes out
 * canonical, and the canonical form is a fixed point. */
static void canonical_form(void **state)
{
    (void)state;
    store *b = open_db("canon");
    buf in = BUF_INIT, out = BUF_INIT, again = BUF_INIT;
    buf_adds(&in, "{\"z\":{\"N\":\"001.50\"},\"PK\":{\"S\":\"k\"},\"s\":{\"NS\":[\"10\",\"9\",\"-1\"]},"
                  "\"m\":{\"M\":{\"b\":{\"BOOL\":false},\"a\":{\"NULL\":true}}}}\n");
    diag d;
    diag_init(&d);
    table_def def = { 0 };
    def.name = "Canon";
    def.pk.name = "PK";
    def.pk.type = AV_S;
    assert_int_equal(store_create_table(b, &def, &d), ST_OK);
    import_stats st;
    assert_int_equal(load_text(b, "Canon", &in, IMPORT_AUTO, &st, &d), ST_OK);
    export_to(b, "Canon", NULL, EXPORT_JSONL, &out);
    assert_string_equal(out.data,
                        "{\"PK\":{\"S\":\"k\"},\"m\":{\"M\":{\"a\":{\"NULL\":true},\"b\":{\"BOOL\":false}}},"
                        "\"s\":{\"NS\":[\"-1\",\"9\",\"10\"]},\"z\":{\"N\":\"1.5\"}}\n");
    assert_int_equal(load_text(b, "Canon", &out, IMPORT_AUTO, &st, &d), ST_OK);
    export_to(b, "Canon", NULL, EXPORT_JSONL, &again);
    assert_string_equal(out.data, again.data);
    store_close(b);
    buf_done(&in);
    buf_done(&out);
    buf_done(&again);
}

static size_t lines(const buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->data[i] == '\n';
    return n;
}

static void index_export(void **state)
{
    store *a = *state;
    buf out = BUF_INIT;
    table_stats ts;
    diag d;
    diag_init(&d);
    export_to(a, "SocialGraph", "GSI1", EXPORT_JSONL, &out);
    assert_int_equal(store_stats(a, "SocialGraph", "GSI1", &ts, &d), ST_OK);
    assert_int_equal(lines(&out), ts.items);
    /* Profiles have no GSI1 keys: absent from the index. */
    assert_null(strstr(out.data, "\"SK\":{\"S\":\"PROFILE\"}"));
    /* KEYS_ONLY: no grade in the Roster export. */
    export_to(a, "StudentCourses", "Roster", EXPORT_JSONL, &out);
    assert_null(strstr(out.data, "grade"));
    assert_non_null(strstr(out.data, "enrolledOn"));
    buf_done(&out);
}

static void csv_and_plain(void **state)
{
    store *a = *state;
    buf out = BUF_INIT;
    export_to(a, "ProfileHistory", NULL, EXPORT_CSV, &out);
    /* keys first, then by name; one type each -> typed headers */
    assert_true(strncmp(out.data, "user_id:S,update_timestamp:S,changed_fields:SS,entity_type:S,"
                                  "new_state:M,source:S,version:N\r\n", 80) == 0);
    assert_int_equal(lines(&out), 11);
    export_to(a, "StudentCourses", NULL, EXPORT_CSV, &out);
    /* gpa is N in some items and NULL in another: untyped, cells in
     * DynamoDB JSON, CSV-quoted */
    assert_non_null(strstr(out.data, ",gpa,"));
    assert_non_null(strstr(out.data, "\"{\"\"N\"\":\"\"3.87\"\"}\""));
    /* an empty string is "" */
    assert_non_null(strstr(out.data, ",\"\","));

    export_to(a, "Music", NULL, EXPORT_PLAIN, &out);
    assert_int_equal(lines(&out), 14);
    assert_non_null(strstr(out.data, "\"title\":\"How Much Is The Fish?\""));
    store *b = open_db("plain");
    create_like(a, b, "Music");
    import_stats st;
    diag d;
    diag_init(&d);
    assert_int_equal(load_text(b, "Music", &out, IMPORT_AUTO, &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_PLAIN);
    assert_true(st.lossy);
    assert_int_equal(st.items, 14);
    store_close(b);
    buf_done(&out);
}

static void export_errors(void **state)
{
    store *a = *state;
    buf out = BUF_INIT;
    diag d;
    diag_init(&d);
    assert_int_equal(export_table(a, "Nope", NULL, EXPORT_JSONL, to_buf, &out, NULL, &d),
                     ST_NOT_FOUND);
    assert_int_equal(export_table(a, "Music", "Nope", EXPORT_JSONL, to_buf, &out, NULL, &d),
                     ST_VALIDATION);
    assert_int_equal(export_table(a, "Music", "GSI1", EXPORT_WORKBENCH, to_buf, &out, NULL, &d),
                     ST_USAGE);
    export_format f;
    assert_true(export_format_parse("aws-cli", &f));
    assert_int_equal(f, EXPORT_AWS_CLI);
    assert_false(export_format_parse("xml", &f));
    buf_done(&out);
}

/* A failed load leaves nothing: not its items, not the tables it made. */
static void failed_load_commits_nothing(void **state)
{
    store *a = *state;
    buf model = BUF_INIT;
    export_to(a, "Music", NULL, EXPORT_WORKBENCH, &model);
    /* Break the last item's number. */
    char *last = strstr(model.data, "\"count\":{\"N\":\"0\"}");
    assert_non_null(last);
    memcpy(last + 14, "x", 1);
    store *b = open_db("fail");
    import_stats st;
    diag d;
    diag_init(&d);
    assert_int_equal(load_text(b, NULL, &model, IMPORT_AUTO, &st, &d), ST_VALIDATION);
    assert_string_equal(d.path, "count");
    table_def def;
    assert_int_equal(store_describe(b, "Music", &def, &d), ST_NOT_FOUND);
    store_close(b);
    buf_done(&model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips),
        cmocka_unit_test(canonical_form),
        cmocka_unit_test(index_export),
        cmocka_unit_test(csv_and_plain),
        cmocka_unit_test(export_errors),
        cmocka_unit_test(failed_load_commits_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
