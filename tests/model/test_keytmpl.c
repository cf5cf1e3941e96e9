/*
 * Key templates of `ddbx evolve` (model/keytmpl.h): parsing with error
 * positions, and the value each item gets or why it gets none. The key
 * rules are DynamoDB's: a key attribute is S, N or B (developer guide,
 * "Core components: primary key"), a string key is not empty, a partition
 * key is at most 2048 bytes and a sort key 1024 ("Service, account, and
 * table quotas", read 2026-12).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/keytmpl.h"
#include "model/mem.h"

static av item(const char *json)
{
    av it;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item(json, strlen(json), &it, &d), ST_OK);
    return it;
}

/* Applies text to json: the answer, and the value's text or the path. */
static keytmpl_why run(const char *text, const char *json, bool pk, buf *out)
{
    keytmpl t;
    diag d;
    diag_init(&d);
    assert_int_equal(keytmpl_parse(text, "GSI1PK", &t, &d), ST_OK);
    av it = item(json), v;
    buf where = BUF_INIT;
    av_type ty = AV_NONE;
    buf_reset(out);
    keytmpl_why w = keytmpl_apply(&t, &it, pk, &v, &where, &ty);
    if (w == KEYTMPL_OK) {
        buf_printf(out, "%s:", av_type_name(v.type));
        av_scalar_text(&v, out);
        av_done(&v);
    } else {
        buf_printf(out, "%s%s%s", where.data ? where.data : "", ty ? " " : "", ty ? av_type_name(ty) : "");
    }
    buf_done(&where);
    av_done(&it);
    keytmpl_done(&t);
    return w;
}

static void glued_text_and_attributes(void **state)
{
    buf b = BUF_INIT;
    assert_int_equal(run("STATUS#${status}", "{\"status\":{\"S\":\"open\"}}", true, &b), KEYTMPL_OK);
    assert_string_equal(b.data, "S:STATUS#open");
    assert_int_equal(run("${tenant}#${n}", "{\"tenant\":{\"S\":\"t1\"},\"n\":{\"N\":\"012.50\"}}", true, &b),
                     KEYTMPL_OK);
    assert_string_equal(b.data, "S:t1#12.5");
    assert_int_equal(run("${address.city}", "{\"address\":{\"M\":{\"city\":{\"S\":\"Oslo\"}}}}", true, &b),
                     KEYTMPL_OK);
    assert_string_equal(b.data, "S:Oslo");
    assert_int_equal(run("$$${a}", "{\"a\":{\"S\":\"x\"}}", true, &b), KEYTMPL_OK);
    assert_string_equal(b.data, "S:$x");
    buf_done(&b);
}

static void one_reference_keeps_its_type(void **state)
{
    buf b = BUF_INIT;
    assert_int_equal(run("${n}", "{\"n\":{\"N\":\"7\"}}", false, &b), KEYTMPL_OK);
    assert_string_equal(b.data, "N:7");
    assert_int_equal(run("${b}", "{\"b\":{\"B\":\"AAE=\"}}", false, &b), KEYTMPL_OK);
    assert_string_equal(b.data, "B:AAE=");
    buf_done(&b);
}

static void reasons_for_no_value(void **state)
{
    buf b = BUF_INIT;
    assert_int_equal(run("S#${status}", "{\"x\":{\"S\":\"a\"}}", true, &b), KEYTMPL_MISSING);
    assert_string_equal(b.data, "status");
    assert_int_equal(run("${address.city}", "{\"address\":{\"S\":\"flat\"}}", true, &b), KEYTMPL_MISSING);
    assert_string_equal(b.data, "address.city");
    assert_int_equal(run("S#${flag}", "{\"flag\":{\"BOOL\":true}}", true, &b), KEYTMPL_TYPE);
    assert_string_equal(b.data, "flag BOOL");
    /* B cannot be glued into text, but alone it is a key. */
    assert_int_equal(run("x${b}", "{\"b\":{\"B\":\"AAE=\"}}", true, &b), KEYTMPL_TYPE);
    assert_int_equal(run("${s}", "{\"s\":{\"S\":\"\"}}", true, &b), KEYTMPL_EMPTY);
    buf big = BUF_INIT;
    buf_adds(&big, "{\"s\":{\"S\":\"");
    for (int i = 0; i < 1100; i++)
        buf_addc(&big, 'a');
    buf_adds(&big, "\"}}");
    assert_int_equal(run("${s}", big.data, true, &b), KEYTMPL_OK);      /* 1100 <= 2048 */
    assert_int_equal(run("${s}", big.data, false, &b), KEYTMPL_TOO_LONG); /* 1100 > 1024 */
    buf_done(&big);
    buf_done(&b);
}

static void named_attributes(void **state)
{
    buf b = BUF_INIT;
    keytmpl t;
    diag d;
    diag_init(&d);
    assert_int_equal(keytmpl_parse("tenant+date", "X", &t, &d), ST_OK);
    assert_true(keytmpl_named(&t));
    assert_int_equal(t.n_names, 2);
    assert_string_equal(t.names[1], "date");
    keytmpl_done(&t);
    assert_int_equal(run("tenant+date", "{\"tenant\":{\"S\":\"t\"}}", true, &b), KEYTMPL_MISSING);
    assert_string_equal(b.data, "date");
    assert_int_equal(run("tenant+date", "{\"tenant\":{\"S\":\"t\"},\"date\":{\"N\":\"2\"}}", true, &b),
                     KEYTMPL_OK);
    buf_done(&b);
}

static void the_attribute_written(void **state)
{
    keytmpl t;
    diag d;
    diag_init(&d);
    assert_int_equal(keytmpl_parse("ByStatus=STATUS#${status}", "GSI1PK", &t, &d), ST_OK);
    assert_string_equal(t.attr, "ByStatus");
    assert_int_equal(t.n, 2);
    assert_string_equal(t.parts[0].lit, "STATUS#");
    keytmpl_done(&t);
    assert_int_equal(keytmpl_parse("A=B#${x}", "GSI1PK", &t, &d), ST_OK);
    assert_string_equal(t.attr, "A");
    keytmpl_done(&t);
    assert_int_equal(keytmpl_parse("STATUS#${status}", "GSI1PK", &t, &d), ST_OK);
    assert_string_equal(t.attr, "GSI1PK");
    keytmpl_done(&t);
}

/* Each error says what and where (0-based byte). */
static void errors_have_positions(void **state)
{
    static const struct {
        const char *text;
        long pos;
        const char *says;
    } bad[] = {
        { "S#${status", 2, "not closed" },
        { "S#${}", 2, "empty ${}" },
        { "${a..b}", 4, "empty name" },
        { "${a b}", 3, "' '" },
        { "S#$x", 2, "lone $" },
        { "a+", 2, "empty attribute name" },
        { "a b", 1, "' '" },
        { "", 0, "empty template" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        keytmpl t;
        diag d;
        diag_init(&d);
        assert_int_equal(keytmpl_parse(bad[i].text, "X", &t, &d), ST_PARSE);
        if (d.pos != bad[i].pos || !strstr(d.msg, bad[i].says))
            fail_msg("%s: pos %ld msg %s", bad[i].text, d.pos, d.msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(glued_text_and_attributes),
        cmocka_unit_test(one_reference_keeps_its_type),
        cmocka_unit_test(reasons_for_no_value),
        cmocka_unit_test(named_attributes),
        cmocka_unit_test(the_attribute_written),
        cmocka_unit_test(errors_have_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
