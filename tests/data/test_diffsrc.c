/*
 * The sides of `ddbx diff` (data/diffsrc.c) and the spool that sorts them
 * (data/spool.c).
 *
 * Where the expectations come from: the point-in-time form follows
 * RestoreTableToPointInTime's RestoreDateTime (API reference: a
 * timestamp, ISO 8601 or epoch seconds); the backup ARN form is
 * DescribeBackup's BackupArn (arn:aws:dynamodb:REGION:ACCOUNT:table/
 * TABLE/backup/ID); key order is the store's (model/keyenc). The rest is
 * ddbx's own design (diffsrc.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/diffsrc.h"
#include "data/spool.h"
#include "data/store_backup.h"
#include "model/ddbjson.h"
#include "tmpstore.h"

static diffsrc_spec parse_ok(const char *text, diffsrc_kind kind)
{
    diffsrc_spec s;
    diag d;
    diag_init(&d);
    if (diffsrc_parse(text, &s, &d) != ST_OK)
        fail_msg("%s: %s", text, d.msg);
    assert_int_equal(s.kind, kind);
    return s;
}

static void parse_bad(const char *text, const char *msg)
{
    diffsrc_spec s;
    diag d;
    diag_init(&d);
    assert_int_equal(diffsrc_parse(text, &s, &d), ST_USAGE);
    if (!strstr(d.msg, msg))
        fail_msg("%s: %s", text, d.msg);
}

static void each_form_of_a_side_parses(void **state)
{
    store *s = *state;
    (void)s;
    char file[160], db[160], text[400];
    snprintf(file, sizeof file, "%s/x.jsonl", dir);
    FILE *f = fopen(file, "w");
    fputs("{\"PK\":{\"S\":\"a\"}}\n", f);
    fclose(f);
    snprintf(db, sizeof db, "%s", path);

    diffsrc_spec p = parse_ok("Orders", DIFFSRC_TABLE);
    assert_string_equal(p.table, "Orders");
    assert_null(p.db);
    diffsrc_spec_done(&p);
    snprintf(text, sizeof text, "%s:Orders", db);
    p = parse_ok(text, DIFFSRC_TABLE);
    assert_string_equal(p.db, db);
    assert_string_equal(p.table, "Orders");
    diffsrc_spec_done(&p);
    p = parse_ok(file, DIFFSRC_FILE);
    assert_string_equal(p.path, file);
    assert_null(p.table);
    diffsrc_spec_done(&p);
    snprintf(text, sizeof text, "%s:T", file);
    p = parse_ok(text, DIFFSRC_FILE);
    assert_string_equal(p.table, "T");
    diffsrc_spec_done(&p);
    p = parse_ok("-", DIFFSRC_FILE);
    diffsrc_spec_done(&p);
    p = parse_ok("remote:Orders", DIFFSRC_REMOTE);
    assert_string_equal(p.table, "Orders");
    diffsrc_spec_done(&p);
    p = parse_ok("backup:nightly", DIFFSRC_BACKUP);
    assert_string_equal(p.backup, "nightly");
    diffsrc_spec_done(&p);
    p = parse_ok("arn:aws:dynamodb:eu-west-1:123456789012:table/Orders/backup/01700000000000-a1b2c3d4",
                 DIFFSRC_BACKUP);
    diffsrc_spec_done(&p);

    /* One moment written four ways. */
    static const char *const moments[] = { "Orders@2026-12-01T10:00:00Z", "Orders@2026-12-01T19:00:00+09:00",
                                           "Orders@2026-12-01t10:00:00z", "Orders@1796119200" };
    for (size_t i = 0; i < 4; i++) {
        p = parse_ok(moments[i], DIFFSRC_TIME);
        assert_string_equal(p.table, "Orders");
        assert_int_equal(p.at_ms, 1796119200000LL);
        diffsrc_spec_done(&p);
    }
    p = parse_ok("Orders@2026-12-01T10:00:00.250Z", DIFFSRC_TIME);
    assert_int_equal(p.at_ms, 1796119200250LL);
    diffsrc_spec_done(&p);
    snprintf(text, sizeof text, "%s:Orders@2026-12-01T05:00:00-05:00", db);
    p = parse_ok(text, DIFFSRC_TIME);
    assert_string_equal(p.db, db);
    assert_int_equal(p.at_ms, 1796119200000LL);
    diffsrc_spec_done(&p);

    parse_bad("", "an empty name");
    parse_bad("backup:", "needs the backup's name");
    parse_bad("arn:aws:dynamodb:eu-west-1:1:table/T", "is not a backup's ARN");
    parse_bad("remote:", "needs a table name");
    parse_bad("remote:T@2026-12-01T10:00:00Z", "a remote table's past is not read here");
    parse_bad("T@2026-13-01T10:00:00Z", "is not a time");
    parse_bad("T@2026-12-01T10:00Z", "is not a time");
    parse_bad("T@2026-12-01T10:00:00", "is not a time");
    parse_bad("T@2026-12-01T10:00:00+0900", "is not a time");
    parse_bad("@2026-12-01T10:00:00Z", "say which table");
    parse_bad(db, "is a database file: say which table");
    parse_bad(dir, "is a folder");
    parse_bad("no/such.jsonl", "no file no/such.jsonl");
    parse_bad("nosuch.db:T", "no file nosuch.db");
    snprintf(text, sizeof text, "%s:T@2026-12-01T10:00:00Z", file);
    parse_bad(text, "a point in time is a table's, not an export file's");
}

static void put(store *s, const char *json)
{
    av item;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item(json, strlen(json), &item, &d), ST_OK);
    if (store_put_item(s, "Tab", &item, &d) != ST_OK)
        fail_msg("%s", d.msg);
    av_done(&item);
}

static void make_table(store *s)
{
    static const char create[] =
        "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":["
        "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}";
    char *out = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_call(s, "CreateTable", create, strlen(create), &out, &d), ST_OK);
    free(out);
    /* Written out of order; N sort keys by value (2 before 10). */
    put(s, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"10\"},\"alt\":{\"S\":\"1\"}}");
    put(s, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"alt\":{\"S\":\"3\"}}");
    put(s, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"},\"alt\":{\"S\":\"2\"}}");
}

/* The sort keys of every item read, as text. */
static void read_all(diffsrc *s, char *out, size_t n, const char *attr)
{
    out[0] = '\0';
    for (;;) {
        av item;
        bool end = false;
        diag d;
        diag_init(&d);
        assert_int_equal(diffsrc_next(s, &item, &end, &d), ST_OK);
        if (end)
            break;
        const av *v = av_map_get(&item, attr, strlen(attr));
        buf b = BUF_INIT;
        av_scalar_text(v, &b);
        snprintf(out + strlen(out), n - strlen(out), "%s ", b.data);
        buf_done(&b);
        av_done(&item);
    }
}

static void a_table_reads_in_key_order_without_a_spool(void **state)
{
    make_table(*state);
    diffsrc_opts o = { .db = path };
    diffsrc_spec p = parse_ok("Tab", DIFFSRC_TABLE);
    diffsrc *s = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(diffsrc_open(&p, &o, "A", &s, &d), ST_OK);
    const table_def *def = diffsrc_def(s);
    assert_non_null(def);
    assert_string_equal(def->sk.name, "sk");
    assert_int_equal(diffsrc_start(s, &def->pk, &def->sk, NULL, NULL, &d), ST_OK);
    char got[64];
    read_all(s, got, sizeof got, "alt");
    assert_string_equal(got, "3 2 1 ");   /* (a,2) (b,2) (b,10) */
    diffsrc_stats st;
    diffsrc_get_stats(s, &st);
    assert_int_equal(st.read, 3);
    assert_int_equal(st.spooled, 0);
    diffsrc_free(s);

    /* By another key: through the spool, sorted. */
    assert_int_equal(diffsrc_open(&p, &o, "A", &s, &d), ST_OK);
    key_attr alt = { "alt", AV_S }, none = { NULL, AV_NONE };
    assert_int_equal(diffsrc_start(s, &alt, &none, NULL, NULL, &d), ST_OK);
    read_all(s, got, sizeof got, "alt");
    assert_string_equal(got, "1 2 3 ");
    diffsrc_get_stats(s, &st);
    assert_int_equal(st.spooled, 3);
    assert_true(st.sorted);
    diffsrc_free(s);
    diffsrc_spec_done(&p);
}

/* A backup reads in key order like its table, without a spool; a backup
 * name of none and a moment of no table say so. */
static void a_backup_reads_in_key_order(void **state)
{
    store *st = *state;
    make_table(st);
    diag d;
    diag_init(&d);
    assert_int_equal(store_backup_create(st, "Tab", "snap", 0, NULL, &d), ST_OK);
    put(st, "{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"1\"},\"alt\":{\"S\":\"9\"}}");
    diffsrc_opts o = { .db = path };
    diffsrc_spec p = parse_ok("backup:snap", DIFFSRC_BACKUP);
    diffsrc *s = NULL;
    assert_int_equal(diffsrc_open(&p, &o, "A", &s, &d), ST_OK);
    const table_def *def = diffsrc_def(s);
    assert_non_null(def);
    assert_int_equal(diffsrc_start(s, &def->pk, &def->sk, NULL, NULL, &d), ST_OK);
    char got[64];
    read_all(s, got, sizeof got, "alt");
    assert_string_equal(got, "3 2 1 ");   /* the put after the backup is not in it */
    diffsrc_stats sts;
    diffsrc_get_stats(s, &sts);
    assert_int_equal(sts.spooled, 0);
    diffsrc_free(s);
    diffsrc_spec_done(&p);

    p = parse_ok("backup:nightly", DIFFSRC_BACKUP);
    assert_int_equal(diffsrc_open(&p, &o, "A", &s, &d), ST_BACKUP_NOT_FOUND);
    assert_null(s);
    assert_non_null(strstr(d.msg, "A: backup:nightly: no backup of that name"));
    diffsrc_spec_done(&p);
    p = parse_ok("Nope@2026-12-01T10:00:00Z", DIFFSRC_TIME);
    assert_int_not_equal(diffsrc_open(&p, &o, "B", &s, &d), ST_OK);
    assert_non_null(strstr(d.msg, "B: no table Nope in "));
    diffsrc_spec_done(&p);
}

static void spool_sorts_and_keeps_the_last_of_a_key(void **state)
{
    spool *sp;
    diag d;
    diag_init(&d);
    assert_int_equal(spool_new(&sp, &d), ST_OK);
    static const char *const keys[] = { "c", "a", "b", "a", "ab", "a" };
    for (int i = 0; i < 6; i++) {
        av item;
        char json[64];
        snprintf(json, sizeof json, "{\"k\":{\"S\":\"%s\"},\"i\":{\"N\":\"%d\"}}", keys[i], i);
        assert_int_equal(ddbjson_parse_item(json, strlen(json), &item, &d), ST_OK);
        assert_int_equal(spool_add(sp, keys[i], strlen(keys[i]), &item, &d), ST_OK);
        av_done(&item);
    }
    assert_false(spool_in_order(sp));
    assert_int_equal(spool_count(sp), 6);
    char got[64] = "";
    uint64_t total = 0;
    for (;;) {
        av item;
        uint64_t replaced;
        bool end;
        assert_int_equal(spool_next(sp, &item, &replaced, &end, &d), ST_OK);
        if (end)
            break;
        total += replaced;
        buf b = BUF_INIT;
        av_scalar_text(av_map_get(&item, "k", 1), &b);
        buf_addc(&b, '=');
        av_scalar_text(av_map_get(&item, "i", 1), &b);
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s ", b.data);
        buf_done(&b);
        av_done(&item);
    }
    /* "a" three times: the last added (5) is the one read. */
    assert_string_equal(got, "a=5 ab=4 b=2 c=0 ");
    assert_int_equal(total, 2);
    spool_free(sp);

    /* Added in order: read back as added, no sort. */
    assert_int_equal(spool_new(&sp, &d), ST_OK);
    for (int i = 0; i < 1000; i++) {
        char k[8];
        snprintf(k, sizeof k, "%04d", i);
        av item;
        av_init_list(&item, AV_M);
        assert_int_equal(spool_add(sp, k, 4, &item, &d), ST_OK);
        av_done(&item);
    }
    assert_true(spool_in_order(sp));
    size_t n = 0;
    for (;;) {
        av item;
        uint64_t replaced;
        bool end;
        assert_int_equal(spool_next(sp, &item, &replaced, &end, &d), ST_OK);
        if (end)
            break;
        n++;
        av_done(&item);
    }
    assert_int_equal(n, 1000);
    spool_free(sp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(each_form_of_a_side_parses, setup, teardown),
        cmocka_unit_test_setup_teardown(a_table_reads_in_key_order_without_a_spool, setup, teardown),
        cmocka_unit_test_setup_teardown(a_backup_reads_in_key_order, setup, teardown),
        cmocka_unit_test_setup_teardown(spool_sorts_and_keeps_the_last_of_a_key, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
