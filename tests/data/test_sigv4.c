/* sigv4: AWS Signature Version 4 against AWS's published examples — the
 * IAM ListUsers example of the signing documentation (canonical request,
 * its hash, string to sign, derived signing key, signature) and cases of
 * AWS's aws-sig-v4-test-suite (credentials AKIDEXAMPLE /
 * wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, us-east-1, service "service",
 * 20150830T123600Z). Every expected value below is AWS's, as published;
 * none was produced by this code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "data/remote.h"
#include "data/sigv4.h"

#define AK "AKIDEXAMPLE"
#define SK "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define DATE "20150830T123600Z"
#define EMPTY_HASH "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define SCOPE "20150830/us-east-1/service/aws4_request"

static void sign(const char *method, const char *path, const char *query,
                 const sigv4_header *hs, size_t n, const char *body, const char *service,
                 sigv4_result *r)
{
    sigv4_input in = {
        .method = method, .path = path, .query = query, .headers = hs, .nheaders = n,
        .payload = body, .payload_len = body ? strlen(body) : 0, .amz_date = DATE,
        .region = "us-east-1", .service = service, .access_key = AK, .secret_key = SK,
    };
    diag d;
    diag_init(&d);
    assert_int_equal(sigv4_sign(&in, r, &d), ST_OK);
}

/* The string to sign of a suite case: its last line is the hash of the
 * canonical request. */
static void check_sts(const sigv4_result *r, const char *crhash)
{
    char want[256];
    snprintf(want, sizeof want, "AWS4-HMAC-SHA256\n" DATE "\n" SCOPE "\n%s", crhash);
    assert_string_equal(r->string_to_sign, want);
    char h[65];
    sigv4_sha256_hex(r->canonical_request, strlen(r->canonical_request), h);
    assert_string_equal(h, crhash);
}

static void test_iam_listusers(void **state)
{
    (void)state;
    /* "Create a signed AWS API request" (IAM user guide / general
     * reference): GET https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08 */
    sigv4_header hs[] = {
        { "Content-Type", "application/x-www-form-urlencoded; charset=utf-8" },
        { "Host", "iam.amazonaws.com" },
        { "X-Amz-Date", DATE },
    };
    sigv4_result r;
    sign("GET", "/", "Action=ListUsers&Version=2010-05-08", hs, 3, "", "iam", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\nAction=ListUsers&Version=2010-05-08\n"
        "content-type:application/x-www-form-urlencoded; charset=utf-8\n"
        "host:iam.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
        "content-type;host;x-amz-date\n" EMPTY_HASH);
    assert_string_equal(r.string_to_sign,
        "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/iam/aws4_request\n"
        "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59");
    assert_string_equal(r.signing_key,
        "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");
    assert_string_equal(r.signature,
        "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
    assert_string_equal(r.authorization,
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date, "
        "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
    sigv4_result_free(&r);
}

static const sigv4_header vanilla[] = {
    { "Host", "example.amazonaws.com" },
    { "X-Amz-Date", DATE },
};

static void test_get_vanilla(void **state)
{
    (void)state;
    sigv4_result r;
    sign("GET", "/", NULL, vanilla, 2, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
        "host;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
    assert_string_equal(r.authorization,
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" SCOPE ", SignedHeaders=host;x-amz-date, "
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    sigv4_result_free(&r);
}

static void test_post_vanilla(void **state)
{
    (void)state;
    sigv4_result r;
    sign("POST", "/", "", vanilla, 2, "", "service", &r);
    assert_string_equal(r.canonical_request,
        "POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
        "host;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87");
    assert_string_equal(r.signature,
        "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
    sigv4_result_free(&r);
}

static void test_query_order(void **state)
{
    (void)state;
    sigv4_result r;
    /* get-vanilla-query-order-key-case */
    sign("GET", "/", "Param2=value2&Param1=value1", vanilla, 2, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\n"
        "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0");
    assert_string_equal(r.signature,
        "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    sigv4_result_free(&r);

    /* get-vanilla-utf8-query: the name is UTF-8, percent-encoded */
    sign("GET", "/", "\xe1\x88\xb4=bar", vanilla, 2, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\n%E1%88%B4=bar\nhost:example.amazonaws.com\n"
        "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "eb30c5bed55734080471a834cc727ae56beb50e5f39d1bff6d0d38cb192a7073");
    assert_string_equal(r.signature,
        "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04");
    sigv4_result_free(&r);
}

static void test_headers(void **state)
{
    (void)state;
    sigv4_result r;
    /* get-header-key-duplicate: repeated values joined in order */
    sigv4_header dup[] = {
        { "Host", "example.amazonaws.com" },
        { "My-Header1", "value2" },
        { "My-Header1", "value2" },
        { "My-Header1", "value1" },
        { "X-Amz-Date", DATE },
    };
    sign("GET", "/", NULL, dup, 5, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value2,value2,value1\n"
        "x-amz-date:20150830T123600Z\n\nhost;my-header1;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "dc7f04a3abfde8d472b0ab1a418b741b7c67174dad1551b4117b15527fbe966c");
    assert_string_equal(r.signature,
        "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea");
    sigv4_result_free(&r);

    /* get-header-value-trim: leading spaces go, inner runs collapse */
    sigv4_header trim[] = {
        { "Host", "example.amazonaws.com" },
        { "My-Header1", " value1" },
        { "My-Header2", " \"a   b   c\"" },
        { "X-Amz-Date", DATE },
    };
    sign("GET", "/", NULL, trim, 4, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
        "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7");
    assert_string_equal(r.signature,
        "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");
    sigv4_result_free(&r);

    /* post-header-value-case: values keep their case */
    sigv4_header vcase[] = {
        { "Host", "example.amazonaws.com" },
        { "My-Header1", "VALUE1" },
        { "X-Amz-Date", DATE },
    };
    sign("POST", "/", NULL, vcase, 3, NULL, "service", &r);
    check_sts(&r, "d51ced243e649e3de6ef63afbbdcbca03131a21a7103a1583706a64618606a93");
    assert_string_equal(r.authorization,
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" SCOPE
        ", SignedHeaders=host;my-header1;x-amz-date, "
        "Signature=cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d");
    sigv4_result_free(&r);
}

static void test_paths(void **state)
{
    (void)state;
    sigv4_result r;
    /* get-unreserved */
    sign("GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", NULL,
         vanilla, 2, NULL, "service", &r);
    check_sts(&r, "6a968768eefaa713e2a6b16b589a8ea192661f098f37349f4e2c0082757446f9");
    assert_string_equal(r.signature,
        "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f");
    sigv4_result_free(&r);
    /* get-utf8 */
    sign("GET", "/\xe1\x88\xb4", NULL, vanilla, 2, NULL, "service", &r);
    assert_string_equal(r.canonical_request,
        "GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
        "host;x-amz-date\n" EMPTY_HASH);
    check_sts(&r, "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102");
    assert_string_equal(r.signature,
        "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
    sigv4_result_free(&r);
    /* get-space-unnormalized */
    sign("GET", "/example space/", NULL, vanilla, 2, NULL, "service", &r);
    check_sts(&r, "63ee75631ed7234ae61b5f736dfc7754cdccfedbff4b5128a915706ee9390d86");
    assert_string_equal(r.signature,
        "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741");
    sigv4_result_free(&r);
}

static void test_body(void **state)
{
    (void)state;
    sigv4_result r;
    /* post-x-www-form-urlencoded: the body's hash is signed */
    sigv4_header hs[] = {
        { "Content-Type", "application/x-www-form-urlencoded" },
        { "Host", "example.amazonaws.com" },
        { "X-Amz-Date", DATE },
    };
    sign("POST", "/", NULL, hs, 3, "Param1=value1", "service", &r);
    assert_string_equal(r.payload_hash,
        "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e");
    assert_string_equal(r.authorization,
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" SCOPE
        ", SignedHeaders=content-type;host;x-amz-date, "
        "Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");
    sigv4_result_free(&r);
}

#define STS_TOKEN "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBu" \
    "FqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZ" \
    "ampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0" \
    "u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="

static void test_session_token(void **state)
{
    (void)state;
    sigv4_result r;
    /* post-sts-header-after: the session token is a signed header */
    sigv4_header hs[] = {
        { "Host", "example.amazonaws.com" },
        { "X-Amz-Date", DATE },
        { "X-Amz-Security-Token", STS_TOKEN },
    };
    sign("POST", "/", NULL, hs, 3, NULL, "service", &r);
    check_sts(&r, "c237e1b440d4c63c32ca95b5b99481081cb7b13c7e40434868e71567c1a882f6");
    assert_string_equal(r.authorization,
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" SCOPE
        ", SignedHeaders=host;x-amz-date;x-amz-security-token, "
        "Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead");
    sigv4_result_free(&r);
}

static void test_bad_input(void **state)
{
    (void)state;
    sigv4_input in = {
        .method = "POST", .path = "/", .amz_date = "2015-08-30", .region = "us-east-1",
        .service = "dynamodb", .access_key = AK, .secret_key = SK,
    };
    sigv4_result r;
    diag d;
    diag_init(&d);
    assert_int_equal(sigv4_sign(&in, &r, &d), ST_USAGE);
    /* the message never carries the secret */
    assert_null(strstr(d.msg, SK));
    in.amz_date = DATE;
    in.secret_key = NULL;
    assert_int_equal(sigv4_sign(&in, &r, &d), ST_USAGE);
}

static void test_amz_date(void **state)
{
    (void)state;
    char s[17];
    sigv4_amz_date(1440938160LL, s);   /* 2015-08-30 12:36:00 UTC */
    assert_string_equal(s, DATE);
}

/* The prepared MAC (sigv4_mac) is HMAC-SHA256: RFC 4231's test case 2
 * ("Jefe", "what do ya want for nothing?"), and the one-shot HMAC for a
 * key of 32 bytes, one longer than a block (hashed first), and an empty
 * message. */
static void test_prepared_mac(void **state)
{
    (void)state;
    unsigned char a[32], b[32];
    char hex[65];
    sigv4_mac *m = sigv4_mac_new("Jefe", 4);
    sigv4_mac_run(m, "what do ya want for nothing?", 28, a);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", a[i]);
    assert_string_equal(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    sigv4_mac_free(m);
    unsigned char key[100];
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (unsigned char)(i * 7 + 1);
    const size_t lens[] = { 32, 64, 100 };
    for (size_t k = 0; k < 3; k++) {
        m = sigv4_mac_new(key, lens[k]);
        for (int rep = 0; rep < 2; rep++) {   /* the state is reused */
            sigv4_mac_run(m, "S:ACTOR#alice", 13, a);
            sigv4_hmac_sha256(key, lens[k], "S:ACTOR#alice", 13, b);
            assert_memory_equal(a, b, 32);
        }
        sigv4_mac_run(m, "", 0, a);
        sigv4_hmac_sha256(key, lens[k], "", 0, b);
        assert_memory_equal(a, b, 32);
        sigv4_mac_free(m);
    }
}

static void test_backoff(void **state)
{
    (void)state;
    /* full jitter: uniform in [0, min(20 s, 1 s * 2^(retry-1))) */
    assert_int_equal(remote_backoff_ms(1, 0.0), 0);
    assert_int_equal(remote_backoff_ms(1, 0.5), 500);
    assert_int_equal(remote_backoff_ms(2, 0.5), 1000);
    assert_int_equal(remote_backoff_ms(3, 0.999999), 3999);
    assert_int_equal(remote_backoff_ms(5, 0.5), 8000);
    assert_int_equal(remote_backoff_ms(6, 0.5), 10000);   /* cap 20 s reached */
    assert_int_equal(remote_backoff_ms(30, 0.5), 10000);
    assert_true(remote_backoff_ms(30, 0.9999999) < 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iam_listusers),
        cmocka_unit_test(test_prepared_mac),
        cmocka_unit_test(test_get_vanilla),
        cmocka_unit_test(test_post_vanilla),
        cmocka_unit_test(test_query_order),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_body),
        cmocka_unit_test(test_session_token),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_amz_date),
        cmocka_unit_test(test_backoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
