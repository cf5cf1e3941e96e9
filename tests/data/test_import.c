/*
 * import: format detection, every input format, streaming across buffer
 * boundaries, and every kind of bad input (file, line, column, item index
 * and attribute path in the diagnostic). Uses a sink that records items
 * as canonical DynamoDB JSON, so no store is involved.
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

#include "data/import.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* Records "table|item-json\n" per item and "TABLE name\n" per table. */
typedef struct rec {
    buf log;
    size_t items, tables;
    int fail_item;       /* 1-based item number the sink refuses, 0: none */
    bool ended, ended_ok;
} rec;

static status rec_table(void *ctx, const table_def *def, diag *d)
{
    rec *r = ctx;
    buf_printf(&r->log, "TABLE %s pk=%s:%s", def->name, def->pk.name, av_type_name(def->pk.type));
    if (def->sk.name)
        buf_printf(&r->log, " sk=%s:%s", def->sk.name, av_type_name(def->sk.type));
    for (size_t i = 0; i < def->n_idx; i++)
        buf_printf(&r->log, " %s%s(%s,%s,%s)", def->idx[i].global ? "G" : "L", def->idx[i].name,
                   def->idx[i].pk.name, def->idx[i].sk.name ? def->idx[i].sk.name : "-",
                   proj_type_name(def->idx[i].proj));
    buf_addc(&r->log, '\n');
    r->tables++;
    return ST_OK;
}

static status rec_item(void *ctx, const char *table, const av *item, diag *d)
{
    rec *r = ctx;
    if (r->fail_item && (int)r->items + 1 == r->fail_item) {
        r->fail_item = 0;
        snprintf(d->path, sizeof d->path, "PK");
        return diag_set(d, ST_VALIDATION, "refused by the sink");
    }
    buf_printf(&r->log, "%s|", table);
    ddbjson_write_item(&r->log, item);
    buf_addc(&r->log, '\n');
    r->items++;
    return ST_OK;
}

static status rec_end(void *ctx, bool ok, diag *d)
{
    rec *r = ctx;
    r->ended = true;
    r->ended_ok = ok;
    return ST_OK;
}

typedef struct skips {
    size_t n;
    diag last, first;
} skips;

static void on_skip(void *ctx, const diag *d)
{
    skips *s = ctx;
    if (s->n == 0)
        s->first = *d;
    s->last = *d;
    s->n++;
}

/* Runs text through a memory source; returns the status, fills r, d. */
static status run_text(const char *text, import_format fmt, bool skip_bad, rec *r,
                       skips *sk, import_stats *st, diag *d)
{
    import_source *src = NULL;
    import_sink sink = { r, NULL, rec_table, rec_item, rec_end };
    import_opts o = { .table = "T", .skip_bad = skip_bad, .on_skip = on_skip, .cb_ctx = sk };
    diag_init(d);
    status rc = import_source_open_mem("in.json", text, strlen(text), fmt, &src, d);
    if (rc != ST_OK)
        return rc;
    rc = import_run(src, &sink, &o, st, d);
    import_source_free(src);
    return rc;
}

static import_format detected(const char *text)
{
    import_source *src = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(import_source_open_mem("x", text, strlen(text), IMPORT_AUTO, &src, &d), ST_OK);
    import_format f = import_source_format(src);
    import_source_free(src);
    return f;
}

static void detects_formats(void **state)
{
    (void)state;
    assert_int_equal(detected("[{\"PK\":{\"S\":\"a\"}}]"), IMPORT_DDB_JSON);
    assert_int_equal(detected("  \n[ ]"), IMPORT_DDB_JSON);
    assert_int_equal(detected("{\"PK\":{\"S\":\"a\"}}\n{\"PK\":{\"S\":\"b\"}}\n"), IMPORT_JSONL);
    assert_int_equal(detected("{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n"), IMPORT_S3);
    assert_int_equal(detected("{\"Items\":[],\"Count\":0}"), IMPORT_AWS_CLI);
    assert_int_equal(detected("{\"Count\":0,\"Items\":[]}"), IMPORT_AWS_CLI);
    assert_int_equal(detected("{\"Music\":[{\"PutRequest\":{\"Item\":{}}}]}"), IMPORT_BATCH);
    assert_int_equal(detected("{\"ModelName\":\"m\",\"DataModel\":[]}"), IMPORT_WORKBENCH);
    assert_int_equal(detected("[{\"name\":\"x\",\"n\":1}]"), IMPORT_PLAIN);
    assert_int_equal(detected("{\"name\":\"x\"}\n"), IMPORT_PLAIN);
    assert_int_equal(detected("{\"tags\":[1,2]}\n"), IMPORT_PLAIN);
    assert_int_equal(detected("{\"a\":{\"b\":1}}\n"), IMPORT_PLAIN);
    assert_int_equal(detected("\xEF\xBB\xBF{\"Item\":{\"PK\":{\"S\":\"a\"}}}"), IMPORT_S3);
    /* arrays of S3 lines or of scan pages (as `jq -s` makes them) */
    assert_int_equal(detected("[{\"Item\":{\"PK\":{\"S\":\"a\"}}}]"), IMPORT_S3);
    assert_int_equal(detected("[{\"Items\":[]},{\"Items\":[]}]"), IMPORT_AWS_CLI);
    assert_int_equal(detected("[{\"Item\":{\"S\":\"a\"}}]"), IMPORT_DDB_JSON);
    assert_int_equal(detected("{\"Item\":{\"S\":\"a\"},\"PK\":{\"S\":\"b\"}}\n"), IMPORT_JSONL);
}

static void format_names_round_trip(void **state)
{
    (void)state;
    import_format f;
    for (int i = IMPORT_AUTO; i <= IMPORT_PLAIN; i++) {
        assert_true(import_format_parse(import_format_name((import_format)i), &f));
        assert_int_equal(f, i);
    }
    assert_false(import_format_parse("yaml", &f));
}

static void ddb_json_array_and_lines(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    assert_int_equal(run_text("[\n {\"PK\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"}},\n"
                              " {\"PK\":{\"S\":\"b]\\\"{\"}}\n]\n", IMPORT_AUTO, false, &r, &sk,
                              &st, &d), ST_OK);
    assert_int_equal(r.items, 2);
    assert_string_equal(r.log.data, "T|{\"PK\":{\"S\":\"a\"},\"n\":{\"N\":\"1.5\"}}\n"
                                    "T|{\"PK\":{\"S\":\"b]\\\"{\"}}\n");
    assert_true(r.ended && r.ended_ok);
    assert_int_equal(st.format, IMPORT_DDB_JSON);
    assert_false(st.lossy);
    buf_done(&r.log);

    /* Lines, CRLF, blank lines, several arrays one after another. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"PK\":{\"S\":\"a\"}}\r\n\r\n{\"PK\":{\"S\":\"b\"}}\n"
                              "[{\"PK\":{\"S\":\"c\"}}][]", IMPORT_JSONL, false, &r, &sk, &st,
                              &d), ST_OK);
    assert_int_equal(r.items, 3);
    assert_int_equal(st.bytes, st.total);
    buf_done(&r.log);
}

static void s3_aws_cli_batch(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    assert_int_equal(run_text("{\"Item\":{\"PK\":{\"S\":\"a\"},\"b\":{\"B\":\"AAE=\"}}}\n"
                              "{\"Item\":{\"PK\":{\"S\":\"b\"}}}\n", IMPORT_AUTO, false, &r, &sk,
                              &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_S3);
    assert_string_equal(r.log.data, "T|{\"PK\":{\"S\":\"a\"},\"b\":{\"B\":\"AAE=\"}}\n"
                                    "T|{\"PK\":{\"S\":\"b\"}}\n");
    buf_done(&r.log);

    /* Two scan pages, members in any order, LastEvaluatedKey skipped. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"Items\":[{\"PK\":{\"S\":\"a\"}}],\"Count\":1,\"ScannedCount\":1,"
                              "\"LastEvaluatedKey\":{\"PK\":{\"S\":\"a\"}}}\n"
                              "{\"Count\":2,\"Items\":[{\"PK\":{\"S\":\"b\"}},{\"PK\":{\"S\":\"c\"}}],"
                              "\"ConsumedCapacity\":null}", IMPORT_AUTO, false, &r, &sk, &st, &d),
                     ST_OK);
    assert_int_equal(st.format, IMPORT_AWS_CLI);
    assert_int_equal(r.items, 3);
    assert_string_equal(r.log.data, "T|{\"PK\":{\"S\":\"a\"}}\nT|{\"PK\":{\"S\":\"b\"}}\n"
                                    "T|{\"PK\":{\"S\":\"c\"}}\n");
    buf_done(&r.log);

    /* Pages in one array. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("[{\"Items\":[{\"PK\":{\"S\":\"a\"}}],\"Count\":1},\n"
                              " {\"Items\":[{\"PK\":{\"S\":\"b\"}}]}]", IMPORT_AUTO, false, &r, &sk,
                              &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_AWS_CLI);
    assert_string_equal(r.log.data, "T|{\"PK\":{\"S\":\"a\"}}\nT|{\"PK\":{\"S\":\"b\"}}\n");
    buf_done(&r.log);
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("[{\"Items\":[]} {\"Items\":[]}]", IMPORT_AWS_CLI, false, &r, &sk,
                              &st, &d), ST_PARSE);
    assert_non_null(strstr(d.msg, "expected ',' or ']' after a page"));
    assert_int_equal(d.col, 15);
    buf_done(&r.log);

    /* BatchWriteItem: the table comes from the file. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"Music\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"s#1\"}}}},"
                              "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"s#2\"}}}}],"
                              "\"Other \\u00e9\":[{\"PutRequest\":{\"Item\":{\"k\":{\"N\":\"7\"}}}}]}",
                              IMPORT_AUTO, false, &r, &sk, &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_BATCH);
    assert_string_equal(r.log.data, "Music|{\"PK\":{\"S\":\"s#1\"}}\nMusic|{\"PK\":{\"S\":\"s#2\"}}\n"
                                    "Other \xc3\xa9|{\"k\":{\"N\":\"7\"}}\n");
    buf_done(&r.log);
}

static void workbench_model(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    const char *model =
        "{\"ModelName\":\"m\",\"ModelMetadata\":{},\"DataModel\":["
        "{\"TableName\":\"A\",\"KeyAttributes\":{\"PartitionKey\":{\"AttributeName\":\"PK\","
        "\"AttributeType\":\"S\"},\"SortKey\":{\"AttributeName\":\"SK\",\"AttributeType\":\"N\"}},"
        "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G\",\"KeyAttributes\":{\"PartitionKey\":"
        "{\"AttributeName\":\"x\",\"AttributeType\":\"S\"}},\"Projection\":{\"ProjectionType\":"
        "\"KEYS_ONLY\"}}],\"TableData\":[{\"PK\":{\"S\":\"p\"},\"SK\":{\"N\":\"1\"}}]},"
        "{\"TableName\":\"B\",\"KeyAttributes\":{\"PartitionKey\":{\"AttributeName\":\"id\","
        "\"AttributeType\":\"B\"}},\"TableData\":[{\"id\":{\"B\":\"AA==\"}}]}]}";
    assert_int_equal(run_text(model, IMPORT_AUTO, false, &r, &sk, &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_WORKBENCH);
    assert_int_equal(st.tables, 2);
    /* Tables first, then items, each with its table. */
    assert_string_equal(r.log.data,
                        "TABLE A pk=PK:S sk=SK:N GG(x,-,KEYS_ONLY)\n"
                        "TABLE B pk=id:B\n"
                        "A|{\"PK\":{\"S\":\"p\"},\"SK\":{\"N\":\"1\"}}\n"
                        "B|{\"id\":{\"B\":\"AA==\"}}\n");
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"ModelName\":\"m\",\"DataModel\":[{\"TableName\":\"A\","
                              "\"KeyAttributes\":{\"PartitionKey\":{\"AttributeName\":\"PK\","
                              "\"AttributeType\":\"BOOL\"}}}]}", IMPORT_AUTO, false, &r, &sk,
                              &st, &d), ST_VALIDATION);
    assert_non_null(strstr(d.msg, "AttributeType must be S, N or B"));
    assert_true(r.ended && !r.ended_ok);
    buf_done(&r.log);
}

static void plain_is_lossy_but_exact(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    assert_int_equal(run_text("[{\"id\":\"a\",\"n\":12345678901234567890123456789012345678,"
                              "\"ok\":true,\"none\":null,\"l\":[1,\"x\"],\"m\":{\"k\":\"v\"}}]",
                              IMPORT_AUTO, false, &r, &sk, &st, &d), ST_OK);
    assert_int_equal(st.format, IMPORT_PLAIN);
    assert_true(st.lossy);
    assert_string_equal(r.log.data,
                        "T|{\"id\":{\"S\":\"a\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]},"
                        "\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},\"n\":{\"N\":"
                        "\"12345678901234567890123456789012345678\"},\"none\":{\"NULL\":true},"
                        "\"ok\":{\"BOOL\":true}}\n");
    buf_done(&r.log);
}

/* ---- bad input -------------------------------------------------------- */

static void broken_json_in_a_line(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    const char *text = "{\"PK\":{\"S\":\"a\"}}\n"
                       "{\"PK\":{\"S\":\"b\"}}\n"
                       "  {\"PK\":{\"S\":\"c\"}, \"x\": tru}\n"
                       "{\"PK\":{\"S\":\"d\"}}\n";
    assert_int_equal(run_text(text, IMPORT_JSONL, false, &r, &sk, &st, &d), ST_PARSE);
    assert_string_equal(d.file, "in.json");
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 25);              /* at "tru}" */
    assert_non_null(strstr(d.msg, "item 3:"));  /* the third, from 1 as lines are */
    assert_non_null(strstr(d.msg, "invalid JSON"));
    assert_true(r.ended && !r.ended_ok);      /* the sink rolls back */
    buf_done(&r.log);

    /* --skip-bad: the others load, the bad one is reported. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text(text, IMPORT_JSONL, true, &r, &sk, &st, &d), ST_OK);
    assert_int_equal(r.items, 3);
    assert_int_equal(st.skipped, 1);
    assert_int_equal(sk.n, 1);
    assert_int_equal(sk.last.line, 3);
    assert_true(r.ended && r.ended_ok);
    buf_done(&r.log);
}

static void bad_value_names_the_attribute(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    const char *text = "[{\"PK\":{\"S\":\"a\"}},\n"
                       " {\"PK\":{\"S\":\"b\"},\"tags\":{\"SS\":[\"x\",\"x\"]}},\n"
                       " {\"PK\":{\"S\":\"c\"},\"m\":{\"M\":{\"n\":{\"L\":[{\"N\":\"1e999\"}]}}}}]";
    assert_int_equal(run_text(text, IMPORT_AUTO, false, &r, &sk, &st, &d), ST_VALIDATION);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 2);
    assert_non_null(strstr(d.msg, "item 2:"));
    assert_true(strncmp(d.path, "tags", 4) == 0);
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    memset(&sk, 0, sizeof sk);
    assert_int_equal(run_text(text, IMPORT_AUTO, true, &r, &sk, &st, &d), ST_OK);
    assert_int_equal(r.items, 1);
    assert_int_equal(sk.n, 2);
    assert_true(strncmp(sk.first.path, "tags", 4) == 0);
    assert_int_equal(sk.last.line, 3);
    assert_true(strncmp(sk.last.path, "m.n[0]", 6) == 0);
    assert_non_null(strstr(sk.last.msg, "item 3:"));
    buf_done(&r.log);
}

static void truncated_and_mismatched(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    /* Truncated: the input ends inside an item. Nothing can follow. */
    assert_int_equal(run_text("[{\"PK\":{\"S\":\"a\"}},\n {\"PK\":{\"S\":\"b\"}", IMPORT_AUTO, true,
                              &r, &sk, &st, &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "2:2 is not closed"));
    assert_int_equal(r.items, 1);
    assert_true(r.ended && !r.ended_ok);
    buf_done(&r.log);

    /* A ']' closing a '{'. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"PK\":{\"S\":\"a\"}]\n", IMPORT_JSONL, true, &r, &sk, &st, &d),
                     ST_PARSE);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.col, 16);
    assert_non_null(strstr(d.msg, "unexpected ']'"));
    buf_done(&r.log);

    /* A stray delimiter where an item should start: the input is broken
     * (found by fuzzing: it used to loop on it with --skip-bad). */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"PK\":{\"S\":\"a\"}},\n{\"PK\":{\"S\":\"b\"}}\n", IMPORT_JSONL, true,
                              &r, &sk, &st, &d), ST_PARSE);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.col, 17);
    assert_non_null(strstr(d.msg, "unexpected ','"));
    buf_done(&r.log);

    /* A missing comma between array elements. */
    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("[{\"PK\":{\"S\":\"a\"}}\n {\"PK\":{\"S\":\"b\"}}]", IMPORT_AUTO,
                              false, &r, &sk, &st, &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 2);
    assert_non_null(strstr(d.msg, "expected ','"));
    buf_done(&r.log);
}

static void wrong_shapes(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    /* An array element that is not an object. */
    assert_int_equal(run_text("[1, {\"PK\":{\"S\":\"a\"}}]", IMPORT_DDB_JSON, true, &r, &sk, &st,
                              &d), ST_OK);
    assert_int_equal(r.items, 1);
    assert_int_equal(sk.n, 1);
    assert_non_null(strstr(sk.last.msg, "not a JSON object"));
    buf_done(&r.log);

    /* S3 line without Item; batch DeleteRequest; a batch value that is not
     * an array. */
    memset(&r, 0, sizeof r);
    memset(&sk, 0, sizeof sk);
    assert_int_equal(run_text("{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Itme\":{}}\n", IMPORT_S3, false,
                              &r, &sk, &st, &d), ST_VALIDATION);
    assert_int_equal(d.line, 2);
    assert_non_null(strstr(d.msg, "no \"Item\""));
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"T\":[{\"DeleteRequest\":{\"Key\":{}}}]}", IMPORT_BATCH, false,
                              &r, &sk, &st, &d), ST_VALIDATION);
    assert_non_null(strstr(d.msg, "DeleteRequest is not supported"));
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"T\":{\"PutRequest\":{}}}", IMPORT_BATCH, false, &r, &sk, &st,
                              &d), ST_PARSE);
    assert_non_null(strstr(d.msg, "must be an array"));
    assert_int_equal(d.col, 6);
    buf_done(&r.log);

    /* A sink refusal carries the item's place: its line, and its number
     * counted from 1 as lines are (issue 27, 11: it said "item 1" for the
     * second item, on line 2). */
    memset(&r, 0, sizeof r);
    r.fail_item = 2;
    assert_int_equal(run_text("{\"PK\":{\"S\":\"a\"}}\n{\"PK\":{\"S\":\"b\"}}\n", IMPORT_JSONL,
                              false, &r, &sk, &st, &d), ST_VALIDATION);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 1);
    assert_string_equal(d.path, "PK");
    assert_non_null(strstr(d.msg, "item 2: refused"));
    buf_done(&r.log);
}

/* Text cJSON would accept but change is refused, with its place:
 * invalid UTF-8, a raw NUL, a \u0000 escape (cJSON would cut the string). */
static void text_cjson_would_change(void **state)
{
    (void)state;
    rec r = { 0 };
    skips sk = { 0 };
    import_stats st;
    diag d;
    assert_int_equal(run_text("{\"PK\":{\"S\":\"a\"}}\n{\"PK\":{\"S\":\"b\x9e\"}}\n", IMPORT_JSONL,
                              false, &r, &sk, &st, &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 14);
    assert_non_null(strstr(d.msg, "invalid UTF-8"));
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    assert_int_equal(run_text("{\"Item\":{\"PK\":{\"S\":\"a\\\\u0000\"},\"x\":{\"S\":\"b\\u0000c\"}}}",
                              IMPORT_S3, false, &r, &sk, &st, &d), ST_PARSE);
    assert_int_equal(d.col, 43);
    assert_non_null(strstr(d.msg, "\\u0000"));
    buf_done(&r.log);

    memset(&r, 0, sizeof r);
    const char nul[] = "[{\"PK\":{\"S\":\"a\0b\"}}]";
    import_source *src = NULL;
    import_sink sink = { &r, NULL, rec_table, rec_item, rec_end };
    import_opts o = { .table = "T" };
    diag_init(&d);
    assert_int_equal(import_source_open_mem("nul.json", nul, sizeof nul - 1, IMPORT_AUTO, &src, &d),
                     ST_OK);
    assert_int_equal(import_run(src, &sink, &o, &st, &d), ST_PARSE);
    assert_non_null(strstr(d.msg, "NUL byte"));
    assert_int_equal(d.col, 15);
    import_source_free(src);
    buf_done(&r.log);
}

/* A file bigger than the read buffer: elements straddle refills, line
 * numbers stay right, and the reported bytes reach the file size. */
static void streams_a_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ddbx-import-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    const int n = 30000;
    for (int i = 0; i < n; i++)
        fprintf(fp, "{\"PK\":{\"S\":\"user#%06d\"},\"note\":{\"S\":\"line %d has \\\"quotes\\\" "
                    "and ]} brackets\"},\"n\":{\"N\":\"%d\"}}\n", i, i + 1, i);
    fprintf(fp, "{\"PK\":{\"S\":\"last\"},\"bad\":{\"N\":\"x\"}}\n");
    fclose(fp);

    import_source *src = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(import_source_open(path, IMPORT_AUTO, &src, &d), ST_OK);
    assert_int_equal(import_source_format(src), IMPORT_JSONL);
    rec r = { 0 };
    skips sk = { 0 };
    import_sink sink = { &r, NULL, rec_table, rec_item, rec_end };
    import_opts o = { .table = "T", .skip_bad = true, .on_skip = on_skip, .cb_ctx = &sk };
    import_stats st;
    assert_int_equal(import_run(src, &sink, &o, &st, &d), ST_OK);
    assert_int_equal(r.items, (size_t)n);
    assert_int_equal(sk.n, 1);
    assert_int_equal(sk.last.line, n + 1);
    assert_string_equal(sk.last.path, "bad");
    assert_true(st.total > 256 * 1024);
    assert_int_equal(st.bytes, st.total);
    import_source_free(src);
    buf_done(&r.log);
    unlink(path);

    assert_int_equal(import_source_open("/nonexistent/x.json", IMPORT_AUTO, &src, &d), ST_IO);
    assert_string_equal(d.file, "/nonexistent/x.json");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(detects_formats),
        cmocka_unit_test(format_names_round_trip),
        cmocka_unit_test(ddb_json_array_and_lines),
        cmocka_unit_test(s3_aws_cli_batch),
        cmocka_unit_test(workbench_model),
        cmocka_unit_test(plain_is_lossy_but_exact),
        cmocka_unit_test(broken_json_in_a_line),
        cmocka_unit_test(bad_value_names_the_attribute),
        cmocka_unit_test(truncated_and_mismatched),
        cmocka_unit_test(wrong_shapes),
        cmocka_unit_test(text_cjson_would_change),
        cmocka_unit_test(streams_a_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
