/*
 * view_builder_pick — the `t` key: one action on the selected item added
 * to the pending transaction (view_builder_txn.c) with no JSON typed.
 * A menu asks which action, one key each:
 *
 *   p put   this item as it is, if it does not exist yet
 *           (attribute_not_exists(PK): following or enrolling twice is
 *           refused)
 *   n new   a new item like this one: the key values are asked, each
 *           pre-filled with this item's, and the other string attributes
 *           that held a changed part of the key follow it (TARGET#bob ->
 *           TARGET#carol makes GSI1PK TARGET#carol too); Put, if it does
 *           not exist yet
 *   1-9     ADD 1 to the item's first numbers (a follower count), if
 *           the item exists
 *   u       ADD N to one of the item's numbers, picked from a list
 *   d       Delete the item, if it exists
 *   c       ConditionCheck: the item must exist
 *
 * The action is made by the builder's own machinery (a builder tree for
 * the condition, update rows, builder_req_typed), so it is the same
 * request `:txn add` makes and the `T` view shows and edits it. The item
 * is read again from the table (the view may show an index's projection).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "model/mem.h"
#include "model/num.h"
#include "model/size.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/view.h"

enum { PICK_PUT, PICK_NEW, PICK_UPDATE, PICK_DELETE, PICK_CHECK, PICK_COUNTER };

/* At most this many numbers offered one key each (1-9). */
#define COUNTERS_MAX 9

/* A tree of one clause, attribute_exists(name) or attribute_not_exists. */
static builder *exists_cond(const char *name, bool exists)
{
    builder *b = builder_new();
    bnode *n = builder_add_clause(b, b->root, 0);
    builder_set_op(n, exists ? BOP_EXISTS : BOP_NOT_EXISTS);
    n->left.kind = BO_PATH;
    builder_path_push(&n->left.path, name, strlen(name));
    return b;
}

/* The key value as the prompt shows it (S as is, N as written, B as
 * base64, which edit_parse_key reads back). */
static void key_text(const av *v, buf *out)
{
    if (v->type == AV_S)
        buf_add(out, v->u.s.ptr, v->u.s.len);
    else
        builder_value_text(v, out);
}

/* Replaces each '#'-separated segment of s equal to from with to; true
 * when one was. */
static bool swap_segments(const char *s, size_t len, const char *from, size_t flen, const char *to,
                          size_t tlen, buf *out)
{
    bool any = false;
    size_t i = 0;
    while (i <= len) {
        size_t j = i;
        while (j < len && s[j] != '#')
            j++;
        if (j - i == flen && memcmp(s + i, from, flen) == 0) {
            buf_add(out, to, tlen);
            any = true;
        } else {
            buf_add(out, s + i, j - i);
        }
        if (j < len)
            buf_addc(out, '#');
        i = j + 1;
    }
    return any;
}

/* The segments where old and new key strings differ: the last segment of
 * each when their segment counts agree and only that one differs (the
 * usual ENTITY#id#sub key); else nothing (*flen 0). */
static void changed_segment(const av *old, const av *new, const char **from, size_t *flen,
                            const char **to, size_t *tlen)
{
    *flen = 0;
    if (old->type != AV_S || new->type != AV_S)
        return;
    const char *a = old->u.s.ptr, *b = new->u.s.ptr;
    size_t al = old->u.s.len, bl = new->u.s.len, i = 0;
    /* The common prefix up to a '#'. */
    size_t cut = 0;
    while (i < al && i < bl && a[i] == b[i]) {
        if (a[i] == '#')
            cut = i + 1;
        i++;
    }
    if (i == al && i == bl)
        return;   /* the same */
    if (memchr(a + cut, '#', al - cut) || memchr(b + cut, '#', bl - cut) || cut == al || cut == bl)
        return;
    *from = a + cut;
    *flen = al - cut;
    *to = b + cut;
    *tlen = bl - cut;
}

/* The other string attributes of item that hold the changed segment of a
 * key attribute follow it (index keys such as GSI1PK). */
static void follow_key(av *item, const table_def *def, const av *old, const av *new)
{
    const char *from, *to;
    size_t flen, tlen;
    changed_segment(old, new, &from, &flen, &to, &tlen);
    if (!flen)
        return;
    for (size_t i = 0; i < item->u.m.len; i++) {
        av_member *m = &item->u.m.v[i];
        if (m->val.type != AV_S || table_def_is_key(def, NULL, m->name))
            continue;
        buf nv = BUF_INIT;
        if (swap_segments(m->val.u.s.ptr, m->val.u.s.len, from, flen, to, tlen, &nv)) {
            av s;
            av_init_s(&s, nv.data ? nv.data : "", nv.len);
            av_done(&m->val);
            m->val = s;
        }
        buf_done(&nv);
    }
}

/* What was typed when a value was refused (slots: the new item's PK and
 * SK, the ADD prompt), for the item it was typed on: the next `t` on that
 * item starts from it, while the status line says what was wrong. */
enum { DRAFT_PK, DRAFT_SK, DRAFT_ADD, DRAFT__COUNT };
static struct {
    char *origin;
    char *text[DRAFT__COUNT];
} draft;

static void draft_clear(void)
{
    free(draft.origin);
    draft.origin = NULL;
    for (int i = 0; i < DRAFT__COUNT; i++) {
        free(draft.text[i]);
        draft.text[i] = NULL;
    }
}

/* The draft of slot i when it was typed on origin; else NULL. */
static const char *draft_of(const char *origin, int i)
{
    return draft.origin && strcmp(draft.origin, origin) == 0 ? draft.text[i] : NULL;
}

static void draft_keep(const char *origin, int i, const char *text)
{
    if (!draft.origin || strcmp(draft.origin, origin) != 0) {
        draft_clear();
        draft.origin = xstrdup(origin);
    }
    free(draft.text[i]);
    draft.text[i] = xstrdup(text);
}

/* "TABLE PK=.. SK=..": the item a draft belongs to. */
static void origin_of(const char *table, const table_def *def, const av *item, buf *out)
{
    buf_printf(out, "%s ", table);
    fmt_key(out, item, def->pk.name, def->sk.name);
}

/* A key value DynamoDB takes: not an empty S or B, within the key size
 * limits (its messages, as the store gives them when the Put runs). */
static status check_key_value(const char *name, const av *v, bool partition, diag *d)
{
    if ((v->type == AV_S || v->type == AV_B) && v->u.s.len == 0)
        return diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. The"
                        " AttributeValue for a key attribute cannot contain an empty %s value."
                        " Key: %s", v->type == AV_S ? "string" : "binary", name);
    return size_check_key(v, partition, d);
}

/* Asks one key value of a new item, from init, until it is one DynamoDB
 * takes: a refused one is asked again with the text kept and the reason
 * above it (and kept as the draft, should the prompt be left). Fills *v;
 * false when the prompt was left. */
static bool ask_key_value(const char *origin, const table_def *def, int i, const char *name,
                          const char *init, char **typed, av *v)
{
    buf label = BUF_INIT, in = BUF_INIT;
    buf_printf(&label, "New item's %s: ", name);
    char *text = xstrdup(init);
    bool ok;
    for (;;) {
        buf_reset(&in);
        ok = display_prompt(label.data, text, &in);
        free(text);
        text = xstrdup(in.data ? in.data : "");
        if (!ok)
            break;
        diag d;
        diag_init(&d);
        v->type = AV_NONE;
        if (edit_parse_key(def, NULL, i == 0, text, v, &d) == ST_OK &&
            check_key_value(name, v, i == 0, &d) == ST_OK)
            break;
        av_done(v);
        buf what = BUF_INIT;
        buf_printf(&what, "New item's %s \"%s\"", name, text);
        display_diag(what.data, d.code, &d);
        buf_done(&what);
        for (int j = 0; j < i; j++)
            if (typed[j])
                draft_keep(origin, j, typed[j]);
        draft_keep(origin, i, text);
    }
    typed[i] = text;
    buf_done(&label);
    buf_done(&in);
    return ok;
}

/* Asks each table key value of a new item, pre-filled with the
 * template's (or with what was typed and refused last time); false when
 * a prompt was left. */
static bool ask_new_key(const char *origin, const table_def *def, av *item)
{
    const key_attr *keys[2] = { &def->pk, def->sk.name ? &def->sk : NULL };
    char *typed[2] = { NULL, NULL };
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        if (!keys[i])
            continue;
        const char *name = keys[i]->name;
        const av *cur = av_map_get(item, name, strlen(name));
        buf init = BUF_INIT;
        if (draft_of(origin, i))
            buf_adds(&init, draft_of(origin, i));
        else if (cur)
            key_text(cur, &init);
        av v = { 0 };
        ok = ask_key_value(origin, def, i, name, init.data ? init.data : "", typed, &v);
        if (ok) {
            av old;
            old.type = AV_NONE;
            if (cur)
                av_copy(&old, cur);
            av_map_put(item, name, strlen(name), &v);
            if (old.type)
                follow_key(item, def, &old, av_map_get(item, name, strlen(name)));
            av_done(&old);
        }
        buf_done(&init);
    }
    free(typed[0]);
    free(typed[1]);
    return ok;
}

/* The item's top-level numbers that are not key attributes. */
static size_t number_names(const table_def *def, const av *item, char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < item->u.m.len && n < max; i++) {
        const av_member *m = &item->u.m.v[i];
        if (m->val.type == AV_N && !table_def_is_key(def, NULL, m->name))
            out[n++] = m->name;
    }
    return n;
}

/* One ADD row: name, by. */
static void add_row(bupdate *u, const char *name, size_t len, const num *by)
{
    baction *a = builder_update_add(u, BU_ADD);
    builder_path_push(&a->path, name, len);
    builder_opnd_set_kind(&a->a, BO_VALUE);
    av_done(&a->a.value);
    av_init_n(&a->a.value, by);
}

/* Asks which number to ADD to, and how much ("NAME [N]", N 1 when not
 * given); fills one ADD row. A refused answer is asked again with the
 * text kept (and kept as the draft). False when left. */
static bool ask_counter(const char *origin, const table_def *def, const av *item, bupdate *u)
{
    char *names[64];
    size_t n = number_names(def, item, names, 64);
    if (!n) {
        display_error("The item has no number to ADD to (c opens the builder for any update)");
        return false;
    }
    buf in = BUF_INIT;
    char *text = xstrdup(draft_of(origin, DRAFT_ADD) ? draft_of(origin, DRAFT_ADD) : names[0]);
    bool ok;
    for (;;) {
        buf_reset(&in);
        ok = display_prompt_pick("ADD to (Tab: its numbers; NAME [N], N 1): ", text, names, n, &in);
        free(text);
        text = xstrdup(in.data ? in.data : "");
        if (!ok)
            break;
        size_t nl = strcspn(text, " ");
        const char *amount = text + nl + strspn(text + nl, " ");
        if (!*amount)
            amount = "1";
        num by;
        diag d;
        diag_init(&d);
        if (!nl) {
            display_error("ADD needs an attribute name");
        } else if (num_parse(amount, strlen(amount), &by, &d) != ST_OK) {
            display_error("ADD %.*s: \"%s\" is not a number", (int)nl, text, amount);
        } else {
            add_row(u, text, nl, &by);
            break;
        }
        draft_keep(origin, DRAFT_ADD, text);
    }
    free(text);
    buf_done(&in);
    return ok;
}

/* The pending action already on the item with this key (0-based), or -1:
 * DynamoDB refuses a transaction with two operations on one item. */
static long action_on(const char *table, const table_def *def, const av *key)
{
    for (size_t i = 0; i < btxn_count(); i++) {
        const ddb_req *a = btxn_act(i);
        if (!a->table || strcmp(a->table, table) != 0)
            continue;
        av k;
        edit_key(def, a->kind == DDB_PUT ? &a->item : &a->key, &k);
        bool same = av_equal(&k, key);
        av_done(&k);
        if (same)
            return (long)i;
    }
    return -1;
}

/* Makes the typed action and appends it; false with a message when the
 * builder refuses it. */
static bool push_action(const char *table, const table_def *def, breq_op op, const av *item,
                        builder *cond, const bupdate *upd)
{
    av key;
    key.type = AV_NONE;
    breq r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.table = table;
    r.all_old_on_fail = true;
    r.cond = cond;
    r.update = upd;
    if (op == BREQ_PUT) {
        r.item = item;
    } else {
        edit_key(def, item, &key);
        r.item = &key;
    }
    av own;
    edit_key(def, item, &own);
    long on = action_on(table, def, &own);
    av_done(&own);
    if (on >= 0) {
        /* DynamoDB's message (TransactWriteItems' ValidationException). */
        display_error("Transaction request cannot include multiple operations on one item (action %ld)",
                      on + 1);
        av_done(&key);
        return false;
    }
    ddb_req act;
    diag d;
    diag_init(&d);
    bool ok = builder_req_typed(&r, &act, &d) == ST_OK;
    if (!ok) {
        display_diag(builder_req_op_name(op), d.code, &d);
    } else {
        buf label = BUF_INIT;
        buf_printf(&label, "%s %s ", builder_req_txn_name(op), table);
        fmt_key(&label, item, def->pk.name, def->sk.name);
        display_message("Added %s (%zu action%s; T shows them)", label.data, btxn_count() + 1,
                        btxn_count() ? "s" : "");
        btxn_push(&act, buf_steal(&label));
        ddb_req_done(&act);
    }
    av_done(&key);
    return ok;
}

/* The menu: put, new, one "ADD 1" per number of the item (keys 1-9),
 * update (any number, any amount), delete, check. *what[i] says which
 * pick line i is (PICK_COUNTER + k: the k-th number). */
static size_t menu_of(const table_def *def, const av *item, char **lines, int *what)
{
    static const struct { int pick; const char *text; } fixed[] = {
        { PICK_PUT, "p  Put this item, if it does not exist yet" },
        { PICK_NEW, "n  New item like this one (key values asked), if it does not exist" },
        { PICK_UPDATE, "u  Update: ADD N to a number (asked), if the item exists" },
        { PICK_DELETE, "d  Delete this item, if it exists" },
        { PICK_CHECK, "c  ConditionCheck: this item must exist" },
    };
    char *names[COUNTERS_MAX];
    size_t nn = number_names(def, item, names, COUNTERS_MAX), n = 0;
    for (size_t i = 0; i < 2; i++) {
        lines[n] = xstrdup(fixed[i].text);
        what[n++] = fixed[i].pick;
    }
    for (size_t k = 0; k < nn; k++) {
        buf b = BUF_INIT;
        buf_printf(&b, "%zu  Update: ADD 1 to %s, if the item exists", k + 1, names[k]);
        lines[n] = buf_steal(&b);
        what[n++] = PICK_COUNTER + (int)k;
    }
    for (size_t i = 2; i < sizeof fixed / sizeof fixed[0]; i++) {
        lines[n] = xstrdup(fixed[i].text);
        what[n++] = fixed[i].pick;
    }
    return n;
}

/* Asks what to do with item (the stored one) and adds it. */
static void add_for(const char *table, const table_def *def, av *item)
{
    char *lines[5 + COUNTERS_MAX];
    int what[5 + COUNTERS_MAX];
    size_t n = menu_of(def, item, lines, what);
    int at = display_menu("Add to the transaction (a key, or Enter): ", lines, n);
    int pick = at >= 0 ? what[at] : -1;
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    if (pick < 0)
        return;
    buf origin = BUF_INIT;
    origin_of(table, def, item, &origin);
    bool exists = pick != PICK_PUT && pick != PICK_NEW;
    builder *cond = exists_cond(def->pk.name, exists);
    bupdate upd;
    builder_update_init(&upd);
    bool ok = true;
    breq_op op = exists ? BREQ_UPDATE : BREQ_PUT;
    if (pick == PICK_NEW) {
        ok = ask_new_key(origin.data, def, item);
    } else if (pick == PICK_UPDATE) {
        ok = ask_counter(origin.data, def, item, &upd);
    } else if (pick >= PICK_COUNTER) {
        char *names[COUNTERS_MAX];
        number_names(def, item, names, COUNTERS_MAX);
        num one;
        diag d;
        diag_init(&d);
        num_parse("1", 1, &one, &d);
        add_row(&upd, names[pick - PICK_COUNTER], strlen(names[pick - PICK_COUNTER]), &one);
    } else if (pick == PICK_DELETE) {
        op = BREQ_DELETE;
    } else if (pick == PICK_CHECK) {
        op = BREQ_CHECK;
    }
    if (ok && push_action(table, def, op, item, cond, &upd))
        draft_clear();
    builder_free(cond);
    builder_update_done(&upd);
    buf_done(&origin);
}

void view_txn_add(view *from)
{
    cond_arg a = { 0 };
    if (from && from->ops->context)
        from->ops->context(from, &a);
    if (!a.table || !a.item || a.item->type != AV_M) {
        display_error("t adds the selected item to a transaction: select an item first");
        return;
    }
    store_info info;
    store_get_info(display_store(), &info);
    if (!info.writable) {
        /* Said before anything is typed, not when the transaction runs. */
        if (info.remote)
            display_error("%s is read-only: start ddbx with --write to write", info.where);
        else
            display_error("The database is read-only (--read-only): t adds writes");
        return;
    }
    table_def def;
    diag d;
    diag_init(&d);
    status st = store_describe(display_store(), a.table, &def, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    av item;
    item.type = AV_NONE;
    if (edit_get_item(a.table, &def, a.item, &item))
        add_for(a.table, &def, &item);
    av_done(&item);
    table_def_free(&def);
}
