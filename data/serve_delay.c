/*
 * serve_delay — transient index statuses held (data/serve_delay.h).
 */
#include "data/serve_delay.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

enum { CREATE, DELETE };

typedef struct entry {
    char *db, *table, *index;
    int kind;
    double t0;
    char *desc;               /* DELETE: the index's description as UpdateTable answered it */
    struct entry *next;
} entry;

struct serve_delay {
    pthread_mutex_t lock;
    entry *head;              /* under lock */
};

serve_delay *serve_delay_new(void)
{
    serve_delay *t = xcalloc(1, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

static void entry_free(entry *e)
{
    free(e->db);
    free(e->table);
    free(e->index);
    free(e->desc);
    free(e);
}

void serve_delay_free(serve_delay *t)
{
    if (!t)
        return;
    while (t->head) {
        entry *e = t->head;
        t->head = e->next;
        entry_free(e);
    }
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static bool of(const entry *e, const char *db, const char *table)
{
    return strcmp(e->db, db) == 0 && strcmp(e->table, table) == 0;
}

/* Drops the entries of (db, table), or only those past their window
 * (all false). Under lock. */
static void drop(serve_delay *t, const char *db, const char *table, bool all, double now)
{
    for (entry **p = &t->head; *p;) {
        entry *e = *p;
        double span = e->kind == CREATE ? 2 * SERVE_DELAY_STEP : SERVE_DELAY_STEP;
        if (of(e, db, table) && (all || now - e->t0 >= span)) {
            *p = e->next;
            entry_free(e);
        } else {
            p = &e->next;
        }
    }
}

static const char *str_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void set(cJSON *o, const char *name, cJSON *v)
{
    if (cJSON_GetObjectItemCaseSensitive(o, name))
        cJSON_ReplaceItemInObjectCaseSensitive(o, name, v);
    else
        cJSON_AddItemToObject(o, name, v);
}

/* UpdateTable's answer: an index it shows CREATING or DELETING starts
 * its window. Under lock. */
static void start(serve_delay *t, const char *db, const char *table, const cJSON *list, double now)
{
    const cJSON *g;
    cJSON_ArrayForEach(g, list) {
        const char *name = str_of(g, "IndexName"), *st = str_of(g, "IndexStatus");
        if (!name || !st || (strcmp(st, "CREATING") != 0 && strcmp(st, "DELETING") != 0))
            continue;
        entry *e = xcalloc(1, sizeof *e);
        e->db = xstrdup(db);
        e->table = xstrdup(table);
        e->index = xstrdup(name);
        e->kind = st[0] == 'C' ? CREATE : DELETE;
        e->t0 = now;
        if (e->kind == DELETE)
            e->desc = cJSON_PrintUnformatted(g);
        e->next = t->head;
        t->head = e;
    }
}

/* The table description td as DynamoDB Local shows it while its
 * windows last; true when anything changed. Under lock. */
static bool hold(serve_delay *t, const char *db, const char *table, cJSON *td, double now)
{
    bool changed = false;
    for (entry *e = t->head; e; e = e->next) {
        if (!of(e, db, table))
            continue;
        cJSON *list = cJSON_GetObjectItemCaseSensitive(td, "GlobalSecondaryIndexes");
        cJSON *g = NULL, *it;
        cJSON_ArrayForEach(it, list) {
            const char *n = str_of(it, "IndexName");
            if (n && strcmp(n, e->index) == 0)
                g = it;
        }
        if (e->kind == CREATE && g) {
            set(g, "IndexStatus", cJSON_CreateString("CREATING"));
            set(g, "Backfilling", cJSON_CreateBool(now - e->t0 >= SERVE_DELAY_STEP));
            changed = true;
        } else if (e->kind == DELETE && !g && e->desc) {
            cJSON *back = cJSON_Parse(e->desc);
            if (!back)
                continue;
            if (!list)
                list = cJSON_AddArrayToObject(td, "GlobalSecondaryIndexes");
            set(back, "IndexStatus", cJSON_CreateString("DELETING"));
            cJSON_AddItemToArray(list, back);
            changed = true;
        }
    }
    return changed;
}

void serve_delay_apply(serve_delay *t, const char *db, const char *op, serve_reply *r, double now)
{
    bool update = strcmp(op, "UpdateTable") == 0, describe = strcmp(op, "DescribeTable") == 0;
    bool ends = strcmp(op, "DeleteTable") == 0 || strcmp(op, "CreateTable") == 0;
    if (!t || r->http_status != 200 || !r->body || !(update || describe || ends))
        return;
    cJSON *root = cJSON_ParseWithLength(r->body, r->len);
    cJSON *td = cJSON_GetObjectItemCaseSensitive(root, describe ? "Table" : "TableDescription");
    const char *table = str_of(td, "TableName");
    if (!table) {
        cJSON_Delete(root);
        return;
    }
    pthread_mutex_lock(&t->lock);
    drop(t, db, table, ends, now);
    if (update)
        start(t, db, table, cJSON_GetObjectItemCaseSensitive(td, "GlobalSecondaryIndexes"), now);
    bool changed = !ends && hold(t, db, table, td, now);
    pthread_mutex_unlock(&t->lock);
    if (changed) {
        char *body = cJSON_PrintUnformatted(root);
        if (body) {
            free(r->body);
            r->body = body;
            r->len = strlen(body);
            r->crc32 = serve_crc32(body, r->len);
        }
    }
    cJSON_Delete(root);
}
