/*
 * How the explorer shows a diagnostic (display_diag_text, the text of
 * display_diag): the same parts, in the same order, as the command line's
 * cli_print_diag (ui/cli_diag.c): file:line:col, the DynamoDB error type,
 * the message, the attribute path, and here also the byte position an
 * expression error carries (model/status.h). A message cut at diag's size
 * is replaced by the store's whole message (data/store.h,
 * store_error_message) only when that is the same message, longer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/display.h"

static char *text(const char *what, status st, const diag *d, const char *full)
{
    buf b = BUF_INIT;
    display_diag_text(&b, what, st, d, full);
    buf_addc(&b, '\0');
    return buf_steal(&b);
}

#define CHECK(want, what, st, d, full)                \
    do {                                              \
        char *got_ = text(what, st, d, full);         \
        assert_string_equal(got_, want);              \
        free(got_);                                   \
    } while (0)

static void test_parts(void **state)
{
    diag d;
    diag_init(&d);
    diag_set(&d, ST_NOT_FOUND, "Requested resource not found");
    CHECK("ResourceNotFoundException: Requested resource not found", NULL, ST_NOT_FOUND, &d, NULL);
    CHECK("Music: ResourceNotFoundException: Requested resource not found", "Music", ST_NOT_FOUND,
          &d, NULL);

    /* The attribute path (what cli_print_diag shows and the old
     * "%s: %s" copies dropped). */
    diag_init(&d);
    diag_set(&d, ST_VALIDATION, "Invalid number");
    strcpy(d.path, "tags.SS[2]");
    CHECK("ValidationException: Invalid number (attribute tags.SS[2])", NULL, ST_VALIDATION, &d,
          NULL);

    /* A position in an expression. */
    diag_init(&d);
    diag_at(&d, ST_VALIDATION, 7, "Syntax error; token: \")\"");
    CHECK("ValidationException: Syntax error; token: \")\" (at byte 7)", NULL, ST_VALIDATION, &d,
          NULL);
    strcpy(d.path, "a.b");
    CHECK("ValidationException: Syntax error; token: \")\" (attribute a.b, at byte 7)", NULL,
          ST_VALIDATION, &d, NULL);

    /* A file position, as ddbx load reports it. */
    diag_init(&d);
    diag_set(&d, ST_PARSE, "unexpected end of input");
    strcpy(d.file, "items.jsonl");
    d.line = 3;
    d.col = 14;
    CHECK("items.jsonl:3:14: ParseError: unexpected end of input", NULL, ST_PARSE, &d, NULL);

    /* An I/O error says so (a dropped connection to an endpoint is one);
     * a usage error reads as a sentence. */
    diag_init(&d);
    diag_set(&d, ST_IO, "Failed to connect to 127.0.0.1 port 9: Connection refused");
    CHECK("IOError: Failed to connect to 127.0.0.1 port 9: Connection refused", NULL, ST_IO, &d,
          NULL);
    diag_init(&d);
    diag_set(&d, ST_USAGE, "usage: :goto VALUE");
    CHECK("usage: :goto VALUE", NULL, ST_USAGE, &d, NULL);
}

/* No message: the type alone, once. */
static void test_no_message(void **state)
{
    diag d;
    diag_init(&d);
    CHECK("DatabaseBusy", NULL, ST_BUSY, &d, NULL);
    CHECK("Music: InternalServerError", "Music", ST_INTERNAL, &d, NULL);
}

static void test_cut_message(void **state)
{
    /* A validation message longer than diag's 1024 bytes: d holds its
     * first 1023; the whole one replaces it. */
    size_t n = 3000;
    char *full = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        full[i] = (char)('a' + i % 26);
    full[n] = '\0';
    diag d;
    diag_init(&d);
    diag_set(&d, ST_VALIDATION, "%s", full);
    assert_int_equal(strlen(d.msg), sizeof d.msg - 1);
    char *got = text(NULL, ST_VALIDATION, &d, full);
    assert_int_equal(strlen(got), strlen("ValidationException: ") + n);
    assert_string_equal(got + strlen("ValidationException: "), full);
    free(got);

    /* Another message (left over from an earlier call) is not used. */
    full[5] = '#';
    got = text(NULL, ST_VALIDATION, &d, full);
    assert_int_equal(strlen(got), strlen("ValidationException: ") + sizeof d.msg - 1);
    free(got);
    /* Nor is the whole message when d's was not cut. */
    diag_init(&d);
    diag_set(&d, ST_VALIDATION, "short");
    CHECK("ValidationException: short", NULL, ST_VALIDATION, &d, "short and something else");
    free(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_no_message),
        cmocka_unit_test(test_cut_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
