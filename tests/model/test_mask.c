/*
 * Masking rules (model/mask.c), with a stand-in MAC (the real one is
 * HMAC-SHA256 in data/mask_file.c).
 *
 * Where the expectations come from: DynamoDB's developer guide, "Best
 * practices for managing many-to-many relationships" and "Using sort keys
 * to organize data" (entity prefixes such as ACTOR#, PROFILE that access
 * patterns query by: key conditions on a prefix must still hold on the
 * copy) and "Supported data types" (sets unique, numbers up to 38 digits).
 * The shapes of hashed and faked values are ddbx's own (mask.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mask.h"

#include "items.h"

/* FNV-1a spread over 32 bytes, seeded by ctx: enough to tell inputs and
 * keys apart. */
static void test_mac(void *ctx, const void *p, size_t n, unsigned char out[32])
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)ctx;
    for (int k = 0; k < 32; k++) {
        for (size_t i = 0; i < n; i++)
            h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
        h = (h ^ (uint64_t)k) * 1099511628211ULL;
        out[k] = (unsigned char)(h >> 56);
    }
}

static void rule(mask *m, const char *what, mask_action a, mask_as as, const char *table)
{
    mask_rule r;
    memset(&r, 0, sizeof r);
    r.action = a;
    r.as = as;
    r.text = strdup(what[0] == '~' ? what + 1 : what);
    r.line = 3;
    r.col = 7;
    if (what[0] == '~') {
        r.pattern = strdup(what + 1);
    } else {
        size_t at;
        diag d;
        diag_init(&d);
        assert_int_equal(mask_parse_path(what, &r.path, &r.depth, &at, &d), ST_OK);
    }
    if (table) {
        r.tables = calloc(1, sizeof *r.tables);
        r.tables[0] = strdup(table);
        r.n_tables = 1;
    }
    mask_add(m, &r);
}

static table_def def_of(const char *pk, const char *sk, const char *gpk, const char *gsk)
{
    table_def t;
    memset(&t, 0, sizeof t);
    t.name = strdup("T");
    t.pk = (key_attr){ strdup(pk), AV_S };
    if (sk)
        t.sk = (key_attr){ strdup(sk), AV_S };
    if (gpk) {
        t.idx = calloc(1, sizeof *t.idx);
        t.n_idx = 1;
        t.idx[0].name = strdup("GSI1");
        t.idx[0].global = true;
        t.idx[0].pk = (key_attr){ strdup(gpk), AV_S };
        if (gsk)
            t.idx[0].sk = (key_attr){ strdup(gsk), AV_S };
    }
    return t;
}

static const char *str(const av *item, const char *name)
{
    const av *v = av_map_get(item, name, strlen(name));
    return v && v->type == AV_S ? v->u.s.ptr : NULL;
}

/* 16 characters of base32 after the prefix. */
static bool hashed(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (!s || strncmp(s, prefix, n) != 0 || strlen(s + n) < 16)
        return false;
    for (int i = 0; i < 16; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyz234567", s[n + i]))
            return false;
    return true;
}

static void key_attributes_keep_their_shape_and_join(void **state)
{
    mask *m = mask_new(test_mac, (void *)1);
    rule(m, "PK", MASK_HASH, MASK_AS_AUTO, NULL);
    rule(m, "SK", MASK_HASH, MASK_AS_AUTO, NULL);
    rule(m, "~follows*", MASK_HASH, MASK_AS_AUTO, NULL);
    table_def t = def_of("PK", "SK", "GSI1PK", "GSI1SK");
    mask_plan *p;
    diag d;
    diag_init(&d);
    assert_int_equal(mask_bind(m, "SocialGraph", &t, &p, &d), ST_OK);
    buf b = BUF_INIT;
    mask_plan_describe(p, &b);
    assert_string_equal(b.data, "PK, SK hashed (GSI1PK, GSI1SK with them)");
    buf_done(&b);

    av edge = parse("{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},"
                    "\"GSI1PK\":{\"S\":\"TARGET#bob\"},\"GSI1SK\":{\"S\":\"ACTOR#alice\"},"
                    "\"followsSince\":{\"S\":\"alice\"},\"note\":{\"S\":\"hi\"}}");
    av prof = parse("{\"PK\":{\"S\":\"ACTOR#bob\"},\"SK\":{\"S\":\"PROFILE\"}}");
    av enroll = parse("{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"},"
                      "\"GSI1PK\":{\"S\":\"CRS#math204\"},\"GSI1SK\":{\"S\":\"s#song1\"}}");
    assert_int_equal(mask_apply(p, &edge), 5);
    assert_int_equal(mask_apply(p, &prof), 1);
    mask_apply(p, &enroll);
    assert_true(hashed(str(&edge, "PK"), "ACTOR#"));
    assert_true(hashed(str(&edge, "SK"), "TARGET#"));
    /* GSI1 keys mirror the table keys: equal values, equal results. */
    assert_string_equal(str(&edge, "GSI1PK"), str(&edge, "SK"));
    assert_string_equal(str(&edge, "GSI1SK"), str(&edge, "PK"));
    /* The edge's target joins the target's own partition. */
    assert_string_equal(str(&edge, "SK") + 7, str(&prof, "PK") + 6);
    assert_string_equal(str(&prof, "SK"), "PROFILE");
    /* A bare value hashes as the segment it is elsewhere. */
    assert_string_equal(str(&edge, "followsSince"), str(&edge, "PK") + 6);
    assert_string_equal(str(&edge, "note"), "hi");
    /* Capital segments stay; the rest is replaced segment by segment. */
    assert_true(hashed(str(&enroll, "SK"), "ENROLL#CRS#"));
    assert_string_equal(str(&enroll, "GSI1PK") + 4, str(&enroll, "SK") + 11);
    assert_true(hashed(str(&enroll, "GSI1SK"), "s#"));
    assert_string_not_equal(str(&enroll, "PK"), "STU#a91");
    av_done(&edge);
    av_done(&prof);
    av_done(&enroll);
    mask_plan_free(p);

    /* Another key, other results: the hash is keyed. */
    mask *m2 = mask_new(test_mac, (void *)2);
    av a = parse("{\"x\":{\"S\":\"alice\"}}"), h1, h2;
    mask_hash_value(m, av_map_get(&a, "x", 1), &h1);
    mask_hash_value(m2, av_map_get(&a, "x", 1), &h2);
    assert_false(av_equal(&h1, &h2));
    av_done(&h1);
    av_done(&h2);
    av_done(&a);
    mask_free(m2);
    table_def_free(&t);
    mask_free(m);
}

static void numbers_binary_and_sets_hash_by_type(void **state)
{
    mask *m = mask_new(test_mac, (void *)1);
    av item = parse("{\"n\":{\"N\":\"42\"},\"n2\":{\"N\":\"42.0\"},\"b\":{\"B\":\"AAEC\"},"
                    "\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\",\"2\"]},\"t\":{\"BOOL\":true},"
                    "\"z\":{\"NULL\":true},\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},\"l\":{\"L\":[{\"S\":\"v\"}]}}");
    av h;
    mask_hash_value(m, &item, &h);
    const av *n = av_map_get(&h, "n", 1);
    assert_int_equal(n->type, AV_N);
    buf b = BUF_INIT;
    av_scalar_text(n, &b);
    assert_int_equal(b.len, 18);
    buf_done(&b);
    assert_true(av_equal(n, av_map_get(&h, "n2", 2)));   /* 42 and 42.0: one number */
    assert_int_equal(av_map_get(&h, "b", 1)->u.s.len, 16);
    assert_int_equal(av_map_get(&h, "ss", 2)->u.l.len, 2);
    assert_int_equal(av_map_get(&h, "ns", 2)->type, AV_NS);
    assert_true(av_map_get(&h, "t", 1)->u.b);
    assert_int_equal(av_map_get(&h, "z", 1)->type, AV_NULL);
    /* Inside maps and lists, the same value hashes the same. */
    const av *mv = av_map_get(av_map_get(&h, "m", 1), "k", 1);
    assert_true(av_equal(mv, &av_map_get(&h, "l", 1)->u.l.v[0]));
    assert_true(hashed(mv->u.s.ptr, ""));
    av_done(&h);
    av_done(&item);
    mask_free(m);
}

static void rules_match_by_path_and_name_the_first_wins(void **state)
{
    mask *m = mask_new(test_mac, (void *)1);
    rule(m, "address.note", MASK_KEEP, MASK_AS_AUTO, NULL);
    rule(m, "address", MASK_REDACT, MASK_AS_AUTO, NULL);
    rule(m, "cards[*].pan", MASK_DROP, MASK_AS_AUTO, NULL);
    rule(m, "tags[1]", MASK_DROP, MASK_AS_AUTO, NULL);
    rule(m, "~*PHONE*", MASK_FAKE, MASK_AS_PHONE, NULL);
    rule(m, "~ssn", MASK_DROP, MASK_AS_AUTO, NULL);
    rule(m, "~secret", MASK_DROP, MASK_AS_AUTO, "Other*");
    rule(m, "*.inner", MASK_REDACT, MASK_AS_AUTO, NULL);
    table_def t = def_of("PK", NULL, NULL, NULL);
    mask_plan *p;
    diag d;
    diag_init(&d);
    assert_int_equal(mask_bind(m, "Users", &t, &p, &d), ST_OK);
    av item = parse("{\"PK\":{\"S\":\"u1\"},\"address\":{\"M\":{\"city\":{\"S\":\"Seoul\"},"
                    "\"zip\":{\"N\":\"12345\"},\"ok\":{\"BOOL\":true},\"codes\":{\"SS\":[\"a\",\"b\"]}}},"
                    "\"cards\":{\"L\":[{\"M\":{\"pan\":{\"S\":\"4111\"},\"exp\":{\"S\":\"12/30\"}}},"
                    "{\"M\":{\"pan\":{\"S\":\"5500\"}}}]},\"tags\":{\"L\":[{\"S\":\"a\"},{\"S\":\"b\"},{\"S\":\"c\"}]},"
                    "\"homePhone\":{\"S\":\"+1 (555) 010-2000\"},\"kids\":{\"M\":{\"SSN\":{\"S\":\"x\"}}},"
                    "\"secret\":{\"S\":\"s\"},\"x\":{\"M\":{\"inner\":{\"S\":\"i\"}}}}");
    size_t changed = mask_apply(p, &item);
    char *got = text(&item);
    /* The phone keeps its shape: digits replaced, the rest kept. */
    const char *ph = str(&item, "homePhone");
    assert_int_equal(strlen(ph), strlen("+1 (555) 010-2000"));
    for (size_t i = 0; ph[i]; i++) {
        char o = "+1 (555) 010-2000"[i];
        assert_true((o >= '0' && o <= '9') ? (ph[i] >= '0' && ph[i] <= '9') : ph[i] == o);
    }
    assert_string_not_equal(ph, "+1 (555) 010-2000");
    assert_non_null(strstr(got, "\"address\":{\"M\":{\"city\":{\"S\":\"REDACTED\"},\"codes\":{\"SS\":[\"REDACTED\"]},\"ok\":{\"BOOL\":false},\"zip\":{\"N\":\"0\"}}}"));
    assert_non_null(strstr(got, "\"cards\":{\"L\":[{\"M\":{\"exp\":{\"S\":\"12/30\"}}},{\"M\":{}}]}"));
    assert_non_null(strstr(got, "\"kids\":{\"M\":{}}"));
    assert_non_null(strstr(got, "\"secret\":{\"S\":\"s\"}"));   /* that rule is for Other* only */
    assert_non_null(strstr(got, "\"tags\":{\"L\":[{\"S\":\"a\"},{\"S\":\"c\"}]}"));
    assert_non_null(strstr(got, "\"x\":{\"M\":{\"inner\":{\"S\":\"REDACTED\"}}}"));
    /* city, the two codes, ok, zip; two pans; tags[1]; the phone; SSN; inner. */
    assert_int_equal(changed, 11);
    free(got);
    av_done(&item);
    mask_plan_free(p);
    table_def_free(&t);
    mask_free(m);
}

static void fakes_are_plausible_and_consistent(void **state)
{
    mask *m = mask_new(test_mac, (void *)1);
    rule(m, "~email", MASK_FAKE, MASK_AS_EMAIL, NULL);
    rule(m, "~name", MASK_FAKE, MASK_AS_NAME, NULL);
    rule(m, "~id", MASK_FAKE, MASK_AS_UUID, NULL);
    rule(m, "~*", MASK_FAKE, MASK_AS_AUTO, NULL);
    table_def t = def_of("PK", NULL, NULL, NULL);
    mask_plan *p;
    diag d;
    diag_init(&d);
    /* ~* would fake PK: refused until PK has its own rule. */
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_VALIDATION);
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 7);
    assert_string_equal(d.msg, "the rule for * (fake) would fake PK, a key attribute of T: that "
                               "merges or loses items; only hash (which keeps the key's shape) or keep");
    mask_free(m);
    m = mask_new(test_mac, (void *)1);
    rule(m, "PK", MASK_KEEP, MASK_AS_AUTO, NULL);
    rule(m, "~email", MASK_FAKE, MASK_AS_EMAIL, NULL);
    rule(m, "~name", MASK_FAKE, MASK_AS_NAME, NULL);
    rule(m, "~id", MASK_FAKE, MASK_AS_UUID, NULL);
    rule(m, "~*", MASK_FAKE, MASK_AS_AUTO, NULL);
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_OK);
    static const char in[] = "{\"PK\":{\"S\":\"k\"},\"email\":{\"S\":\"alice@corp.kr\"},"
                             "\"name\":{\"S\":\"Alice Kim\"},\"id\":{\"S\":\"x\"},\"bio\":{\"S\":\"Hi, 김민준 #42\"},"
                             "\"n\":{\"N\":\"-120.5\"},\"b\":{\"B\":\"AAECAw==\"},\"t\":{\"BOOL\":true}}";
    av a = parse(in), b = parse(in);
    mask_apply(p, &a);
    mask_apply(p, &b);
    assert_true(av_equal(&a, &b));   /* the same input, the same fake */
    assert_string_equal(str(&a, "PK"), "k");
    const char *e = str(&a, "email");
    assert_true(strncmp(e, "user-", 5) == 0 && strcmp(e + strlen(e) - 12, "@example.com") == 0);
    assert_non_null(strchr(str(&a, "name"), ' '));
    assert_string_not_equal(str(&a, "name"), "Alice Kim");
    const char *u = str(&a, "id");
    assert_int_equal(strlen(u), 36);
    assert_true(u[8] == '-' && u[13] == '-' && u[14] == '4' && u[18] == '-' && u[23] == '-');
    /* Text keeps its shape: Hangul for Hangul, punctuation kept. */
    const char *bio = str(&a, "bio");
    assert_int_equal(strlen(bio), strlen("Hi, 김민준 #42"));
    assert_true(bio[2] == ',' && bio[3] == ' ' && bio[13] == ' ' && bio[14] == '#');
    assert_true(bio[0] >= 'A' && bio[0] <= 'Z' && bio[1] >= 'a' && bio[1] <= 'z');
    assert_true((unsigned char)bio[4] >= 0xEA && (unsigned char)bio[4] <= 0xED);
    assert_string_not_equal(bio, "Hi, 김민준 #42");
    buf nb = BUF_INIT;
    av_scalar_text(av_map_get(&a, "n", 1), &nb);
    assert_int_equal(nb.len, 6);
    assert_true(nb.data[0] == '-' && nb.data[1] != '0' && nb.data[4] == '.');
    buf_done(&nb);
    assert_int_equal(av_map_get(&a, "b", 1)->u.s.len, 4);
    assert_true(av_map_get(&a, "t", 1)->u.b);
    av_done(&a);
    av_done(&b);
    mask_plan_free(p);
    table_def_free(&t);
    mask_free(m);
}

/* The tally behind `ddbx pull --mask`'s summary (issue 38: it named only
 * what the key rules did): the values each rule took, keep included, a
 * rule that took none, one for other tables, index keys hashed with the
 * table's, and the strings no rule took, by path, each once. */
static void the_tally_names_every_rule_and_the_strings_left_clear(void **state)
{
    (void)state;
    table_def t = def_of("PK", "SK", "GSI1PK", NULL);
    mask *m = mask_new(test_mac, (void *)1);
    rule(m, "PK", MASK_HASH, MASK_AS_AUTO, NULL);
    rule(m, "~*count", MASK_KEEP, MASK_AS_AUTO, NULL);
    rule(m, "~bio", MASK_DROP, MASK_AS_AUTO, NULL);
    rule(m, "~email", MASK_FAKE, MASK_AS_EMAIL, NULL);
    rule(m, "~type", MASK_REDACT, MASK_AS_AUTO, "Other*");
    mask_plan *p;
    diag d;
    diag_init(&d);
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_OK);
    mask_tally a, b;
    mask_tally_init(&a, m);
    mask_tally_init(&b, m);
    av one = parse("{\"PK\":{\"S\":\"A#x\"},\"SK\":{\"S\":\"s\"},\"GSI1PK\":{\"S\":\"g\"},"
                   "\"bio\":{\"S\":\"hi\"},\"followCount\":{\"N\":\"3\"},\"type\":{\"S\":\"u\"},"
                   "\"loc\":{\"M\":{\"city\":{\"S\":\"c\"},\"n\":{\"N\":\"1\"}}},\"tags\":{\"L\":[{\"S\":\"t\"}]}}");
    av two = parse("{\"PK\":{\"S\":\"A#y\"},\"SK\":{\"S\":\"s\"},\"type\":{\"S\":\"u\"}}");
    mask_apply_tally(p, &one, &a);
    mask_apply_tally(p, &two, &b);
    mask_tally_add(&a, &b);
    buf out = BUF_INIT;
    mask_tally_rules(m, "T", &a, &out);
    assert_string_equal(out.data, "  PK hash: 2 values\n"
                                  "  *count keep: 1 value\n"
                                  "  bio drop: 1 value\n"
                                  "  email fake as email: no value matched\n"
                                  "  type redact: not for this table\n"
                                  "  index keys hashed with the table's: 1 value\n");
    buf_reset(&out);
    mask_tally_clear(&a, &out);
    /* SK is a key no rule names: kept, and said by mask_plan_describe. */
    assert_string_equal(out.data, "loc.city, tags[*], type");
    buf_done(&out);
    mask_tally_done(&a);
    mask_tally_done(&b);
    av_done(&one);
    av_done(&two);
    mask_plan_free(p);
    mask_free(m);
    table_def_free(&t);
}

static void an_index_key_may_be_kept_but_not_dropped(void **state)
{
    table_def t = def_of("PK", "SK", "GSI1PK", "created");
    mask *m = mask_new(test_mac, (void *)1);
    rule(m, "PK", MASK_HASH, MASK_AS_AUTO, NULL);
    rule(m, "created", MASK_KEEP, MASK_AS_AUTO, NULL);
    mask_plan *p;
    diag d;
    diag_init(&d);
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_OK);
    buf b = BUF_INIT;
    mask_plan_describe(p, &b);
    assert_string_equal(b.data, "PK hashed (GSI1PK with them)");
    buf_done(&b);
    mask_plan_free(p);
    mask_free(m);
    m = mask_new(test_mac, (void *)1);
    rule(m, "~gsi*", MASK_DROP, MASK_AS_AUTO, NULL);
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_VALIDATION);
    assert_non_null(strstr(d.msg, "would drop GSI1PK, a key attribute of T's indexes"));
    mask_free(m);
    /* A number index key mirrors no string key: left alone. */
    table_def t2 = def_of("PK", "SK", "GSI1PK", "score");
    t2.idx[0].sk.type = AV_N;
    m = mask_new(test_mac, (void *)1);
    rule(m, "SK", MASK_HASH, MASK_AS_AUTO, NULL);
    assert_int_equal(mask_bind(m, "T", &t2, &p, &d), ST_OK);
    buf_init(&b);
    mask_plan_describe(p, &b);
    assert_string_equal(b.data, "SK hashed (GSI1PK with them)");
    buf_done(&b);
    av item = parse("{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"s\"},\"GSI1PK\":{\"S\":\"s\"},\"score\":{\"N\":\"7\"}}");
    assert_int_equal(mask_apply(p, &item), 2);
    assert_string_equal(str(&item, "GSI1PK"), str(&item, "SK"));
    av_done(&item);
    mask_plan_free(p);
    mask_free(m);
    table_def_free(&t2);
    /* No rule for the keys: they are kept, and so said. */
    m = mask_new(test_mac, (void *)1);
    rule(m, "~x", MASK_DROP, MASK_AS_AUTO, NULL);
    assert_int_equal(mask_bind(m, "T", &t, &p, &d), ST_OK);
    buf_init(&b);
    mask_plan_describe(p, &b);
    assert_string_equal(b.data, "key attributes kept");
    buf_done(&b);
    mask_plan_free(p);
    mask_free(m);
    table_def_free(&t);
}

static void bad_paths_say_where(void **state)
{
    static const struct { const char *path; size_t at; const char *msg; } bad[] = {
        { "a..b", 2, "an empty attribute name" },
        { "a.", 2, "an empty attribute name" },
        { "[0]", 0, "a path begins with an attribute name" },
        { "a[x]", 2, "a list index is a number or *" },
        { "a[1", 3, "a list index ends with ]" },
        { "a]b", 1, "unexpected ]" },
        { "", 0, "an empty attribute name" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mask_step *s;
        size_t n, at = 99;
        diag d;
        diag_init(&d);
        assert_int_equal(mask_parse_path(bad[i].path, &s, &n, &at, &d), ST_PARSE);
        if (at != bad[i].at || strcmp(d.msg, bad[i].msg) != 0)
            fail_msg("%s: at %zu, %s", bad[i].path, at, d.msg);
        assert_null(s);
    }
    mask_step *s;
    size_t n, at;
    diag d;
    diag_init(&d);
    assert_int_equal(mask_parse_path("a.*[2][*].b-c#d", &s, &n, &at, &d), ST_OK);
    assert_int_equal(n, 5);
    assert_int_equal(s[1].kind, MASK_STEP_ANY_NAME);
    assert_int_equal(s[2].kind, MASK_STEP_INDEX);
    assert_int_equal(s[2].index, 2);
    assert_int_equal(s[3].kind, MASK_STEP_ANY_INDEX);
    assert_string_equal(s[4].name, "b-c#d");
    for (size_t i = 0; i < n; i++)
        free(s[i].name);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_attributes_keep_their_shape_and_join),
        cmocka_unit_test(numbers_binary_and_sets_hash_by_type),
        cmocka_unit_test(rules_match_by_path_and_name_the_first_wins),
        cmocka_unit_test(fakes_are_plausible_and_consistent),
        cmocka_unit_test(an_index_key_may_be_kept_but_not_dropped),
        cmocka_unit_test(the_tally_names_every_rule_and_the_strings_left_clear),
        cmocka_unit_test(bad_paths_say_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
