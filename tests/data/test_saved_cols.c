/*
 * saved_cols_*: the table view's column layouts, kept per table and
 * entity type in the database file beside the saved conditions: put then
 * get gives the text back, another table or type is separate, an empty
 * layout deletes, a database without any gives none (NULL), a read-only
 * store refuses to write and loses nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/saved.h"
#include "data/store.h"
#include "tests/data/tmpstore.h"

static void get_is(store *s, const char *table, const char *entity, const char *want)
{
    char *spec = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(saved_cols_get(s, table, entity, &spec, &d), ST_OK);
    if (!want)
        assert_null(spec);
    else
        assert_string_equal(spec, want);
    free(spec);
}

static void put_get_delete(void **state)
{
    store *s = *state;
    diag d;
    diag_init(&d);
    get_is(s, "SocialGraph", "TARGET#", NULL);   /* no table yet */
    assert_int_equal(saved_cols_put(s, "SocialGraph", "TARGET#", "*followedAt\n-GSI1SK\n", &d), ST_OK);
    assert_int_equal(saved_cols_put(s, "SocialGraph", "", "+city\n", &d), ST_OK);
    assert_int_equal(saved_cols_put(s, "Music", "TARGET#", "+x\n", &d), ST_OK);
    get_is(s, "SocialGraph", "TARGET#", "*followedAt\n-GSI1SK\n");
    get_is(s, "SocialGraph", "", "+city\n");
    get_is(s, "Music", "TARGET#", "+x\n");
    get_is(s, "SocialGraph", "PROFILE", NULL);
    /* Replaced, then deleted. */
    assert_int_equal(saved_cols_put(s, "SocialGraph", "TARGET#", "+type\n", &d), ST_OK);
    get_is(s, "SocialGraph", "TARGET#", "+type\n");
    assert_int_equal(saved_cols_put(s, "SocialGraph", "TARGET#", "", &d), ST_OK);
    get_is(s, "SocialGraph", "TARGET#", NULL);
    get_is(s, "SocialGraph", "", "+city\n");
    /* Read-only: refused, what is there stays. */
    store *ro;
    assert_int_equal(store_open(path, STORE_READ_ONLY, &ro, &d), ST_OK);
    assert_int_equal(saved_cols_put(ro, "SocialGraph", "", "+name\n", &d), ST_READ_ONLY);
    get_is(ro, "SocialGraph", "", "+city\n");
    store_close(ro);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(put_get_delete, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
