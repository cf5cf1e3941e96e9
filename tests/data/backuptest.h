/*
 * backuptest.h — what the backup and recovery tests share: moments a few
 * ms apart, the last JSON answer as cJSON (callstore.h's out_text), a
 * table's items or a reader's as one normalised JSON text for comparing,
 * the index consistency check, and SQLite peeks at the test's file.
 * Static inline (a program need not use them all), for inclusion after
 * <cmocka.h>, tmpstore.h and callstore.h.
 */
#ifndef DDBX_TEST_BACKUPTEST_H
#define DDBX_TEST_BACKUPTEST_H

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <time.h>

#include "data/store_backup.h"
#include "model/ddbjson.h"

static inline void pause_ms(int ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static inline int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A moment strictly between what came before and what comes after. */
static inline int64_t moment(void)
{
    pause_ms(4);
    int64_t t = now_ms();
    pause_ms(4);
    return t;
}

static inline cJSON *answer(void)
{
    cJSON *o = cJSON_Parse(out_text);
    assert_non_null(o);
    return o;
}

/* A member by dotted path ("Table.GlobalSecondaryIndexes.0.IndexName"). */
static inline const cJSON *get(const cJSON *o, const char *where)
{
    char text[256];
    snprintf(text, sizeof text, "%s", where);
    for (char *part = strtok(text, "."); part && o; part = strtok(NULL, "."))
        o = (*part >= '0' && *part <= '9') ? cJSON_GetArrayItem(o, atoi(part))
                                            : cJSON_GetObjectItemCaseSensitive(o, part);
    return o;
}

/* JSON text as cJSON prints it (malloc'd), so two texts compare. */
static inline char *normal(const char *json)
{
    cJSON *o = cJSON_Parse(json);
    assert_non_null(o);
    char *t = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return t;
}

/* A table's items as Scan returns them (key order). */
static inline char *scan_items(store *s, const char *table)
{
    char body[128];
    snprintf(body, sizeof body, "{\"TableName\":\"%s\"}", table);
    ok(s, "Scan", body);
    cJSON *o = answer();
    char *t = cJSON_PrintUnformatted(get(o, "Items"));
    cJSON_Delete(o);
    return t;
}

/* A reader read to its end in pages of `page`, normalised as above. */
static inline char *drain(store_items *r, size_t page)
{
    buf b = BUF_INIT;
    buf_addc(&b, '[');
    av items[16];
    size_t n, total = 0;
    diag d;
    diag_init(&d);
    assert_true(page <= 16);
    do {
        assert_int_equal(store_items_next(r, page, items, &n, &d), ST_OK);
        for (size_t i = 0; i < n; i++) {
            buf_adds(&b, total++ ? "," : "");
            ddbjson_write_item(&b, &items[i]);
            av_done(&items[i]);
        }
    } while (n == page);
    buf_addc(&b, ']');
    char *t = normal(b.data);
    buf_done(&b);
    return t;
}

static inline void index_consistent(store *s, const char *table)
{
    char *problems = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_index_check(s, table, &problems, &d), ST_OK);
    if (problems)
        fail_msg("%s: %s", table, problems);
}

/* One number the file holds, read by SQLite on a connection of its own. */
static inline long long sql_number(const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    long long v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

static inline void sql_exec(const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    sqlite3_close(db);
}

#endif
