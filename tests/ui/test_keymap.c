/*
 * The key bindings: the compiled-in defaults load without error, every
 * request has a key, parse errors say where, and the man page's KEYS and
 * COMMANDS sections are exactly what the tables generate.
 *
 * `test_keymap --man` prints the generated sections (make man-keys).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/keymap.h"

static void test_defaults_load(void **state)
{
    diag d;
    diag_init(&d);
    assert_int_equal(keymap_init(&d), ST_OK);
    assert_int_equal(keymap_lookup('j'), REQ_MOVE_DOWN);
    assert_int_equal(keymap_lookup(K_DOWN), REQ_MOVE_DOWN);
    assert_int_equal(keymap_lookup('q'), REQ_BACK);
    assert_int_equal(keymap_lookup('i'), REQ_TOGGLE_INDEX);
    assert_int_equal(keymap_lookup('?'), REQ_HELP);
    assert_int_equal(keymap_lookup(6 /* ^F */), REQ_PAGE_DOWN);
    assert_int_equal(keymap_lookup('b'), REQ_NONE);   /* bound to nothing */
    keymap_done();
}

static void test_every_request_bound(void **state)
{
    diag d;
    buf b = BUF_INIT;
    diag_init(&d);
    assert_int_equal(keymap_init(&d), ST_OK);
    for (int r = 1; r < REQ__COUNT; r++) {
        buf_reset(&b);
        keymap_keys_of((enum req)r, &b);
        if (b.len == 0)
            fail_msg("request %s has no default key", keymap_req_name((enum req)r));
        assert_int_equal(keymap_req_parse(keymap_req_name((enum req)r),
                                          strlen(keymap_req_name((enum req)r))), r);
    }
    buf_done(&b);
    keymap_done();
}

static void test_key_names_round_trip(void **state)
{
    int keys[] = { 'a', 'Z', '?', ' ', 1, 6, 27 == K_ESC ? 0 : K_ESC, K_UP, K_PGDN, K_HOME, K_ENTER, K_F1 };
    buf b = BUF_INIT;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (!keys[i])
            continue;
        buf_reset(&b);
        keymap_key_name(keys[i], &b);
        assert_int_equal(keymap_key_parse(b.data, b.len), keys[i]);
    }
    assert_int_equal(keymap_key_parse("^f", 2), 6);
    assert_int_equal(keymap_key_parse("Nope", 4), -1);
    buf_done(&b);
}

static void test_errors_say_where(void **state)
{
    diag d;
    diag_init(&d);
    const char *bad1 = "bind j move-down\n  bind j fly-away\n";
    assert_int_equal(keymap_load(bad1, strlen(bad1), "x.conf", &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 10);
    assert_non_null(strstr(d.msg, "fly-away"));
    diag_init(&d);
    const char *bad2 = "# c\nbind Nokey quit\n";
    assert_int_equal(keymap_load(bad2, strlen(bad2), NULL, &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 6);
    diag_init(&d);
    const char *bad3 = "map j quit\n";
    assert_int_equal(keymap_load(bad3, strlen(bad3), NULL, &d), ST_PARSE);
    assert_int_equal(d.line, 1);
    diag_init(&d);
    const char *bad4 = "bind j quit extra\n";
    assert_int_equal(keymap_load(bad4, strlen(bad4), NULL, &d), ST_PARSE);
    /* Rebinding and unbinding. */
    diag_init(&d);
    const char *ok = "bind j quit\nbind k none\n";
    assert_int_equal(keymap_load(ok, strlen(ok), NULL, &d), ST_OK);
    assert_int_equal(keymap_lookup('j'), REQ_QUIT);
    assert_int_equal(keymap_lookup('k'), REQ_NONE);
    keymap_done();
}

/* bind VIEW KEY REQUEST (issue 18): m marks items everywhere but is the
 * builder's condition mode in the builder; a user file of plain `bind
 * KEY REQUEST` lines loads as before, and an unknown view is an error
 * that says where. */
static void test_bindings_per_view(void **state)
{
    diag d;
    diag_init(&d);
    assert_int_equal(keymap_init(&d), ST_OK);
    assert_int_equal(keymap_lookup_in("items", 'm'), REQ_MARK);
    assert_int_equal(keymap_lookup_in("item", 'm'), REQ_MARK);
    assert_int_equal(keymap_lookup_in("builder", 'm'), REQ_COND_MODE);
    assert_int_equal(keymap_lookup('m'), REQ_MARK);
    /* A view without its own binding falls back to the global one. */
    assert_int_equal(keymap_lookup_in("builder", 'j'), REQ_MOVE_DOWN);
    assert_int_equal(keymap_lookup_in("conflict", 'k'), REQ_CONFLICT_KEEP);
    assert_int_equal(keymap_lookup_in("items", 'k'), REQ_MOVE_UP);
    /* An old user file: bind m cond-mode (global) still loads; the
     * builder keeps m for its mode, elsewhere m now asks for that too. */
    const char *old = "bind m cond-mode\n";
    assert_int_equal(keymap_load(old, strlen(old), "keys.conf", &d), ST_OK);
    assert_int_equal(keymap_lookup_in("builder", 'm'), REQ_COND_MODE);
    assert_int_equal(keymap_lookup_in("items", 'm'), REQ_COND_MODE);
    const char *mine = "bind items b mark\nbind builder m none\n";
    assert_int_equal(keymap_load(mine, strlen(mine), "keys.conf", &d), ST_OK);
    assert_int_equal(keymap_lookup_in("items", 'b'), REQ_MARK);
    assert_int_equal(keymap_lookup_in("query", 'b'), REQ_NONE);
    assert_int_equal(keymap_lookup_in("builder", 'm'), REQ_NONE);
    diag_init(&d);
    const char *bad = "bind j move-down\nbind nowhere m mark\n";
    assert_int_equal(keymap_load(bad, strlen(bad), "keys.conf", &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_int_equal(d.col, 6);
    assert_non_null(strstr(d.msg, "unknown view 'nowhere'"));
    diag_init(&d);
    const char *extra = "bind builder m cond-mode extra\n";
    assert_int_equal(keymap_load(extra, strlen(extra), NULL, &d), ST_PARSE);
    assert_int_equal(d.col, 26);
    keymap_done();
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    buf b = BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
    fclose(f);
    return buf_steal(&b);
}

/* The text between `.\" BEGIN name` and `.\" END name` lines. */
static char *section(const char *page, const char *name)
{
    char begin[64], end[64];
    snprintf(begin, sizeof begin, ".\\\" BEGIN %s\n", name);
    snprintf(end, sizeof end, ".\\\" END %s\n", name);
    const char *b = strstr(page, begin), *e = b ? strstr(b, end) : NULL;
    if (!b || !e)
        return NULL;
    b += strlen(begin);
    return strndup(b, (size_t)(e - b));
}

static void test_man_page_matches(void **state)
{
    diag d;
    diag_init(&d);
    assert_int_equal(keymap_init(&d), ST_OK);
    char *page = slurp("assets/ddbx.1");
    assert_non_null(page);
    buf keys = BUF_INIT, cmds = BUF_INIT;
    keymap_write_man(&keys);
    keymap_write_man_commands(&cmds);
    char *k = section(page, "KEYS"), *c = section(page, "COMMANDS");
    assert_non_null(k);
    assert_non_null(c);
    if (strcmp(k, keys.data) != 0 || strcmp(c, cmds.data) != 0)
        fail_msg("assets/ddbx.1 is out of date: run `make man-keys`");
    free(k);
    free(c);
    free(page);
    buf_done(&keys);
    buf_done(&cmds);
    keymap_done();
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--man") == 0) {
        diag d;
        buf b = BUF_INIT;
        diag_init(&d);
        if (keymap_init(&d) != ST_OK)
            return 1;
        if (strcmp(argv[2], "KEYS") == 0)
            keymap_write_man(&b);
        else
            keymap_write_man_commands(&b);
        fputs(b.data, stdout);
        buf_done(&b);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_load),
        cmocka_unit_test(test_every_request_bound),
        cmocka_unit_test(test_key_names_round_trip),
        cmocka_unit_test(test_errors_say_where),
        cmocka_unit_test(test_bindings_per_view),
        cmocka_unit_test(test_man_page_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
