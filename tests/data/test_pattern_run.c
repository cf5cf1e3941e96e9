/*
 * pattern_run and pattern_file against the samples: the shipped pattern
 * files (samples_pattern_assets) parse and every pattern passes; a
 * PartiQL SELECT is planned before it runs (Query when the WHERE fixes
 * the partition key, else Scan, as the developer guide's "PartiQL select
 * statements" page says); a run keeps its items when asked; a file
 * written back reads back the same.
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

#include "data/pattern_file.h"
#include "data/pattern_run.h"
#include "data/samples.h"
#include "data/store.h"
#include "model/mem.h"

static char db_path[64];

static int setup(void **state)
{
    snprintf(db_path, sizeof db_path, "/tmp/ddbx-patrun-%d.db", (int)getpid());
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(db_path, 0, &s, &d) != ST_OK || samples_load(s, NULL, NULL, &d) != ST_OK)
        return -1;
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char p[80];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return 0;
}

static void read_assets(pattern_set *set)
{
    pattern_set_init(set);
    assert_int_equal(samples_n_pattern_assets, 3);
    for (size_t i = 0; i < samples_n_pattern_assets; i++) {
        diag d;
        diag_init(&d);
        const samples_asset *a = &samples_pattern_assets[i];
        status st = pattern_file_parse(a->name, (const char *)a->data, a->len, set, &d);
        if (st != ST_OK)
            fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    }
}

static void shipped_patterns_pass(void **state)
{
    store *s = *state;
    pattern_set set;
    read_assets(&set);
    assert_true(set.n >= 17);
    for (size_t i = 0; i < set.n; i++) {
        pattern_result r;
        pattern_result_init(&r);
        pattern_run(s, &set, &set.p[i], NULL, false, &r);
        buf why = BUF_INIT;
        pattern_verdict v = pattern_judge(&set.p[i], &r, &why);
        if (v != PAT_PASS)
            fail_msg("%s: %s %s", set.p[i].name, pattern_verdict_name(v), why.data);
        assert_true(r.ran_as == PAT_QUERY || r.ran_as == PAT_GET);
        buf_done(&why);
        pattern_result_done(&r);
    }
    pattern_set_done(&set);
}

static void partiql_planned_before_running(void **state)
{
    store *s = *state;
    const char *text =
        "{\"patterns\": ["
        "{\"name\": \"q\", \"operation\": \"PartiQL\", \"table\": \"Music\","
        " \"statement\": \"SELECT * FROM Music WHERE PK = ?\", \"parameters\": {\"s\": {\"S\": \"s#song1\"}}},"
        "{\"name\": \"s\", \"operation\": \"PartiQL\", \"table\": \"Music\","
        " \"statement\": \"SELECT * FROM Music WHERE artist = ?\", \"parameters\": {\"a\": {\"S\": \"Scooter\"}}},"
        "{\"name\": \"g\", \"operation\": \"GetItem\", \"table\": \"Music\","
        " \"key_condition\": \"PK = :p AND SK = :s\","
        " \"parameters\": {\"p\": {\"S\": \"s#song1\"}, \"s\": {\"S\": \"A\"}}}]}";
    pattern_set set;
    pattern_set_init(&set);
    diag d;
    diag_init(&d);
    assert_int_equal(pattern_file_parse("t.json", text, strlen(text), &set, &d), ST_OK);
    buf why = BUF_INIT;
    assert_false(pattern_plans_scan(s, &set.p[0], &why));
    assert_true(pattern_plans_scan(s, &set.p[1], &why));
    assert_non_null(strstr(why.data, "needs a Scan"));
    buf_reset(&why);
    assert_false(pattern_plans_scan(s, &set.p[2], &why));
    /* A run keeps the items when asked, and counts them either way. */
    pattern_result r;
    pattern_result_init(&r);
    pattern_run(s, &set, &set.p[2], NULL, true, &r);
    assert_null(r.error);
    assert_int_equal(r.items, 1);
    assert_int_equal(r.n_kept, 1);
    assert_non_null(av_map_get(&r.kept[0], "title", 5));
    pattern_result_done(&r);
    buf_done(&why);
    pattern_set_done(&set);
}

static void written_file_reads_back(void **state)
{
    (void)state;
    pattern_set set, back;
    read_assets(&set);
    buf a = BUF_INIT, b = BUF_INIT;
    pattern_file_write(&set, &a);
    pattern_set_init(&back);
    diag d;
    diag_init(&d);
    assert_int_equal(pattern_file_parse("w.json", a.data, a.len, &back, &d), ST_OK);
    assert_int_equal(back.n, set.n);
    assert_int_equal(back.n_rules, set.n_rules);
    for (size_t i = 0; i < set.n; i++) {
        assert_string_equal(back.p[i].name, set.p[i].name);
        assert_int_equal(back.p[i].n_params, set.p[i].n_params);
        assert_true(back.p[i].max_units == set.p[i].max_units);
    }
    pattern_file_write(&back, &b);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    buf_done(&a);
    buf_done(&b);
    pattern_set_done(&set);
    pattern_set_done(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_patterns_pass),
        cmocka_unit_test(partiql_planned_before_running),
        cmocka_unit_test(written_file_reads_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
