/*
 * samples: the bundled tables load, and every access pattern from the
 * articles is ONE Query or GetItem through store_call (the DynamoDB API),
 * never a Scan. Also: counters agree with the edges, the celebrity's
 * sharded GSI partitions are the hot ones, every DynamoDB type occurs,
 * and loading again replaces rather than duplicates.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/samples.h"
#include "data/store.h"
#include "model/av.h"

static char db_path[64];

static int setup(void **state)
{
    snprintf(db_path, sizeof db_path, "/tmp/ddbx-samples-%d.db", (int)getpid());
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(db_path, 0, &s, &d) != ST_OK)
        return -1;
    size_t tables = 0, items = 0;
    if (samples_load(s, &tables, &items, &d) != ST_OK) {
        fprintf(stderr, "samples_load: %s: %s (%s)\n", d.file, d.msg, d.path);
        store_close(s);
        return -1;
    }
    if (tables != 4 || items < 4000)
        return -1;
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char p[80];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return 0;
}

/* One API call; returns the parsed response (the caller deletes it). */
static cJSON *call(store *s, const char *op, const char *input)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status rc = store_call(s, op, input, strlen(input), &out, &d);
    if (rc != ST_OK)
        fprintf(stderr, "%s failed: %s: %s\n", op, status_name(rc), d.msg);
    assert_int_equal(rc, ST_OK);
    cJSON *j = cJSON_Parse(out);
    free(out);
    assert_non_null(j);
    return j;
}

/*
 * One Query, written as the articles write it: KeyConditionExpression
 * "#pk = :pk" and, when skname is set, "AND begins_with(#sk, :sk)". It
 * reads only what it returns (ScannedCount == Count): no Scan, no filter.
 */
static cJSON *query(store *s, const char *table, const char *index, const char *pkname,
                    const char *pk, const char *skname, const char *skprefix, bool count_only)
{
    cJSON *in = cJSON_CreateObject();
    cJSON_AddStringToObject(in, "TableName", table);
    if (index)
        cJSON_AddStringToObject(in, "IndexName", index);
    if (count_only)
        cJSON_AddStringToObject(in, "Select", "COUNT");
    cJSON_AddStringToObject(in, "KeyConditionExpression",
                            skname ? "#pk = :pk AND begins_with(#sk, :sk)" : "#pk = :pk");
    cJSON *names = cJSON_AddObjectToObject(in, "ExpressionAttributeNames");
    cJSON *vals = cJSON_AddObjectToObject(in, "ExpressionAttributeValues");
    cJSON_AddStringToObject(names, "#pk", pkname);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(vals, ":pk"), "S", pk);
    if (skname) {
        cJSON_AddStringToObject(names, "#sk", skname);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(vals, ":sk"), "S", skprefix);
    }
    char *text = cJSON_PrintUnformatted(in);
    cJSON *r = call(s, "Query", text);
    free(text);
    cJSON_Delete(in);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "Count");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(r, "ScannedCount");
    assert_non_null(c);
    assert_non_null(sc);
    assert_int_equal(c->valueint, sc->valueint);
    assert_null(cJSON_GetObjectItemCaseSensitive(r, "LastEvaluatedKey"));
    return r;
}

/* The S value of attribute name in each item of Items, joined by ','. */
static void column(const cJSON *resp, const char *name, char *out, size_t cap)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(resp, "Items");
    const cJSON *it;
    out[0] = '\0';
    cJSON_ArrayForEach(it, items) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, name);
        const cJSON *v = a ? a->child : NULL;
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", n ? "," : "", v && cJSON_IsString(v) ? v->valuestring : "-");
    }
}

static int count(const cJSON *resp)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(resp, "Count");
    assert_non_null(c);
    return c->valueint;
}

static void alice_followees(void **state)
{
    char col[512];
    cJSON *r = query(*state, "SocialGraph", NULL, "PK", "ACTOR#alice", "SK", "TARGET#", false);
    column(r, "SK", col, sizeof col);
    assert_string_equal(col, "TARGET#bob,TARGET#carol,TARGET#star");
    cJSON_Delete(r);
}

static void bob_followers_through_gsi1(void **state)
{
    char col[512];
    cJSON *r = query(*state, "SocialGraph", "GSI1", "GSI1PK", "TARGET#bob", NULL, NULL, false);
    column(r, "GSI1SK", col, sizeof col);
    assert_string_equal(col, "ACTOR#alice,ACTOR#dave");
    cJSON_Delete(r);
    /* The same with the legacy KeyConditions parameter. */
    r = call(*state, "Query",
        "{\"TableName\":\"SocialGraph\",\"IndexName\":\"GSI1\",\"KeyConditions\":{\"GSI1PK\":"
        "{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"TARGET#bob\"}]}}}");
    column(r, "PK", col, sizeof col);
    assert_string_equal(col, "ACTOR#alice,ACTOR#dave");
    cJSON_Delete(r);
}

static void does_alice_follow_bob(void **state)
{
    cJSON *r = call(*state, "GetItem",
        "{\"TableName\":\"SocialGraph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
        "\"SK\":{\"S\":\"TARGET#bob\"}}}");
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(r, "Item");
    assert_non_null(item);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(item, "followedAt"));
    cJSON_Delete(r);
    /* and bob does not follow alice */
    r = call(*state, "GetItem",
        "{\"TableName\":\"SocialGraph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#bob\"},"
        "\"SK\":{\"S\":\"TARGET#alice\"}}}");
    assert_null(cJSON_GetObjectItemCaseSensitive(r, "Item"));
    cJSON_Delete(r);
}

/* followerCount/followingCount on each hand-written profile agree with
 * the edges, counted with Select COUNT queries (the star's followers over
 * its write shards). */
static int query_count(store *s, const char *index, const char *keyname, const char *key,
                       const char *skprefix)
{
    cJSON *r = query(s, "SocialGraph", index, keyname, key, skprefix ? "SK" : NULL, skprefix, true);
    int n = count(r);
    cJSON_Delete(r);
    return n;
}

static int profile_number(store *s, const char *who, const char *attr)
{
    char in[512];
    snprintf(in, sizeof in, "{\"TableName\":\"SocialGraph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#%s\"},"
                            "\"SK\":{\"S\":\"PROFILE\"}}}", who);
    cJSON *r = call(s, "GetItem", in);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(r, "Item"), attr);
    assert_non_null(a);
    int n = atoi(cJSON_GetObjectItemCaseSensitive(a, "N")->valuestring);
    cJSON_Delete(r);
    return n;
}

static void counters_match_edges(void **state)
{
    store *s = *state;
    const char *people[] = { "alice", "bob", "carol", "dave", "minji", "\xed\x95\x98\xeb\x8a\x98" };
    for (size_t i = 0; i < sizeof people / sizeof people[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "ACTOR#%s", people[i]);
        assert_int_equal(profile_number(s, people[i], "followingCount"),
                         query_count(s, NULL, "PK", key, "TARGET#"));
        snprintf(key, sizeof key, "TARGET#%s", people[i]);
        assert_int_equal(profile_number(s, people[i], "followerCount"),
                         query_count(s, "GSI1", "GSI1PK", key, NULL));
    }
    int shards = profile_number(s, "star", "followerShards"), total = 0;
    assert_int_equal(shards, 8);
    for (int k = 0; k < shards; k++) {
        char key[64];
        snprintf(key, sizeof key, "TARGET#star#%d", k);
        int n = query_count(s, "GSI1", "GSI1PK", key, NULL);
        assert_true(n > 200);        /* every shard is hot */
        total += n;
    }
    assert_true(total >= 2000);
    assert_int_equal(profile_number(s, "star", "followerCount"), total);
}

static void hot_partitions_are_the_star_shards(void **state)
{
    part_info parts[8];
    size_t n = 0;
    diag d;
    diag_init(&d);
    assert_int_equal(store_partitions_by_size(*state, "SocialGraph", "GSI1", 8, parts, &n, &d),
                     ST_OK);
    assert_int_equal(n, 8);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(parts[i].pk.type, AV_S);
        assert_true(strncmp(parts[i].pk.u.s.ptr, "TARGET#star#", 12) == 0);
        assert_true(parts[i].items > 200);
        av_done(&parts[i].pk);
    }
}

/* One partition's size by its key (what the query bar predicts a Query's
 * capacity from): the same figures the partition list gives; a key with
 * no item is not found; an index's partition is the index's own. */
static void one_partition_by_key(void **state)
{
    part_info parts[4], one;
    size_t n = 0;
    bool found = false;
    diag d;
    diag_init(&d);
    assert_int_equal(store_partitions(*state, "SocialGraph", NULL, NULL, false, 4, parts, &n, &d), ST_OK);
    assert_true(n >= 2);
    assert_int_equal(store_partition(*state, "SocialGraph", NULL, &parts[1].pk, &one, &found, &d), ST_OK);
    assert_true(found);
    assert_true(av_equal(&one.pk, &parts[1].pk));
    assert_int_equal(one.items, parts[1].items);
    assert_int_equal(one.bytes, parts[1].bytes);
    assert_true(one.bytes > 0);
    av_done(&one.pk);
    for (size_t i = 0; i < n; i++)
        av_done(&parts[i].pk);
    av none;
    av_init_s(&none, "ACTOR#nobody", 12);
    assert_int_equal(store_partition(*state, "SocialGraph", NULL, &none, &one, &found, &d), ST_OK);
    assert_false(found);
    av_done(&none);
    av bob;
    av_init_s(&bob, "TARGET#bob", 10);
    assert_int_equal(store_partition(*state, "SocialGraph", "GSI1", &bob, &one, &found, &d), ST_OK);
    assert_true(found);
    assert_int_equal(one.items, 2);   /* alice and dave follow bob */
    av_done(&one.pk);
    av_done(&bob);
    assert_int_equal(store_partition(*state, "SocialGraph", "NoSuchIndex", &bob, &one, &found, &d),
                     ST_VALIDATION);
}

static void student_profile_and_courses(void **state)
{
    char col[512];
    cJSON *r = query(*state, "StudentCourses", NULL, "PK", "STU#a91", NULL, NULL, false);
    column(r, "SK", col, sizeof col);
    assert_string_equal(col, "ENROLL#CRS#cs101,ENROLL#CRS#kor110,ENROLL#CRS#math204,PROFILE");
    column(r, "grade", col, sizeof col);
    assert_string_equal(col, "A,,A-,-");     /* kor110 not graded yet: "" */
    cJSON_Delete(r);
}

static void course_roster_through_gsi1(void **state)
{
    char col[512];
    cJSON *r = query(*state, "StudentCourses", "GSI1", "GSI1PK", "CRS#math204", NULL, NULL, false);
    column(r, "GSI1SK", col, sizeof col);
    assert_string_equal(col, "STU#a91,STU#b07,STU#c12");
    column(r, "grade", col, sizeof col);
    assert_string_equal(col, "A-,B,A+");
    cJSON_Delete(r);

    /* The KEYS_ONLY roster: by enrolment date, keys only. */
    r = query(*state, "StudentCourses", "Roster", "GSI1PK", "CRS#math204", NULL, NULL, false);
    column(r, "PK", col, sizeof col);
    assert_string_equal(col, "STU#b07,STU#a91,STU#c12");
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "Items"), 0);
    assert_int_equal(cJSON_GetArraySize(first), 4);   /* PK, SK, GSI1PK, enrolledOn */
    assert_null(cJSON_GetObjectItemCaseSensitive(first, "grade"));
    cJSON_Delete(r);
}

static void song_details_and_downloads(void **state)
{
    char col[512];
    cJSON *r = query(*state, "Music", NULL, "PK", "s#song1", NULL, NULL, false);
    column(r, "SK", col, sizeof col);
    assert_string_equal(col, "A,A#downloads,d#download-1,d#download-2,d#download-4");
    column(r, "title", col, sizeof col);
    assert_string_equal(col, "How Much Is The Fish?,-,-,-,-");
    /* the counter agrees with the download records */
    const cJSON *counter = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "Items"), 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(counter, "count"), "N")->valuestring, "3");
    cJSON_Delete(r);

    /* Overloaded GSI1: artist -> titles, download id -> song. */
    r = query(*state, "Music", "GSI1", "GSI1PK", "Scooter", NULL, NULL, false);
    column(r, "GSI1SK", col, sizeof col);
    assert_string_equal(col, "How Much Is The Fish?,Ramp! (The Logical Song)");
    cJSON_Delete(r);
    r = query(*state, "Music", "GSI1", "GSI1PK", "d#download-3", NULL, NULL, false);
    column(r, "PK", col, sizeof col);
    assert_string_equal(col, "s#song2");
    cJSON_Delete(r);
}

static void january_profile_changes(void **state)
{
    char col[512];
    cJSON *r = query(*state, "ProfileHistory", NULL, "user_id", "aman_dhingra", "update_timestamp",
                     "2024-01", false);
    column(r, "update_timestamp", col, sizeof col);
    assert_string_equal(col, "2024-01-13T14:37:07.999Z,2024-01-28T08:05:31.120Z");
    cJSON_Delete(r);
    /* The month boundary: the last instant of January is in, February out. */
    r = query(*state, "ProfileHistory", NULL, "user_id", "seoyeon_park", "update_timestamp",
              "2024-01", false);
    assert_int_equal(count(r), 1);
    cJSON_Delete(r);
}

static void mark_types(const av *v, unsigned *seen, int depth)
{
    *seen |= 1u << v->type;
    if (v->type == AV_M)
        for (size_t i = 0; i < v->u.m.len; i++)
            mark_types(&v->u.m.v[i].val, seen, depth + 1);
    if (v->type == AV_L)
        for (size_t i = 0; i < v->u.l.len; i++)
            mark_types(&v->u.l.v[i], seen, depth + 1);
}

/* Every DynamoDB type occurs in the samples, at the top level and nested;
 * a 38-digit number and an empty string are among the values. */
static void every_type_occurs(void **state)
{
    store *s = *state;
    const char *tables[] = { "Music", "ProfileHistory", "SocialGraph", "StudentCourses" };
    unsigned seen = 0;
    bool big = false, empty = false;
    for (size_t t = 0; t < 4; t++) {
        part_info parts[64];
        size_t np = 0;
        diag d;
        diag_init(&d);
        assert_int_equal(store_partitions(s, tables[t], NULL, NULL, false, 64, parts, &np, &d), ST_OK);
        for (size_t i = 0; i < np; i++) {
            av items[64];
            size_t ni = 0;
            assert_int_equal(store_page(s, tables[t], NULL, &parts[i].pk, NULL, true, 64, items,
                                        &ni, &d), ST_OK);
            for (size_t j = 0; j < ni; j++) {
                mark_types(&items[j], &seen, 0);
                for (size_t k = 0; k < items[j].u.m.len; k++) {
                    const av *v = &items[j].u.m.v[k].val;
                    if (v->type == AV_N && num_digits(&v->u.n) == 38)
                        big = true;
                    if (v->type == AV_S && v->u.s.len == 0)
                        empty = true;
                }
                av_done(&items[j]);
            }
            av_done(&parts[i].pk);
        }
    }
    for (int ty = AV_S; ty <= AV_BS; ty++)
        if (!(seen & (1u << ty)))
            fail_msg("type %s does not occur in the samples", av_type_name((av_type)ty));
    assert_true(big);
    assert_true(empty);
}

static void reload_replaces(void **state)
{
    store *s = *state;
    table_stats before, after;
    diag d;
    diag_init(&d);
    assert_int_equal(store_stats(s, "SocialGraph", NULL, &before, &d), ST_OK);
    size_t tables = 0, items = 0;
    assert_int_equal(samples_load(s, &tables, &items, &d), ST_OK);
    assert_int_equal(store_stats(s, "SocialGraph", NULL, &after, &d), ST_OK);
    assert_int_equal(before.items, after.items);
    assert_int_equal(before.partitions, after.partitions);
    assert_non_null(samples_find("Music"));
    assert_non_null(samples_find("Music.json"));
    assert_null(samples_find("Nope"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alice_followees),
        cmocka_unit_test(bob_followers_through_gsi1),
        cmocka_unit_test(does_alice_follow_bob),
        cmocka_unit_test(counters_match_edges),
        cmocka_unit_test(hot_partitions_are_the_star_shards),
        cmocka_unit_test(student_profile_and_courses),
        cmocka_unit_test(course_roster_through_gsi1),
        cmocka_unit_test(song_details_and_downloads),
        cmocka_unit_test(january_profile_changes),
        cmocka_unit_test(every_type_occurs),
        cmocka_unit_test(one_partition_by_key),
        cmocka_unit_test(reload_replaces),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
