/*
 * Model files and price files (data/model_file.h, data/price_file.h): a
 * model written and read back is written the same; a person's edits
 * (names, templates, required) are read; errors name the file, line,
 * column and member; the shipped price file loads, with each region's
 * date and source, and the prices it does not know are unknown (NAN).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "data/model_file.h"
#include "data/price_file.h"
#include "model/ddbjson.h"
#include "model/mem.h"

static const char model_text[] =
    "{\n"
    "  \"ddbx_model\": 1,\n"
    "  \"tables\": {\n"
    "    \"SocialGraph\": {\n"
    "      \"key\": {\"partition\": {\"PK\": \"S\"}, \"sort\": {\"SK\": \"S\"}},\n"
    "      \"indexes\": {\n"
    "        \"GSI1\": {\"kind\": \"GSI\", \"partition\": {\"GSI1PK\": \"S\"}, \"sort\": {\"GSI1SK\": \"S\"}, \"projection\": \"ALL\"}\n"
    "      },\n"
    "      \"read\": {\"items\": 3, \"of\": 3, \"sampled\": false},\n"
    "      \"entities\": {\n"
    "        \"edge\": {\n"
    "          \"keys\": {\"PK\": \"ACTOR#{id}\", \"SK\": \"TARGET#{id}\"},\n"
    "          \"items\": 2, \"bytes\": 200, \"max_bytes\": 100, \"write_units\": 2,\n"
    "          \"indexes\": {\n"
    "            \"GSI1\": {\"keys\": {\"GSI1PK\": \"TARGET#{id}\", \"GSI1SK\": \"ACTOR#{id}\"}, \"items\": 2, \"write_units\": 2}\n"
    "          },\n"
    "          \"attributes\": {\n"
    "            \"followedAt\": {\"types\": {\"S\": 2}, \"items\": 2, \"share\": 1, \"required\": true}\n"
    "          }\n"
    "        },\n"
    "        \"profile\": {\n"
    "          \"keys\": {\"PK\": \"ACTOR#{id}\", \"SK\": \"PROFILE\"},\n"
    "          \"items\": 1, \"bytes\": 50, \"max_bytes\": 50, \"write_units\": 1,\n"
    "          \"attributes\": {}\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

static void a_model_reads_and_writes_back_the_same(void **state)
{
    (void)state;
    ent_model m;
    ent_model_init(&m);
    diag d;
    diag_init(&d);
    assert_int_equal(model_file_parse("m.json", model_text, strlen(model_text), &m, &d), ST_OK);
    assert_int_equal(m.n, 1);
    const ent_table *t = ent_model_table(&m, "SocialGraph");
    assert_non_null(t);
    assert_int_equal(t->n, 2);
    const ent_entity *e = ent_table_entity(t, "edge");
    assert_string_equal(e->sk_tmpl, "TARGET#{id}");
    assert_int_equal(e->idx[0].count, 2);
    assert_true(entity_attr(e, "followedAt")->required);
    buf b = BUF_INIT;
    model_file_write(&m, &b);
    assert_string_equal(b.data, model_text);
    /* And matching through it. */
    av it;
    const char *key = "{\"PK\":{\"S\":\"ACTOR#a\"},\"SK\":{\"S\":\"PROFILE\"}}";
    assert_int_equal(ddbjson_parse_item(key, strlen(key), &it, &d), ST_OK);
    assert_string_equal(ent_table_match(t, &it)->name, "profile");
    av_done(&it);
    buf_done(&b);
    ent_model_done(&m);
}

/* The error at a line and column, with the member path. */
static void fails_at(const char *text, int line, int col, const char *msg)
{
    ent_model m;
    ent_model_init(&m);
    diag d;
    diag_init(&d);
    assert_int_equal(model_file_parse("bad.json", text, strlen(text), &m, &d), ST_PARSE);
    assert_string_equal(d.file, "bad.json");
    if (d.line != line || d.col != col || !strstr(d.msg, msg))
        fail_msg("got %d:%d %s, want %d:%d %s", d.line, d.col, d.msg, line, col, msg);
    assert_int_equal(m.n, 0);   /* nothing half read */
    ent_model_done(&m);
}

static void bad_models_say_where(void **state)
{
    (void)state;
    fails_at("{\"tables\": {\"T\": {\"key\": {\"partition\": {\"PK\": \"X\"}}}}}", 1, 47,
             "tables.T.key.partition.PK: a key attribute's type is S, N or B");
    fails_at("{\"tables\": {\"T\": {\n  \"key\": {\"partition\": {\"PK\": \"S\"}},\n"
             "  \"entities\": {\"e\": {\"keys\": {\"PK\": \"A#{id\"}}}}}}", 3, 37,
             "tables.T.entities.e.keys.PK: a template is literal text");
    fails_at("{\"tables\": {\"T\": {\"key\": {\"partition\": {\"PK\": \"S\"}},\n"
             "  \"entities\": {\"e\": {\"keys\": {\"PK\": \"A#{id}\"}, \"colour\": 1}}}}}", 2, 48,
             "tables.T.entities.e.colour: unknown member");
    fails_at("{\"tables\": {\"T\": {\"key\": {\"partition\": {\"PK\": \"S\"}, \"sort\": {\"SK\": \"S\"}},\n"
             "  \"entities\": {\"e\": {\"keys\": {\"PK\": \"A#{id}\"}}}}}}", 2, 30,
             "needs the template of SK");
    fails_at("{\"tables\": {\"T\": {\"key\": {\"partition\": {\"PK\": \"S\"}},\n"
             "  \"entities\": {\"e\": {\"keys\": {\"PK\": \"A\"}, \"indexes\": {\"G\": {}}}}}}}", 2, 55,
             "the table has no index G");
    fails_at("{\"tables\": {\"T\": {\"key\": {\"partition\": {\"PK\": \"S\"}}}},}", 1, 55, "not valid JSON");
}

static void the_shipped_prices_load(void **state)
{
    (void)state;
    price_table pt;
    price_table_init(&pt);
    diag d;
    diag_init(&d);
    assert_int_equal(price_file_default(&pt, &d), ST_OK);
    const price_region *us = price_table_region(&pt, "us-east-1");
    assert_non_null(us);
    assert_string_equal(us->currency, "USD");
    assert_non_null(strstr(us->source, "https://aws.amazon.com/dynamodb/pricing/"));
    assert_non_null(us->taken);
    assert_non_null(us->note);
    assert_true(pt.hours_per_month == 730);
    /* A figure the stored page did not show is not known, and the file says so. */
    const price_region *cn = price_table_region(&pt, "cn-north-1");
    assert_non_null(cn);
    assert_true(isnan(cn->od_read) && isnan(cn->storage));
    assert_false(isnan(cn->pv_write));
    assert_non_null(strstr(cn->note, "not known"));
    assert_null(price_table_region(&pt, "mars-1"));
    price_table_done(&pt);
}

static void bad_price_files_say_where(void **state)
{
    (void)state;
    static const struct { const char *text; int line, col; const char *msg; } cases[] = {
        { "{\"regions\": {\"r\": {\"currency\": \"USD\", \"taken\": \"x\"}}}", 1, 19,
          "regions.r: a region needs \"source\"" },
        { "{\"regions\": {\"r\": {\"currency\": \"USD\", \"taken\": \"x\", \"source\": \"y\",\n"
          "  \"on_demand\": {\"read_per_million\": -1}}}}", 2, 37,
          "regions.r.on_demand.read_per_million: must be a number, 0 or more" },
        { "{\"hours_per_month\": 5, \"regions\": {}}", 1, 21, "hours_per_month: a month has" },
        { "{\"regions\": {\"r\": {\"currency\": \"USD\", \"taken\": \"x\", \"source\": \"y\", \"storage\": 1}}}",
          1, 68, "regions.r.storage: unknown member" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        price_table pt;
        price_table_init(&pt);
        diag d;
        diag_init(&d);
        assert_int_equal(price_file_parse("p.json", cases[i].text, strlen(cases[i].text), &pt, &d),
                         ST_PARSE);
        if (d.line != cases[i].line || d.col != cases[i].col || !strstr(d.msg, cases[i].msg))
            fail_msg("case %zu: got %d:%d %s", i, d.line, d.col, d.msg);
        price_table_done(&pt);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_model_reads_and_writes_back_the_same),
        cmocka_unit_test(bad_models_say_where),
        cmocka_unit_test(the_shipped_prices_load),
        cmocka_unit_test(bad_price_files_say_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
