/*
 * pattern and jsonpos: entity types, the requests a pattern sends, the
 * verdict on a result, patterns made from requests, and finding a member
 * in JSON text. Expectations: the verdict rules of ddbx(1) ("ddbx
 * check"); a GetItem's Key and a Query's maps as the DynamoDB API
 * reference has them (GetItem takes no ExpressionAttributeValues).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jsonpos.h"
#include "model/mem.h"
#include "model/pattern.h"

static void s_val(av *v, const char *s)
{
    av_init_s(v, s, strlen(s));
}

static void put_s(av *m, const char *name, const char *s)
{
    av v;
    s_val(&v, s);
    av_map_put(m, name, strlen(name), &v);
}

static void add_param(pattern *p, const char *name, const char *example)
{
    p->params = xrealloc(p->params, (p->n_params + 1) * sizeof *p->params);
    p->params[p->n_params].name = xstrdup(name);
    s_val(&p->params[p->n_params++].example, example);
}

/* SocialGraph's rule: SK prefixes PROFILE -> user, TARGET# -> follow,
 * TARGET#star -> celebrity (longer wins). */
static void social_rules(pattern_set *s)
{
    s->rules = xcalloc(1, sizeof *s->rules);
    s->n_rules = 1;
    pattern_rule *r = &s->rules[0];
    r->table = xstrdup("SocialGraph");
    r->attr = xstrdup("SK");
    r->n = 3;
    r->prefix = xcalloc(3, sizeof *r->prefix);
    r->type = xcalloc(3, sizeof *r->type);
    r->prefix[0] = xstrdup("PROFILE");
    r->type[0] = xstrdup("user");
    r->prefix[1] = xstrdup("TARGET#");
    r->type[1] = xstrdup("follow");
    r->prefix[2] = xstrdup("TARGET#star");
    r->type[2] = xstrdup("celebrity");
}

static void item_sk(av *item, const char *sk)
{
    av_init_list(item, AV_M);
    put_s(item, "PK", "ACTOR#alice");
    put_s(item, "SK", sk);
}

static void entity_types_by_prefix(void **state)
{
    (void)state;
    pattern_set s;
    pattern_set_init(&s);
    social_rules(&s);
    av it;
    size_t len = 0;
    item_sk(&it, "TARGET#bob");
    const char *t = pattern_entity_type(&s, "SocialGraph", &it, &len);
    assert_non_null(t);
    assert_int_equal(len, 6);
    assert_memory_equal(t, "follow", 6);
    av_done(&it);
    item_sk(&it, "TARGET#star");
    t = pattern_entity_type(&s, "SocialGraph", &it, &len);
    assert_memory_equal(t, "celebrity", len);
    av_done(&it);
    item_sk(&it, "ENROLL#x");
    assert_null(pattern_entity_type(&s, "SocialGraph", &it, &len));
    assert_null(pattern_entity_type(&s, "Other", &it, &len));
    av_done(&it);
    pattern_set_done(&s);
}

static void entity_type_attribute(void **state)
{
    (void)state;
    pattern_set s;
    pattern_set_init(&s);
    s.rules = xcalloc(1, sizeof *s.rules);
    s.n_rules = 1;
    s.rules[0].table = xstrdup("Music");
    s.rules[0].attr = xstrdup("type");
    av it;
    av_init_list(&it, AV_M);
    put_s(&it, "type", "download");
    size_t len = 0;
    const char *t = pattern_entity_type(&s, "Music", &it, &len);
    assert_int_equal(len, 8);
    assert_memory_equal(t, "download", 8);
    av_done(&it);
    pattern_set_done(&s);
}

static pattern get_pattern(void)
{
    pattern p;
    pattern_init(&p);
    p.name = xstrdup("edge");
    p.op = PAT_GET;
    p.table = xstrdup("SocialGraph");
    p.keycond = xstrdup("PK = :a and #s = :b");
    av_init_list(&p.names, AV_M);
    put_s(&p.names, "#s", "SK");
    add_param(&p, "a", "ACTOR#alice");
    add_param(&p, "b", "TARGET#bob");
    return p;
}

static void getitem_key_from_condition(void **state)
{
    (void)state;
    pattern p = get_pattern();
    ddb_req req;
    diag d;
    diag_init(&d);
    av vals;
    av_init_list(&vals, AV_M);
    put_s(&vals, "b", "TARGET#carol");
    assert_int_equal(pattern_request(&p, &vals, &req, &d), ST_OK);
    assert_int_equal(req.kind, DDB_GET);
    const av *pk = av_map_get(&req.key, "PK", 2), *sk = av_map_get(&req.key, "SK", 2);
    assert_non_null(pk);
    assert_non_null(sk);
    assert_string_equal(pk->u.s.ptr, "ACTOR#alice");     /* the example */
    assert_string_equal(sk->u.s.ptr, "TARGET#carol");    /* the value given */
    assert_int_equal(req.values.type, AV_NONE);
    assert_int_equal(req.rcc, DDB_RCC_TOTAL);
    ddb_req_done(&req);
    av_done(&vals);
    free(p.keycond);
    p.keycond = xstrdup("begins_with(SK, :b)");
    assert_int_equal(pattern_request(&p, NULL, &req, &d), ST_VALIDATION);
    assert_non_null(strstr(d.msg, "KEY = :param"));
    ddb_req_done(&req);
    pattern_done(&p);
}

static void query_request_maps(void **state)
{
    (void)state;
    pattern p;
    pattern_init(&p);
    p.name = xstrdup("q");
    p.table = xstrdup("T");
    p.index = xstrdup("GSI1");
    p.keycond = xstrdup("GSI1PK = :t");
    p.limit = 7;
    p.backward = true;
    add_param(&p, "t", "TARGET#bob");
    ddb_req req;
    diag d;
    diag_init(&d);
    assert_int_equal(pattern_request(&p, NULL, &req, &d), ST_OK);
    assert_int_equal(req.kind, DDB_QUERY);
    assert_string_equal(req.index, "GSI1");
    assert_string_equal(av_map_get(&req.values, ":t", 2)->u.s.ptr, "TARGET#bob");
    assert_int_equal(req.names.type, AV_NONE);
    assert_int_equal(req.limit, 7);
    assert_true(req.backward);
    ddb_req_done(&req);
    pattern_done(&p);
}

static pattern_verdict judge(const pattern *p, const pattern_result *r, char *why, size_t n)
{
    buf b = BUF_INIT;
    pattern_verdict v = pattern_judge(p, r, &b);
    snprintf(why, n, "%s", b.data ? b.data : "");
    buf_done(&b);
    return v;
}

static void verdicts(void **state)
{
    (void)state;
    pattern_set s;
    pattern_set_init(&s);
    social_rules(&s);
    pattern p;
    pattern_init(&p);
    p.name = xstrdup("follows");
    p.table = xstrdup("SocialGraph");
    p.types = xcalloc(1, sizeof *p.types);
    p.types[0] = xstrdup("follow");
    p.n_types = 1;
    p.max_items = 2;
    p.max_units = 0.5;
    pattern_result r;
    pattern_result_init(&r);
    r.ran_as = PAT_QUERY;
    char why[600];
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_FAIL);       /* min_items 1 */
    assert_non_null(strstr(why, "returned 0 items for the example values"));
    av it;
    item_sk(&it, "TARGET#bob");
    pattern_result_add(&r, &s, &p, &it, true);
    av_done(&it);
    r.units = 0.5;
    r.scanned = 1;
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_PASS);
    assert_string_equal(why, "");
    assert_int_equal(r.n_kept, 1);
    item_sk(&it, "PROFILE");
    pattern_result_add(&r, &s, &p, &it, false);
    pattern_result_add(&r, &s, &p, &it, false);
    av_done(&it);
    r.units = 1;
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_FAIL);
    assert_non_null(strstr(why, "read 1 RCU, more than the 0.5 allowed"));
    assert_non_null(strstr(why, "returned 3 items, more than the 2 allowed"));
    assert_non_null(strstr(why, "returned 2 user items (allowed: follow)"));
    pattern_result_done(&r);

    /* A Scan fails whatever it returned; a filter that drops most warns. */
    pattern_result_init(&r);
    r.ran_as = PAT_SCAN;
    item_sk(&it, "TARGET#bob");
    pattern_result_add(&r, &s, &p, &it, false);
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_FAIL);
    assert_non_null(strstr(why, "needs a Scan: reads every item of SocialGraph"));
    r.ran_as = PAT_QUERY;
    r.scanned = 3;
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_WARN);
    assert_string_equal(why, "the filter discarded 2 of the 3 items read");
    r.scanned = 2;   /* half: not most */
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_PASS);
    pattern_result_fail(&r, "ValidationException: %s", "no index");
    assert_int_equal(judge(&p, &r, why, sizeof why), PAT_FAIL);
    assert_string_equal(why, "failed: ValidationException: no index");
    av_done(&it);
    pattern_result_done(&r);
    pattern_done(&p);
    pattern_set_done(&s);
}

static void pattern_from_requests(void **state)
{
    (void)state;
    ddb_req req;
    ddb_req_init(&req, DDB_GET);
    ddb_req_set_str(&req.table, "T");
    av_init_list(&req.key, AV_M);
    put_s(&req.key, "PK", "a");
    put_s(&req.key, "First Name", "b");
    pattern p;
    diag d;
    diag_init(&d);
    assert_int_equal(pattern_from_req(&req, "g", &p, &d), ST_OK);
    assert_int_equal(p.op, PAT_GET);
    assert_string_equal(p.keycond, "#First_Name = :First_Name AND PK = :PK");  /* map order */
    assert_string_equal(av_map_get(&p.names, "#First_Name", 11)->u.s.ptr, "First Name");
    /* And back: the same key. */
    ddb_req again;
    assert_int_equal(pattern_request(&p, NULL, &again, &d), ST_OK);
    assert_true(av_equal(&again.key, &req.key));
    ddb_req_done(&again);
    pattern_done(&p);
    ddb_req_done(&req);

    ddb_req_init(&req, DDB_PUT);
    assert_int_equal(pattern_from_req(&req, "w", &p, &d), ST_VALIDATION);
    pattern_done(&p);
    ddb_req_done(&req);
}

static void jsonpos_members(void **state)
{
    (void)state;
    const char *t = "{\"a\": [1, {\"b\": \"x\"}],\n \"c\": {\"d\": true}}";
    size_t len = strlen(t), off = 0;
    int line, col;
    jsonpos_seg p1[] = { { "a", 1, 0 }, { NULL, 0, 1 }, { "b", 1, 0 } };
    assert_true(jsonpos_find(t, len, p1, 3, &off));
    assert_int_equal(t[off], '"');
    assert_memory_equal(t + off, "\"x\"", 3);
    jsonpos_seg p2[] = { { "c", 1, 0 }, { "d", 1, 0 } };
    assert_true(jsonpos_find(t, len, p2, 2, &off));
    jsonpos_line_col(t, len, off, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 13);
    assert_true(jsonpos_find_name(t, len, p2, 2, &off));
    jsonpos_line_col(t, len, off, &line, &col);
    assert_int_equal(col, 8);
    /* An absent last member: the object that lacks it. */
    jsonpos_seg p3[] = { { "c", 1, 0 }, { "zz", 2, 0 } };
    assert_true(jsonpos_find(t, len, p3, 2, &off));
    assert_int_equal(t[off], '{');
    jsonpos_seg p4[] = { { "a", 1, 0 }, { NULL, 0, 5 } };
    assert_false(jsonpos_find(t, len, p4, 2, &off));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entity_types_by_prefix),
        cmocka_unit_test(entity_type_attribute),
        cmocka_unit_test(getitem_key_from_condition),
        cmocka_unit_test(query_request_maps),
        cmocka_unit_test(verdicts),
        cmocka_unit_test(pattern_from_requests),
        cmocka_unit_test(jsonpos_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
