/*
 * How DynamoDB reads and writes attribute values as JSON.
 *
 * DynamoDB checks a request in two stages. First the JSON shapes: a value
 * of the wrong JSON kind is a SerializationException ("NUMBER_VALUE cannot
 * be converted to String" for {"N": 5}). Then the values: bad numbers,
 * empty sets, duplicate set members, NULL: false are ValidationExceptions.
 * Messages are DynamoDB's own, oddities kept. Every error also names the
 * attribute path where it happened (`tags.SS[2]`, `a.b[1]`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/base64.h"
#include "model/ddbjson.h"

/* Parses an item and writes it back as canonical DynamoDB JSON. */
static char *roundtrip(const char *text)
{
    av item;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(text, strlen(text), &item, &d) != ST_OK)
        fail_msg("%s: %s (at %s)", text, d.msg, d.path);
    buf out = BUF_INIT;
    ddbjson_write_item(&out, &item);
    av_done(&item);
    return buf_steal(&out);
}

static void assert_roundtrip(const char *in, const char *want)
{
    char *got = roundtrip(in);
    if (strcmp(got, want) != 0)
        fail_msg("%s\n  wrote %s\n  want  %s", in, got, want);
    free(got);
}

/* Parsing the item fails with this status, message and path. */
static void assert_refused(const char *text, status code, const char *msg, const char *path)
{
    av item = { 0 };
    diag d;
    diag_init(&d);
    status st = ddbjson_parse_item(text, strlen(text), &item, &d);
    if (st == ST_OK) {
        av_done(&item);
        fail_msg("%s: accepted, want \"%s\"", text, msg);
    }
    if (st != code || strcmp(d.msg, msg) != 0 || strcmp(d.path, path) != 0)
        fail_msg("%s:\n  got  %s \"%s\" at \"%s\"\n  want %s \"%s\" at \"%s\"", text,
                 status_name(st), d.msg, d.path, status_name(code), msg, path);
}

#define SER ST_SERIALIZATION
#define VAL ST_VALIDATION

/* ---- the happy path ---- */

static void every_type_reads_and_writes_back_canonically(void **state)
{
    (void)state;
    assert_roundtrip(
        "{\"sk\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"00012.500\"},\"b\":{\"B\":\"AAEC/w==\"},"
        "\"ok\":{\"BOOL\":false},\"nil\":{\"NULL\":true},"
        "\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"3e2\"}]},\"m\":{\"M\":{\"z\":{\"S\":\"\"},\"a\":{\"BOOL\":true}}},"
        "\"ss\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"10\",\"9\",\"-1.50\"]},\"bs\":{\"BS\":[\"Yg==\",\"YQ==\"]}}",
        /* names sorted, numbers canonical, sets in key order */
        "{\"b\":{\"B\":\"AAEC/w==\"},\"bs\":{\"BS\":[\"YQ==\",\"Yg==\"]},"
        "\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"300\"}]},\"m\":{\"M\":{\"a\":{\"BOOL\":true},\"z\":{\"S\":\"\"}}},"
        "\"n\":{\"N\":\"12.5\"},\"nil\":{\"NULL\":true},\"ns\":{\"NS\":[\"-1.5\",\"9\",\"10\"]},"
        "\"ok\":{\"BOOL\":false},\"sk\":{\"S\":\"PROFILE\"},\"ss\":{\"SS\":[\"a\",\"b\"]}}");
}

static void empty_strings_and_binaries_are_allowed_outside_keys(void **state)
{
    (void)state;
    assert_roundtrip("{\"s\":{\"S\":\"\"},\"b\":{\"B\":\"\"}}", "{\"b\":{\"B\":\"\"},\"s\":{\"S\":\"\"}}");
}

static void booleans_may_be_written_as_strings(void **state)
{
    (void)state;
    /* DynamoDB's deserializer reads "true", "1", "yes" (any case). */
    assert_roundtrip("{\"a\":{\"BOOL\":\"TRUE\"},\"b\":{\"BOOL\":\"0\"},\"c\":{\"NULL\":\"yes\"}}",
                     "{\"a\":{\"BOOL\":true},\"b\":{\"BOOL\":false},\"c\":{\"NULL\":true}}");
}

static void unknown_keys_and_nulls_inside_a_value_are_ignored(void **state)
{
    (void)state;
    assert_roundtrip("{\"a\":{\"S\":\"x\",\"N\":null,\"Z\":1}}", "{\"a\":{\"S\":\"x\"}}");
}

static void a_repeated_attribute_name_keeps_the_last_value(void **state)
{
    (void)state;
    assert_roundtrip("{\"a\":{\"S\":\"1\"},\"a\":{\"S\":\"2\"}}", "{\"a\":{\"S\":\"2\"}}");
}

static void korean_and_emoji_pass_through_unescaped(void **state)
{
    (void)state;
    assert_roundtrip("{\"이름\":{\"S\":\"김민수 \\ud83d\\ude00\"}}", "{\"이름\":{\"S\":\"김민수 😀\"}}");
}

/* ---- shapes: SerializationException ---- */

static void a_number_given_as_a_json_number_is_refused(void **state)
{
    (void)state;
    assert_refused("{\"n\":{\"N\":5}}", SER, "NUMBER_VALUE cannot be converted to String", "n");
    assert_refused("{\"n\":{\"N\":5.5}}", SER, "DECIMAL_VALUE cannot be converted to String", "n");
    assert_refused("{\"s\":{\"S\":true}}", SER, "TRUE_VALUE cannot be converted to String", "s");
    assert_refused("{\"x\":{\"M\":{\"y\":{\"SS\":[\"a\",\"b\",7]}}}}", SER,
                   "NUMBER_VALUE cannot be converted to String", "x.y.SS[2]");
}

static void a_value_must_be_an_object_of_one_type(void **state)
{
    (void)state;
    assert_refused("{\"a\":\"x\"}", SER, "Unexpected value type in payload", "a");
    assert_refused("{\"a\":[]}", SER,
                   "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue", "a");
    assert_refused("{\"a\":{\"S\":{}}}", SER, "Start of structure or map found where not expected", "a");
    assert_refused("{\"a\":{\"S\":[\"x\"]}}", SER, "Unrecognized collection type class java.lang.String", "a");
}

static void lists_maps_and_sets_need_their_json_shape(void **state)
{
    (void)state;
    assert_refused("{\"a\":{\"L\":\"x\"}}", SER, "Unexpected field type", "a");
    assert_refused("{\"a\":{\"L\":{}}}", SER, "Start of structure or map found where not expected", "a");
    assert_refused("{\"a\":{\"SS\":\"x\"}}", SER, "Unexpected field type", "a");
    assert_refused("{\"a\":{\"M\":\"x\"}}", SER, "Unexpected field type", "a");
    assert_refused("{\"a\":{\"M\":[]}}", SER,
                   "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>",
                   "a");
    assert_refused("{\"a\":{\"L\":[{\"S\":\"ok\"},{\"M\":{\"b\":{\"L\":[5]}}}]}}", SER,
                   "Unexpected value type in payload", "a[1].b[0]");
}

static void booleans_must_be_json_booleans_or_boolean_words(void **state)
{
    (void)state;
    assert_refused("{\"a\":{\"BOOL\":5}}", SER, "NUMBER_VALUE cannot be converted to Boolean", "a");
    assert_refused("{\"a\":{\"BOOL\":\"maybe\"}}", SER, "Unexpected token received from parser", "a");
    assert_refused("{\"a\":{\"NULL\":[]}}", SER, "Unrecognized collection type class java.lang.Boolean", "a");
}

static void binaries_must_be_canonical_base64(void **state)
{
    (void)state;
    assert_refused("{\"b\":{\"B\":5}}", SER, "only base-64-encoded strings are convertible to bytes", "b");
    assert_refused("{\"b\":{\"B\":\"abc\"}}", SER,
                   "Base64 encoded length is expected a multiple of 4 bytes but found: 3", "b");
    /* DynamoDB's spelling: "dectected". */
    assert_refused("{\"b\":{\"B\":\"ab!=\"}}", SER, "Invalid last non-pad Base64 character dectected", "b");
    assert_refused("{\"b\":{\"B\":\"YR==\"}}", SER, "Invalid last non-pad Base64 character dectected", "b");
    assert_refused("{\"b\":{\"B\":\"=YQ=\"}}", SER, "Invalid last non-pad Base64 character dectected", "b");
    assert_refused("{\"b\":{\"BS\":[\"YQ==\",\"Y\"]}}", SER,
                   "Base64 encoded length is expected a multiple of 4 bytes but found: 1", "b.BS[1]");
}

static void shape_errors_are_reported_before_value_errors(void **state)
{
    (void)state;
    /* "a" has a bad number (a value error), "b" a bad shape: b wins. */
    assert_refused("{\"a\":{\"N\":\"x\"},\"b\":{\"S\":5}}", SER, "NUMBER_VALUE cannot be converted to String", "b");
}

/* ---- values: ValidationException ---- */

static void a_value_needs_exactly_one_type(void **state)
{
    (void)state;
    assert_refused("{\"a\":{}}", VAL,
                   "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", "a");
    assert_refused("{\"a\":{\"X\":\"1\"}}", VAL,
                   "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", "a");
    assert_refused("{\"a\":null}", VAL,
                   "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", "a");
    assert_refused("{\"a\":{\"S\":\"x\",\"N\":\"1\"}}", VAL,
                   "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
                   "a");
    /* Each type is validated before the count is. */
    assert_refused("{\"a\":{\"S\":\"x\",\"N\":\"bad\"}}", VAL,
                   "The parameter cannot be converted to a numeric value: bad", "a");
}

static void invalid_numbers_are_refused_with_their_path(void **state)
{
    (void)state;
    assert_refused("{\"n\":{\"N\":\"abc\"}}", VAL, "The parameter cannot be converted to a numeric value: abc", "n");
    assert_refused("{\"n\":{\"N\":\"\"}}", VAL, "The parameter cannot be converted to a numeric value", "n");
    assert_refused("{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"},{\"N\":\"1e999\"}]}}}}", VAL,
                   "Number overflow. Attempting to store a number with magnitude larger than supported range", "a.b[1]");
    assert_refused("{\"t\":{\"NS\":[\"1\",\"1E-131\"]}}", VAL,
                   "Number underflow. Attempting to store a number with magnitude smaller than supported range", "t.NS[1]");
    assert_refused("{\"n\":{\"N\":\"1234567890123456789012345678901234567890\"}}", VAL,
                   "Attempting to store more than 38 significant digits in a Number", "n");
}

/* {"NULL": false} is refused with this message: AWS accepted it briefly
 * in one region in June 2026 (dynoxide 0.11.0, 2026-06-24, issue 62),
 * and every region had gone back to refusing it by 2026-07-17 (dynoxide
 * 0.12.0's changelog, 2026-07-24, and its issue 145: "AWS regions have
 * reverted to rejecting it", the message captured in eu-west-2). */
static void null_must_be_true(void **state)
{
    (void)state;
    assert_refused("{\"a\":{\"NULL\":false}}", VAL,
                   "One or more parameter values were invalid: Null attribute value types must have the value of true", "a");
}

static void sets_may_not_be_empty(void **state)
{
    (void)state;
    /* DynamoDB's wording, double space and all. */
    assert_refused("{\"tags\":{\"SS\":[]}}", VAL,
                   "One or more parameter values were invalid: An string set  may not be empty", "tags");
    assert_refused("{\"tags\":{\"NS\":[]}}", VAL,
                   "One or more parameter values were invalid: An number set  may not be empty", "tags");
    assert_refused("{\"tags\":{\"BS\":[]}}", VAL,
                   "One or more parameter values were invalid: Binary sets should not be empty", "tags");
}

static void sets_may_not_hold_duplicates(void **state)
{
    (void)state;
    assert_refused("{\"tags\":{\"SS\":[\"a\",\"b\",\"a\"]}}", VAL,
                   "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates.",
                   "tags.SS");
    /* 1 and 1.0 are the same number. */
    assert_refused("{\"tags\":{\"NS\":[\"1\",\"1.0\"]}}", VAL, "Input collection contains duplicates", "tags.NS");
    assert_refused("{\"tags\":{\"BS\":[\"YQ==\",\"YQ==\"]}}", VAL,
                   "One or more parameter values were invalid: Input collection [YQ==, YQ==]of type BS contains duplicates.",
                   "tags.BS");
}

/* ---- JSON text ---- */

static void malformed_json_reports_line_and_column(void **state)
{
    (void)state;
    av item;
    diag d;
    diag_init(&d);
    const char *text = "{\"a\": {\"S\": \"x\"},\n \"b\": {\"S\" \"y\"}}";
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_PARSE);
    assert_int_equal(d.line, 2);
    assert_true(d.col > 1);
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item("{} x", 4, &item, &d), ST_PARSE);
    assert_int_equal(d.col, 4);
}

/* DynamoDB stores strings and attribute names holding U+0000 (a string
 * is any UTF-8, API reference AttributeValue S): "\u0000" escapes round-
 * trip in values, set members and names, neither refused nor truncated. */
static void nul_characters_in_dynamodb_json_round_trip(void **state)
{
    (void)state;
    av item;
    diag d;
    diag_init(&d);
    const char *text = "{\"a\":{\"S\":\"x\\u0000y\"}}";
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
    const av *a = av_map_get(&item, "a", 1);
    assert_non_null(a);
    assert_int_equal(a->u.s.len, 3);
    assert_memory_equal(a->u.s.ptr, "x\0y", 3);
    av_done(&item);
    assert_roundtrip(text, text);
    assert_roundtrip("{\"n\\u0000m\":{\"SS\":[\"\\u0000\",\"\\u0000\\u0000\"]},\"m\":{\"M\":{\"\\u0000\":{\"S\":\"\\u0000\"}}}}",
                     "{\"m\":{\"M\":{\"\\u0000\":{\"S\":\"\\u0000\"}}},\"n\\u0000m\":{\"SS\":[\"\\u0000\",\"\\u0000\\u0000\"]}}");
    /* An escaped backslash followed by "u0000" is just text. */
    assert_roundtrip("{\"a\":{\"S\":\"x\\\\u0000y\"}}", "{\"a\":{\"S\":\"x\\\\u0000y\"}}");
}

/* Found by fuzzing: cJSON let invalid UTF-8 through (which the writer
 * then turned into different characters) and cut strings at a raw NUL.
 * Both are refused, with where; the three parsers agree. */
static void raw_nul_bytes_and_invalid_utf8_are_refused_with_position(void **state)
{
    (void)state;
    static const struct { const char *text; size_t len; int col; } bad[] = {
        { "{\"a\":{\"S\":\"x\0y\"}}", 17, 13 },
        { "{\"a\":{\"S\":\"x\377y\"}}", 17, 13 },
        { "{\"a\":{\"S\":\"\xc0\xaf\"}}", 17, 12 },      /* overlong '/' */
        { "{\"a\":{\"S\":\"\xed\xa0\x80\"}}", 18, 12 },  /* a surrogate */
        { "{\"a\":{\"S\":\"\xe2\x82\"}}", 17, 12 },      /* truncated */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        av v;
        diag d;
        diag_init(&d);
        assert_int_equal(ddbjson_parse_item(bad[i].text, bad[i].len, &v, &d), ST_PARSE);
        assert_int_equal(d.line, 1);
        assert_int_equal(d.col, bad[i].col);
        diag_init(&d);
        assert_int_equal(ddbjson_parse_value(bad[i].text + 5, bad[i].len - 6, &v, &d), ST_PARSE);
        diag_init(&d);
        assert_int_equal(ddbjson_parse_plain_item(bad[i].text, bad[i].len, &v, &d), ST_PARSE);
    }
    /* valid multi-byte text still passes untouched */
    assert_roundtrip("{\"a\":{\"S\":\"\xea\xb9\x80 \xf0\x9f\x98\x80\"}}",
                     "{\"a\":{\"S\":\"\xea\xb9\x80 \xf0\x9f\x98\x80\"}}");
}

/* Found by fuzzing (issue 38): cJSON reads a \u escape whose four
 * characters are not hex digits (\u0YYY, \u0/\u0) as U+0000, silently
 * cutting the string there, and takes the next four characters whatever
 * they are, so the \u0000 handling (which read such an escape as two
 * characters) parsed a different text and failed with no position. JSON
 * (RFC 8259 section 7) allows only \u and four hex digits; the escape is
 * refused at its backslash, as the plain parser refuses it. */
static void a_u_escape_without_four_hex_digits_is_refused_with_position(void **state)
{
    (void)state;
    static const struct { const char *text; int line, col; } bad[] = {
        { "{\"a\":{\"S\":\"x\\u0YYYy\"}}", 1, 13 },
        { "{\"a\":{\"S\":\"\\u0/\\u0000\"}}", 1, 12 },
        { "{\"a\":{\"S\":\"\\u12\"}}", 1, 12 },
        { "{\"a\":\n {\"S\":\"\\r\\uG000\"}}", 2, 10 },
        /* the fuzzer's input, a rules file: the \u0000 follows a bad escape */
        { "{\"/\\r/\\u0YYYYY\\u0/\\u0000\": [\n\t]}\n", 1, 7 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        av v;
        diag d;
        diag_init(&d);
        size_t len = strlen(bad[i].text);
        struct cJSON *root = NULL;
        assert_int_equal(ddbjson_cjson_parse(bad[i].text, len, &root, &d), ST_PARSE);
        assert_null(root);
        assert_int_equal(d.line, bad[i].line);
        assert_int_equal(d.col, bad[i].col);
        assert_non_null(strstr(d.msg, "\\u"));
        if (i < 4) {
            diag_init(&d);
            assert_int_equal(ddbjson_parse_item(bad[i].text, len, &v, &d), ST_PARSE);
            diag_init(&d);
            assert_int_equal(ddbjson_parse_plain_item(bad[i].text, len, &v, &d), ST_PARSE);
        }
    }
    /* Four hex digits of either case, and an escaped backslash before a
     * "u", still pass. */
    assert_roundtrip("{\"a\":{\"S\":\"\\u00e9\\u00C9\\\\uXYZ\"}}", "{\"a\":{\"S\":\"\u00e9\u00c9\\\\uXYZ\"}}");
}

static void a_single_value_parses_too(void **state)
{
    (void)state;
    av v;
    diag d;
    diag_init(&d);
    const char *text = "{\"NS\":[\"2\",\"1\"]}";
    assert_int_equal(ddbjson_parse_value(text, strlen(text), &v, &d), ST_OK);
    assert_int_equal(v.type, AV_NS);
    buf out = BUF_INIT;
    ddbjson_write_value(&out, &v);
    assert_string_equal(out.data, "{\"NS\":[\"1\",\"2\"]}");
    buf_done(&out);
    av_done(&v);
    diag_init(&d);
    assert_int_equal(ddbjson_parse_value("{\"SS\":[]}", 9, &v, &d), ST_VALIDATION);
    assert_string_equal(d.path, "");
}

static void strings_are_escaped_as_json_requires(void **state)
{
    (void)state;
    buf out = BUF_INIT;
    ddbjson_write_string(&out, "q\"b\\n\n\t\x01\x7f", 9);
    assert_string_equal(out.data, "\"q\\\"b\\\\n\\n\\t\\u0001\x7f\"");
    buf_reset(&out);
    ddbjson_write_string(&out, "a\0b", 3);
    assert_string_equal(out.data, "\"a\\u0000b\"");
    buf_reset(&out);
    /* Bytes that are not UTF-8 (a lone 0xFF, an overlong '/', a surrogate)
     * are written one \u00XX per byte. */
    ddbjson_write_string(&out, "\xff" "\xc0\xaf" "\xed\xa0\x80" "é", 8);
    assert_string_equal(out.data, "\"\\u00ff\\u00c0\\u00af\\u00ed\\u00a0\\u0080é\"");
    buf_done(&out);
}

/* The writer skips runs of plain ASCII 8 bytes at a time; whatever the
 * alignment, one byte that needs escaping inside a run is still escaped
 * (and DEL, 0x7f, is still plain). */
static void an_escape_anywhere_in_a_long_run_is_found(void **state)
{
    (void)state;
    static const unsigned char special[] = { '"', '\\', 0x00, 0x01, 0x0a, 0x1f, 0x80, 0xff };
    static const char *const escaped[] = { "\\\"", "\\\\", "\\u0000", "\\u0001", "\\n",
                                           "\\u001f", "\\u0080", "\\u00ff" };
    char in[40], want[80];
    buf out = BUF_INIT;
    for (size_t len = 1; len <= 33; len++) {
        for (size_t at = 0; at < len; at++) {
            for (size_t k = 0; k < sizeof special; k++) {
                for (size_t i = 0; i < len; i++)
                    in[i] = (char)(i % 3 == 0 ? 0x7f : 'a' + (char)(i % 26));
                in[at] = (char)special[k];
                size_t w = 0;
                want[w++] = '"';
                for (size_t i = 0; i < len; i++) {
                    if (i == at) {
                        memcpy(want + w, escaped[k], strlen(escaped[k]));
                        w += strlen(escaped[k]);
                    } else {
                        want[w++] = in[i];
                    }
                }
                want[w++] = '"';
                want[w] = '\0';
                buf_reset(&out);
                ddbjson_write_string(&out, in, len);
                assert_string_equal(out.data, want);
            }
        }
    }
    buf_done(&out);
}

/* ---- plain JSON ---- */

static char *plain_roundtrip(const char *text, status *st, diag *d)
{
    av item;
    diag_init(d);
    *st = ddbjson_parse_plain_item(text, strlen(text), &item, d);
    if (*st != ST_OK)
        return NULL;
    buf out = BUF_INIT;
    ddbjson_write_item(&out, &item);
    av_done(&item);
    return buf_steal(&out);
}

static void plain_json_infers_types_and_keeps_numbers_exact(void **state)
{
    (void)state;
    status st;
    diag d;
    char *got = plain_roundtrip(
        "{\"n\": 12345678901234567890.123, \"f\": 1.50e1, \"ok\": true, \"none\": null,"
        " \"tags\": [\"a\", 1, false], \"m\": {\"x\": -0}, \"s\": \"x\\u0000y\\ud83d\\ude00\"}", &st, &d);
    assert_int_equal(st, ST_OK);
    assert_string_equal(got,
        "{\"f\":{\"N\":\"15\"},\"m\":{\"M\":{\"x\":{\"N\":\"0\"}}},\"n\":{\"N\":\"12345678901234567890.123\"},"
        "\"none\":{\"NULL\":true},\"ok\":{\"BOOL\":true},\"s\":{\"S\":\"x\\u0000y😀\"},"
        "\"tags\":{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"},{\"BOOL\":false}]}}");
    free(got);
}

static void plain_json_numbers_obey_dynamodb_limits(void **state)
{
    (void)state;
    status st;
    diag d;
    assert_null(plain_roundtrip("{\"a\": {\"b\": [1, 1e200]}}", &st, &d));
    assert_int_equal(st, ST_VALIDATION);
    assert_string_equal(d.msg, "Number overflow. Attempting to store a number with magnitude larger than supported range");
    assert_string_equal(d.path, "a.b[1]");
    assert_int_equal(d.col, 17);
}

static void plain_json_syntax_errors_have_positions(void **state)
{
    (void)state;
    status st;
    diag d;
    const char *bad[] = { "[1]", "{\"a\": 01}", "{\"a\": .5}", "{\"a\": +1}", "{\"a\": 1,}",
                          "{\"a\" 1}", "{\"a\": \"\\ud800\"}", "{\"a\": \"x}", "{\"a\": tru}", "{} {}" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (plain_roundtrip(bad[i], &st, &d) || st != ST_PARSE)
            fail_msg("%s: not refused as a parse error", bad[i]);
        assert_int_equal(d.line, 1);
        assert_true(d.col >= 1);
    }
    assert_null(plain_roundtrip("{\n  \"a\": [1,\n   2,,]}", &st, &d));
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 6);
    assert_string_equal(d.path, "a[2]");
}

static void plain_json_out_is_lossy_by_design(void **state)
{
    (void)state;
    av item;
    diag d;
    diag_init(&d);
    const char *text = "{\"b\":{\"B\":\"AAE=\"},\"n\":{\"N\":\"-0.5\"},\"ss\":{\"SS\":[\"y\",\"x\"]},\"z\":{\"NULL\":true}}";
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
    buf out = BUF_INIT;
    ddbjson_write_plain_item(&out, &item);
    /* B is a base64 string and a set is a list: reading back gives S and L. */
    assert_string_equal(out.data, "{\"b\":\"AAE=\",\"n\":-0.5,\"ss\":[\"x\",\"y\"],\"z\":null}");
    buf_done(&out);
    av_done(&item);
}

/* ---- base64 ---- */

static void base64_round_trips_every_length(void **state)
{
    (void)state;
    unsigned char bytes[64];
    srand(7);
    for (size_t n = 0; n < sizeof bytes; n++) {
        for (size_t i = 0; i < n; i++)
            bytes[i] = (unsigned char)rand();
        buf enc = BUF_INIT, dec = BUF_INIT;
        base64_encode(&enc, bytes, n);
        assert_int_equal(enc.len, base64_encoded_len(n));
        assert_int_equal(base64_decode(&dec, enc.data ? enc.data : "", enc.len), BASE64_OK);
        assert_int_equal(dec.len, n);
        assert_memory_equal(dec.data ? dec.data : "", bytes, n);
        buf_done(&enc);
        buf_done(&dec);
    }
    buf b = BUF_INIT;
    base64_encode(&b, "\xfb\xff", 2);
    assert_string_equal(b.data, "+/8=");     /* the standard alphabet, not the URL one */
    buf_reset(&b);
    assert_int_equal(base64_decode(&b, "-_8=", 4), BASE64_BAD_CHAR);
    assert_int_equal(base64_decode(&b, "YQ==YQ==", 8), BASE64_BAD_CHAR);  /* padding mid-text */
    assert_int_equal(base64_decode(&b, "Y===", 4), BASE64_BAD_CHAR);
    buf_done(&b);
}

/* ddbjson_flat_parse takes simple requests whole and refuses everything
 * else, for the general parser to read (and to report what is wrong). */
static void flat_requests_are_taken_whole_or_not_at_all(void **state)
{
    (void)state;
    ddbjson_flat f;
    static const char req[] = " { \"T\" : \"t\xc3\xa9\", \"K\":{\"p\":{\"S\":\"a b\"},\"s\":{\"N\":\"-1.5\"}},"
                              "\"C\":true,\"E\":{},\"F\":false}\n";
    assert_true(ddbjson_flat_parse(req, strlen(req), &f));
    assert_int_equal(f.n, 5);
    assert_true(ddbjson_span_is(f.m[0].name, "T") && f.m[0].kind == 's' && ddbjson_span_is(f.m[0].str, "t\xc3\xa9"));
    assert_true(f.m[1].kind == 'm' && f.m[1].first == 0 && f.m[1].n == 2);
    assert_true(ddbjson_span_is(f.attrs[0].name, "p") && f.attrs[0].type == AV_S &&
                ddbjson_span_is(f.attrs[0].val, "a b"));
    assert_true(ddbjson_span_is(f.attrs[1].name, "s") && f.attrs[1].type == AV_N &&
                ddbjson_span_is(f.attrs[1].val, "-1.5"));
    assert_true(f.m[2].kind == 'b' && f.m[2].b);
    assert_true(f.m[3].kind == 'm' && f.m[3].n == 0);
    assert_true(f.m[4].kind == 'b' && !f.m[4].b);
    assert_true(ddbjson_flat_parse("{}", 2, &f) && f.n == 0);
    static const char *const refused[] = {
        "", "[]", "{", "{\"a\":\"x\"", "{\"a\":\"x\"} x", "{\"a\":\"x\",}", "{,\"a\":\"x\"}",
        "{\"a\":\"x\\\"y\"}",              /* an escape */
        "{\"a\\u0041\":\"x\"}",
        "{\"a\":\"x\ty\"}",                /* a control character */
        "{\"a\":\"\xc3\x28\"}",            /* invalid UTF-8 */
        "{\"a\":\"\xed\xa0\x80\"}",        /* a surrogate */
        "{\"a\":null}", "{\"a\":1}", "{\"a\":[]}", "{\"a\":truex}", "{\"a\":tru}",
        "{\"a\":\"x\",\"a\":\"y\"}",       /* a repeated name */
        "{\"k\":{\"p\":{\"S\":\"a\"},\"p\":{\"S\":\"b\"}}}",
        "{\"k\":{\"p\":{\"B\":\"YQ==\"}}}", "{\"k\":{\"p\":{\"BOOL\":true}}}",
        "{\"k\":{\"p\":{\"S\":\"a\",\"N\":\"1\"}}}", "{\"k\":{\"p\":{}}}", "{\"k\":{\"p\":{\"S\":1}}}",
        "{\"k\":{\"p\":{\"M\":{\"q\":{\"S\":\"a\"}}}}}", "{\"k\":{\"p\":\"a\"}}",
        "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\",\"d\":\"4\",\"e\":\"5\",\"f\":\"6\",\"g\":\"7\",\"h\":\"8\",\"i\":\"9\"}",
        "\xef\xbb\xbf{}",                  /* a byte order mark */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (ddbjson_flat_parse(refused[i], strlen(refused[i]), &f))
            fail_msg("taken: %s", refused[i]);
    /* A raw NUL, inside a string and after the object. */
    static const char nul1[] = "{\"a\":\"x\0y\"}", nul2[] = "{}\0";
    assert_false(ddbjson_flat_parse(nul1, sizeof nul1 - 1, &f));
    assert_false(ddbjson_flat_parse(nul2, sizeof nul2 - 1, &f));
}

/* ddbjson_parse_maps, the one reader of names and values typed as text
 * (query bar, ddbx eval, builder): blank is not given, names are plain
 * JSON strings, values DynamoDB JSON; an error names its map in d->file. */
static void names_and_values_maps_read_from_text(void **state)
{
    (void)state;
    av n, v;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_maps(NULL, " \n", &n, &v, &d), ST_OK);
    assert_int_equal(n.type, AV_NONE);
    assert_int_equal(v.type, AV_NONE);
    assert_int_equal(ddbjson_parse_maps("{\"#s\":\"status\"}", "{\":v\":{\"N\":\"4\"}}", &n, &v, &d), ST_OK);
    assert_int_equal(n.type, AV_M);
    assert_int_equal(av_map_get(&n, "#s", 2)->type, AV_S);
    assert_int_equal(av_map_get(&v, ":v", 2)->type, AV_N);
    av_done(&n);
    av_done(&v);
    assert_int_equal(ddbjson_parse_maps("{}", NULL, &n, &v, &d), ST_OK);   /* empty: expr_ctx_init's to refuse */
    assert_int_equal(n.type, AV_M);
    av_done(&n);
    assert_int_equal(ddbjson_parse_maps("{\"#s\":5}", NULL, &n, &v, &d), ST_VALIDATION);
    assert_string_equal(d.file, "ExpressionAttributeNames");
    assert_string_equal(d.msg, "the name of #s must be a JSON string");
    assert_int_equal(n.type, AV_NONE);
    diag_init(&d);
    assert_int_equal(ddbjson_parse_maps("{\"#s\":\"s\"}", "{\":v\":{\"N\":\"x\"}}", &n, &v, &d), ST_VALIDATION);
    assert_string_equal(d.file, "ExpressionAttributeValues");
    assert_string_equal(d.path, ":v");
    assert_int_equal(n.type, AV_NONE);
    assert_int_equal(v.type, AV_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flat_requests_are_taken_whole_or_not_at_all),
        cmocka_unit_test(names_and_values_maps_read_from_text),
        cmocka_unit_test(every_type_reads_and_writes_back_canonically),
        cmocka_unit_test(empty_strings_and_binaries_are_allowed_outside_keys),
        cmocka_unit_test(booleans_may_be_written_as_strings),
        cmocka_unit_test(unknown_keys_and_nulls_inside_a_value_are_ignored),
        cmocka_unit_test(a_repeated_attribute_name_keeps_the_last_value),
        cmocka_unit_test(korean_and_emoji_pass_through_unescaped),
        cmocka_unit_test(a_number_given_as_a_json_number_is_refused),
        cmocka_unit_test(a_value_must_be_an_object_of_one_type),
        cmocka_unit_test(lists_maps_and_sets_need_their_json_shape),
        cmocka_unit_test(booleans_must_be_json_booleans_or_boolean_words),
        cmocka_unit_test(binaries_must_be_canonical_base64),
        cmocka_unit_test(shape_errors_are_reported_before_value_errors),
        cmocka_unit_test(a_value_needs_exactly_one_type),
        cmocka_unit_test(invalid_numbers_are_refused_with_their_path),
        cmocka_unit_test(null_must_be_true),
        cmocka_unit_test(sets_may_not_be_empty),
        cmocka_unit_test(sets_may_not_hold_duplicates),
        cmocka_unit_test(malformed_json_reports_line_and_column),
        cmocka_unit_test(nul_characters_in_dynamodb_json_round_trip),
        cmocka_unit_test(raw_nul_bytes_and_invalid_utf8_are_refused_with_position),
        cmocka_unit_test(a_u_escape_without_four_hex_digits_is_refused_with_position),
        cmocka_unit_test(a_single_value_parses_too),
        cmocka_unit_test(strings_are_escaped_as_json_requires),
        cmocka_unit_test(an_escape_anywhere_in_a_long_run_is_found),
        cmocka_unit_test(plain_json_infers_types_and_keeps_numbers_exact),
        cmocka_unit_test(plain_json_numbers_obey_dynamodb_limits),
        cmocka_unit_test(plain_json_syntax_errors_have_positions),
        cmocka_unit_test(plain_json_out_is_lossy_by_design),
        cmocka_unit_test(base64_round_trips_every_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
