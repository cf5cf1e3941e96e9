/*
 * The engine of `ddbx evolve` (data/evolve.h) on a store: an item changed
 * between the Scan that read it and its write is read again and written
 * with what it holds now (UpdateItem's ConditionExpression refuses the
 * stale write: API reference, UpdateItem, ConditionalCheckFailedException);
 * an item deleted meanwhile is named, never recreated (an UpdateItem on a
 * missing key would create it: the condition on its source attribute
 * refuses that too); a stop leaves a checkpoint the next run goes on
 * from; a checkpoint of another evolution is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "data/evolve.h"
#include "tests/data/tmpstore.h"

static void call(store *s, const char *op, const char *in)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    if (store_call(s, op, in, strlen(in), &out, &d) != ST_OK)
        fail_msg("%s: %s", op, d.msg);
    free(out);
}

static void table(store *s)
{
    call(s, "CreateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
         "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}],"
         "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}]}");
    const char *ids[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        char in[200];
        snprintf(in, sizeof in, "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"%s\"},\"status\":{\"S\":\"open\"}}}",
                 ids[i]);
        call(s, "PutItem", in);
    }
}

/* Every item's GSIPK, "a=STATUS#open b=..." in key order. */
static void values(store *s, char *out, size_t n)
{
    out[0] = '\0';
    const char *ids[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        char in[120], *res = NULL;
        snprintf(in, sizeof in, "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"%s\"}}}", ids[i]);
        diag d;
        diag_init(&d);
        assert_int_equal(store_call(s, "GetItem", in, strlen(in), &res, &d), ST_OK);
        const char *v = strstr(res, "\"GSIPK\":{\"S\":\"");
        char val[40] = "-";
        if (v)
            sscanf(v + 14, "%39[^\"]", val);
        else if (!strstr(res, "\"Item\""))
            strcpy(val, "gone");
        snprintf(out + strlen(out), n - strlen(out), "%s%s=%s", i ? " " : "", ids[i], val);
        free(res);
    }
}

typedef struct meddle {
    store *s;
    const char *op;     /* after the first item: "close" the others, "delete" them, or "stop" */
    int calls;
} meddle;

static bool after_item(void *ctx)
{
    meddle *m = ctx;
    if (m->calls++ != 0)
        return false;
    if (strcmp(m->op, "stop") == 0)
        return true;
    /* The Scan page is read: change every other item behind its back. */
    const char *ids[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        char in[300];
        if (strcmp(m->op, "close") == 0)
            snprintf(in, sizeof in, "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"%s\"}},\"UpdateExpression\":"
                     "\"SET #s = :c\",\"ConditionExpression\":\"attribute_not_exists(GSIPK)\","
                     "\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
                     "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"closed\"}}}", ids[i]);
        else
            snprintf(in, sizeof in, "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"%s\"}},"
                     "\"ConditionExpression\":\"attribute_not_exists(GSIPK)\"}", ids[i]);
        char *out = NULL;
        diag d;
        diag_init(&d);
        store_call(m->s, strcmp(m->op, "close") == 0 ? "UpdateItem" : "DeleteItem", in, strlen(in), &out, &d);
        free(out);
    }
    return false;
}

static status run(store *s, meddle *m, const char *ck, evolve_counts *c, diag *d)
{
    keytmpl t;
    diag_init(d);
    assert_int_equal(keytmpl_parse("STATUS#${status}", "GSIPK", &t, d), ST_OK);
    evolve_spec sp = { .table = "Tab", .index = "ByStatus", .hash = &t, .where = "test", .checkpoint = ck,
                       .stop = after_item, .ctx = m };
    evolve_counts_init(c);
    status st = evolve_run(s, &sp, c, d);
    keytmpl_done(&t);
    return st;
}

static void changed_items_are_read_again(void **state)
{
    store *s = *state;
    table(s);
    meddle m = { s, "close", 0 };
    evolve_counts c;
    diag d;
    assert_int_equal(run(s, &m, NULL, &c, &d), ST_OK);
    assert_int_equal(c.read, 3);
    assert_int_equal(c.written, 3);
    assert_int_equal(c.retried, 2);
    assert_int_equal(c.n_named, 0);
    char v[200];
    values(s, v, sizeof v);
    /* One of them was written before the change (open), the others after. */
    assert_true(strstr(v, "=STATUS#open") && !strstr(strstr(v, "=STATUS#open") + 1, "=STATUS#open"));
    assert_non_null(strstr(v, "=STATUS#closed"));
    evolve_counts_done(&c);
}

static void deleted_items_are_named_not_recreated(void **state)
{
    store *s = *state;
    table(s);
    meddle m = { s, "delete", 0 };
    evolve_counts c;
    diag d;
    assert_int_equal(run(s, &m, NULL, &c, &d), ST_OK);
    assert_int_equal(c.written, 1);
    assert_int_equal(c.n_named, 2);
    char v[200];
    values(s, v, sizeof v);
    size_t gone = 0;
    for (const char *p = v; (p = strstr(p, "=gone")); p++)
        gone++;
    assert_int_equal(gone, 2);
    evolve_counts_done(&c);
}

static void a_stop_leaves_a_checkpoint_the_next_run_goes_on_from(void **state)
{
    store *s = *state;
    table(s);
    char ck[160];
    snprintf(ck, sizeof ck, "%s/ck", dir);
    meddle m = { s, "stop", 0 };
    evolve_counts c;
    diag d;
    assert_int_equal(run(s, &m, ck, &c, &d), ST_OK);
    assert_true(c.stopped);
    assert_int_equal(c.written, 1);
    assert_int_equal(access(ck, F_OK), 0);
    evolve_counts_done(&c);
    meddle again = { s, "none", 1 };
    assert_int_equal(run(s, &again, ck, &c, &d), ST_OK);
    assert_true(c.resumed);
    assert_int_equal(c.read, 3);
    assert_int_equal(c.written_before, 1);
    assert_int_equal(c.written, 2);
    assert_int_equal(c.already, 0);
    assert_int_not_equal(access(ck, F_OK), 0);   /* removed at the end */
    evolve_counts_done(&c);
}

static void another_evolutions_checkpoint_is_refused(void **state)
{
    store *s = *state;
    table(s);
    char ck[160];
    snprintf(ck, sizeof ck, "%s/ck", dir);
    FILE *f = fopen(ck, "w");
    fputs("{\"table\":\"Tab\",\"index\":\"Other\",\"hash\":\"X#${x}\",\"range\":null,\"where\":\"test\","
          "\"last_key\":{\"PK\":{\"S\":\"a\"}}}\n", f);
    fclose(f);
    meddle m = { s, "none", 1 };
    evolve_counts c;
    diag d;
    assert_int_equal(run(s, &m, ck, &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "is of another evolution (Tab --index Other --hash X#${x} on test)"));
    assert_int_equal(c.written, 0);
    evolve_counts_done(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(changed_items_are_read_again, setup, teardown),
        cmocka_unit_test_setup_teardown(deleted_items_are_named_not_recreated, setup, teardown),
        cmocka_unit_test_setup_teardown(a_stop_leaves_a_checkpoint_the_next_run_goes_on_from, setup, teardown),
        cmocka_unit_test_setup_teardown(another_evolutions_checkpoint_is_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
