/*
 * callstore.h — JSON calls for the data tests that drive the dispatcher
 * (store_call): the answer or the error's whole message lands in
 * out_text. Static, for inclusion by one test program each, after
 * <cmocka.h> and tmpstore.h; main frees out_text.
 */
#ifndef DDBX_TEST_CALLSTORE_H
#define DDBX_TEST_CALLSTORE_H

static char *out_text;

/* Runs an operation; returns its status, the answer in out_text (or the
 * error message). */
static status call(store *s, const char *op, const char *body)
{
    free(out_text);
    out_text = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, body, strlen(body), &out_text, &d);
    if (st != ST_OK) {
        free(out_text);
        out_text = strdup(store_error_message(s, st, &d));
    }
    return st;
}

static void ok(store *s, const char *op, const char *body)
{
    if (call(s, op, body) != ST_OK)
        fail_msg("%s: %s", op, out_text);
}

static void refused(store *s, const char *op, const char *body, status want, const char *msg)
{
    status st = call(s, op, body);
    if (st != want)
        fail_msg("%s: %s: %s", op, status_name(st), out_text ? out_text : "");
    assert_string_equal(out_text, msg);
}

#endif
