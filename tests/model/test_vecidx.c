/*
 * model/vecidx: a vector attribute's checks, the three scores and their
 * order (the API reference's SearchVectors: COSINE 0 identical to 2
 * opposite and EUCLIDEAN the distance, smallest first; DOT_PRODUCT
 * largest first), the k best, and the "more like this" request the
 * explorer sends (its SearchVector, TopK, the HASH value always, the
 * inline filters' when asked). The store's side is tests/data/test_vector.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/num.h"
#include "model/vecidx.h"

static vec_index index_of(void)
{
    vec_index v = { 0 };
    v.name = xstrdup("emb-idx");
    v.attr = xstrdup("emb");
    v.dims = 3;
    v.dist = VEC_COSINE;
    v.n_schema = 2;
    v.schema = xcalloc(2, sizeof *v.schema);
    v.schema[0] = (vec_attr){ xstrdup("tenant"), AV_S, true };
    v.schema[1] = (vec_attr){ xstrdup("cat"), AV_S, false };
    return v;
}

static void put_s(av *m, const char *name, const char *s)
{
    av v;
    av_init_s(&v, s, strlen(s));
    av_map_put(m, name, strlen(name), &v);
}

static void put_vec(av *m, const char *const *nums, size_t n)
{
    av l;
    av_init_list(&l, AV_L);
    for (size_t i = 0; i < n; i++) {
        num x;
        diag d;
        diag_init(&d);
        assert_int_equal(num_parse(nums[i], strlen(nums[i]), &x, &d), ST_OK);
        av e;
        av_init_n(&e, &x);
        av_list_push(&l, &e);
    }
    av_map_put(m, "emb", 3, &l);
}

static void test_vector_of_item(void **state)
{
    vec_index v = index_of();
    av item;
    av_init_list(&item, AV_M);
    float f[3];
    bool present = true;
    diag d;
    diag_init(&d);
    assert_int_equal(vec_of_item(&v, &item, f, &present, &d), ST_OK);
    assert_false(present);   /* no attribute: not in the index, no error */
    const char *ok3[] = { "0.5", "-2", "1E+2" };
    put_vec(&item, ok3, 3);
    assert_int_equal(vec_of_item(&v, &item, f, &present, &d), ST_OK);
    assert_true(present);
    assert_true(f[0] == 0.5f && f[1] == -2.0f && f[2] == 100.0f);
    const char *two[] = { "1", "2" };
    put_vec(&item, two, 2);
    assert_int_equal(vec_of_item(&v, &item, f, &present, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "One or more parameter values were invalid. Invalid size for parameter emb,"
                        " Expected: 3, Actual: 2 IndexName: emb-idx");
    const char *huge[] = { "1", "1E+100", "2" };
    put_vec(&item, huge, 3);
    assert_int_equal(vec_of_item(&v, &item, f, &present, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "One or more parameter values were invalid. Invalid type for parameter emb[1],"
                        " Expected: 32-bit floating point number, Actual: N. IndexName: emb-idx");
    av_done(&item);
    vec_index_free(&v);
}

static void test_scores(void **state)
{
    const float q[3] = { 1, 0, 0 }, same[3] = { 2, 0, 0 }, right[3] = { 0, 1, 0 }, back[3] = { -1, 0, 0 };
    const float zero[3] = { 0, 0, 0 };
    double qn = vec_norm(q, 3);
    assert_true(fabs(vec_score(VEC_COSINE, q, same, 3, qn, vec_norm(same, 3))) < 1e-9);
    assert_true(fabs(vec_score(VEC_COSINE, q, right, 3, qn, 1) - 1) < 1e-9);
    assert_true(fabs(vec_score(VEC_COSINE, q, back, 3, qn, 1) - 2) < 1e-9);
    assert_true(vec_score(VEC_COSINE, q, zero, 3, qn, 0) == 1);
    assert_true(fabs(vec_score(VEC_EUCLIDEAN, q, back, 3, 0, 0) - 2) < 1e-9);
    assert_true(vec_score(VEC_DOT_PRODUCT, q, same, 3, 0, 0) == 2);
    assert_true(vec_better(VEC_DOT_PRODUCT, 3, 1) && vec_better(VEC_COSINE, 0.1, 0.2));
    /* The unrolled loops agree with a plain one past a multiple of 8. */
    float a[19], b[19];
    double dot = 0, d2 = 0;
    for (int i = 0; i < 19; i++) {
        a[i] = (float)(i % 5) - 2;
        b[i] = (float)(i % 3) * 0.5f;
        dot += (double)a[i] * b[i];
        d2 += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    }
    assert_true(fabs(vec_dot(a, b, 19) - dot) < 1e-4);
    assert_true(fabs(vec_dist2(a, b, 19) - d2) < 1e-4);
}

static void test_topk(void **state)
{
    vec_topk t;
    vec_topk_init(&t, VEC_DOT_PRODUCT, 3);
    const double s[] = { 1, 5, 3, 5, 0, 4 };
    for (size_t i = 0; i < 6; i++)
        vec_topk_push(&t, s[i], i);
    assert_int_equal(t.n, 3);
    /* Best first; equal scores keep the earlier id first. */
    assert_true(t.id[0] == 1 && t.id[1] == 3 && t.id[2] == 5);
    vec_topk_done(&t);
    vec_topk_init(&t, VEC_EUCLIDEAN, 2);
    for (size_t i = 0; i < 6; i++)
        vec_topk_push(&t, s[i], i);
    assert_true(t.n == 2 && t.id[0] == 4 && t.id[1] == 0);
    vec_topk_done(&t);
}

static void test_similar_request(void **state)
{
    vec_index v = index_of();
    av item;
    av_init_list(&item, AV_M);
    put_s(&item, "id", "a");
    const char *ok3[] = { "1", "0", "0.5" };
    put_vec(&item, ok3, 3);
    ddb_req r;
    buf said = BUF_INIT;
    /* No HASH value: a search must name one. */
    assert_false(vec_similar_req(&v, "Docs", &item, true, 10, &r, &said));
    put_s(&item, "tenant", "t1");
    put_s(&item, "cat", "x");
    assert_true(vec_similar_req(&v, "Docs", &item, true, 10, &r, &said));
    buf body = BUF_INIT;
    ddb_req_json(&r, &body);
    assert_string_equal(body.data, "{\"TableName\":\"Docs\",\"IndexName\":\"emb-idx\",\"ExpressionAttributeNames\":"
                        "{\"#n0\":\"tenant\",\"#n1\":\"cat\"},\"ExpressionAttributeValues\":{\":v0\":{\"S\":\"t1\"},"
                        "\":v1\":{\"S\":\"x\"}},\"SearchConditionExpression\":\"#n0 = :v0 AND #n1 = :v1\","
                        "\"SearchVector\":[{\"N\":\"1\"},{\"N\":\"0\"},{\"N\":\"0.5\"}],\"TopK\":10,"
                        "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_string_equal(said.data, "tenant = t1 AND cat = x");
    ddb_req_done(&r);
    buf_reset(&said);
    assert_true(vec_similar_req(&v, "Docs", &item, false, 5, &r, &said));
    assert_string_equal(r.scond, "#n0 = :v0");
    assert_string_equal(said.data, "tenant = t1");
    ddb_req_done(&r);
    buf_done(&said);
    buf_done(&body);
    av_done(&item);
    vec_index_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_of_item),
        cmocka_unit_test(test_scores),
        cmocka_unit_test(test_topk),
        cmocka_unit_test(test_similar_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
