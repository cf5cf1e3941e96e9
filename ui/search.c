#include "ui/search.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_search.h"
#include "data/store_wscan.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/prices.h"
#include "ui/text.h"

/* Lines the lines search keeps loaded beyond the window it started from
 * (views other than the table view, whose search goes to the store). */
#define LINES_KEEP 400
/* Items the store examines between two looks at the keyboard: small
 * enough that Esc answers at once, large enough that 200,000 items take
 * a few chunks. A remote Scan page is DynamoDB's 1 MB (CHUNK_REMOTE is
 * not used there). */
#define CHUNK_LOCAL 20000
#define CHUNK_REMOTE 1000

static buf text_;
/* The tables (and indexes) a remote search was allowed to read, asked
 * once a session: "TABLE\tINDEX\n" lines. */
static buf approved_;

void search_set(const char *text, size_t len)
{
    buf_reset(&text_);
    buf_add(&text_, text, len);
}

static void segs_reset(void);

void search_done(void)
{
    segs_reset();
    buf_done(&approved_);
    buf_done(&text_);
}

/* ---- the other views: their lines ------------------------------------ */

/* Searches from the selection on, through the whole view (its `more`
 * loads past the window, however far). The window the search starts
 * from is kept while it reads on, the lines read in between dropped as
 * it goes; so "Not found" leaves the selection, and the lines around it,
 * as they were. */
static void search_lines(view *v, int dir)
{
    if (!v->ops->text) {
        display_error("This view cannot be searched");
        return;
    }
    buf t = BUF_INIT;
    vm *m = &v->vm;
    long i = (long)m->cursor;
    size_t orig = m->n;    /* the starting window's lines */
    bool cut = false;      /* lines between it and i were dropped */
    bool found = false;
    for (;;) {
        i += dir;
        if (i >= (long)m->n) {
            size_t add = v->ops->more ? v->ops->more(v, 1) : 0;
            if (add == 0)
                break;
        }
        if (i < 0) {
            size_t add = v->ops->more ? v->ops->more(v, -1) : 0;
            if (add == 0)
                break;
            i += (long)add;
        }
        buf_reset(&t);
        v->ops->text(v, (size_t)i, &t);
        if (text_find(t.data ? t.data : "", t.len, text_.data, text_.len) >= 0) {
            found = true;
            break;
        }
        /* The window must not grow without bound during a long search:
         * what was read between the start and the last lines goes. */
        size_t keep = LINES_KEEP;
        if (m->n > orig + 4 * keep && v->ops->more) {
            if (dir > 0 && (size_t)i > orig + keep) {
                size_t drop = (size_t)i - keep - orig;
                vm_cut(m, orig, orig + drop);
                i -= (long)drop;
                cut = true;
            } else if (dir < 0 && m->n - orig > (size_t)i + keep) {
                vm_cut(m, (size_t)i + keep, m->n - orig);
                cut = true;
            }
        }
    }
    buf_done(&t);
    if (found) {
        /* The starting window is not next to the match any more. */
        if (cut && dir > 0) {
            vm_trim(m, orig, m->n);
            i -= (long)orig;
        } else if (cut) {
            vm_trim(m, 0, m->n - orig);
        }
        vm_select(m, (size_t)i);
        vm_center(m, m->rows / 3);
        display_fill(v);
        display_message("/%s", text_.data);
    } else {
        /* Back to the window it started from, the selection unmoved. */
        if (dir > 0)
            vm_trim(m, 0, orig);
        else
            vm_trim(m, m->n - orig, m->n);
        size_t top = m->top;
        vm_select(m, m->cursor);
        vm_set_top(m, top);
        display_fill(v);
        display_error("Not found: %s (the selection stays)", text_.data);
    }
}

/* ---- the table view: the store --------------------------------------- */

typedef enum { S_FOUND, S_NONE, S_STOPPED, S_FAILED } outcome;

/* One pass from after (NULL: the start) to the end of the view's order,
 * in chunks; the match goes to *match. */
static outcome pass(const cond_arg *where, const av *after, int dir, uint64_t *seen, av *match)
{
    store *st = display_store();
    store_info info;
    store_get_info(st, &info);
    store_search_req rq = { where->table, where->index, after, dir < 0, text_.data, text_.len,
                            info.remote ? CHUNK_REMOTE : CHUNK_LOCAL };
    store_search_res res;
    store_search_res_init(&res);
    av resume = { 0 };
    outcome o;
    for (;;) {
        diag d;
        diag_init(&d);
        if (store_search(st, &rq, &res, &d) != ST_OK) {
            display_diag("Search", d.code, &d);
            o = S_FAILED;
            break;
        }
        *seen += res.examined;
        if (res.found) {
            av_move(match, &res.item);
            o = S_FOUND;
            break;
        }
        if (res.end) {
            o = S_NONE;
            break;
        }
        av_done(&resume);
        av_move(&resume, &res.resume);
        rq.after = &resume;
        display_message("Searching for %s: %llu item%s read%s (Esc stops)", text_.data,
                        (unsigned long long)*seen, *seen == 1 ? "" : "s",
                        info.remote ? " with Scan pages" : "");
        display_refresh();
        if (term_interrupted()) {
            o = S_STOPPED;
            break;
        }
    }
    store_search_res_done(&res);
    av_done(&resume);
    return o;
}

/* The first item of partition pk in the view, or false. */
static bool first_item(const cond_arg *where, const av *pk, av *out)
{
    diag d;
    size_t n = 0;
    diag_init(&d);
    if (store_page(display_store(), where->table, where->index, pk, NULL, true, 1, out, &n,
                   &d) != ST_OK) {
        display_diag(NULL, d.code, &d);
        return false;
    }
    return n == 1;
}

/* On an endpoint a search may read the whole table, with Scan pages that
 * are paid for: the first search of a table says what that costs
 * (DescribeTable's size) and asks (issue 42). */
static bool may_read_all(const cond_arg *where)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (!info.remote)
        return true;
    buf key = BUF_INIT;
    buf_printf(&key, "%s\t%s\n", where->table, where->index ? where->index : "");
    bool ok = approved_.data && strstr(approved_.data, key.data) != NULL;
    if (!ok) {
        buf cost = BUF_INIT;
        prices_read_all_plan(where->table, where->index, &cost);
        ok = display_confirm("Search %s%s%s with Scan pages: up to the whole of it, %s (asked once)?",
                             where->table, where->index ? " " : "", where->index ? where->index : "",
                             cost.data);
        buf_done(&cost);
        if (ok)
            buf_add(&approved_, key.data, key.len);
        else
            display_message("Search not run: nothing was read");
    }
    buf_done(&key);
    return ok;
}

/* ---- the table view on an endpoint: parallel Scan segments ------------ */

/* A remote search of a table of more than one 1 MB page reads it in
 * parallel Scan segments (data/store_wscan.h), round by round: the first
 * match read is the one shown (every segment's first page, in segment
 * order, then every second page...), however far the other segments are;
 * the matches met are kept for n (which goes to the next one without
 * reading again, and past the last wraps to the first).
 * Its key: "TABLE\tINDEX\tTEXT". */
static buf segs_key_;
static store_wscan *segs_;      /* NULL: every segment read */
static av *segs_hit_;           /* the matches met so far */
static size_t segs_n_, segs_cap_;
static long segs_at_ = -1;      /* the one shown last */

static void segs_reset(void)
{
    store_wscan_free(segs_);
    segs_ = NULL;
    for (size_t i = 0; i < segs_n_; i++)
        av_done(&segs_hit_[i]);
    free(segs_hit_);
    segs_hit_ = NULL;
    segs_n_ = segs_cap_ = 0;
    segs_at_ = -1;
    buf_reset(&segs_key_);
}

static bool matches(void *ctx, const av *item)
{
    (void)ctx;
    return store_search_item_matches(item, text_.data, text_.len);
}

/* Are a and b the same item of the table (its key attributes equal)? */
static bool same_item(const table_def *def, const av *a, const av *b)
{
    const key_attr *k[2] = { &def->pk, &def->sk };
    for (int i = 0; i < 2; i++) {
        if (!k[i]->name)
            continue;
        size_t n = strlen(k[i]->name);
        const av *x = av_map_get(a, k[i]->name, n), *y = av_map_get(b, k[i]->name, n);
        if (!x || !y || !av_equal(x, y))
            return false;
    }
    return true;
}

/* Reads rounds until match `want` is met, every segment is read, Esc,
 * or an error (shown). */
static outcome segs_read(size_t want)
{
    store_wscan_stats ss;
    while (segs_ && segs_n_ <= want) {
        av *items;
        size_t n;
        bool end;
        diag d;
        diag_init(&d);
        if (store_wscan_next(segs_, &items, &n, &end, &d) != ST_OK) {
            display_diag("Search", d.code, &d);
            return S_FAILED;
        }
        for (size_t i = 0; i < n; i++) {
            if (segs_n_ == segs_cap_) {
                segs_cap_ = segs_cap_ ? 2 * segs_cap_ : 16;
                segs_hit_ = xrealloc(segs_hit_, segs_cap_ * sizeof *segs_hit_);
            }
            av_move(&segs_hit_[segs_n_++], &items[i]);
        }
        if (end) {
            store_wscan_free(segs_);
            segs_ = NULL;
            break;
        }
        store_wscan_get_stats(segs_, &ss);
        display_message("Searching for %s: %llu items read in %d Scan segments, %d done (Esc stops)", text_.data,
                        (unsigned long long)ss.scanned, ss.segments, ss.segments_done);
        display_refresh();
        if (segs_n_ <= want && term_interrupted())
            return S_STOPPED;
    }
    return segs_n_ > want ? S_FOUND : S_NONE;
}

/* The search in segments; false when the table is read in one stream
 * (store_search's order then: from the selection on). */
static bool search_segments(view *v, const cond_arg *where)
{
    diag d;
    diag_init(&d);
    int segs = store_wscan_plan(display_store(), where->table, where->index, &d);
    if (segs < 2)
        return false;
    table_def def;
    if (store_describe(display_store(), where->table, &def, &d) != ST_OK) {
        display_diag("Search", d.code, &d);
        return true;
    }
    buf key = BUF_INIT;
    buf_printf(&key, "%s\t%s\t%s", where->table, where->index ? where->index : "", text_.data);
    /* n on the match shown last, or after a stop before the first one. */
    bool again = segs_key_.data && strcmp(segs_key_.data, key.data) == 0 &&
                 (segs_at_ >= 0 ? where->item && same_item(&def, where->item, &segs_hit_[segs_at_]) : segs_ != NULL);
    size_t want = again ? (size_t)segs_at_ + 1 : 0;
    if (!again) {
        segs_reset();
        buf_add(&segs_key_, key.data, key.len);
        ddb_req q;
        ddb_req_init(&q, DDB_SCAN);
        ddb_req_set_str(&q.table, where->table);
        ddb_req_set_str(&q.index, where->index);
        store_wscan_opts o = { .scan = &q, .segments = segs, .by_round = true, .keep = matches };
        status st = store_wscan_open(display_store(), &o, &segs_, &d);
        ddb_req_done(&q);
        if (st != ST_OK) {
            display_diag("Search", d.code, &d);
            segs_reset();
            buf_done(&key);
            table_def_free(&def);
            return true;
        }
    }
    outcome o = segs_read(want);
    if (o == S_FOUND && !again && where->item && same_item(&def, where->item, &segs_hit_[want])) {
        want++;   /* the selection itself is not the next match */
        o = segs_read(want);
    }
    bool wrapped = false;
    if (o == S_NONE && segs_n_) {
        wrapped = true;
        want = 0;
        o = S_FOUND;
    }
    switch (o) {
    case S_FOUND:
        segs_at_ = (long)want;
        view_items_show(v, &segs_hit_[want]);
        display_message("%s/%s (match %zu, %d Scan segments read together, matches as their pages came%s)",
                        wrapped ? "search wrapped to the first match: " : "", text_.data, want + 1, segs,
                        segs_ ? "" : ", all read");
        break;
    case S_NONE:
        display_error("Not found: %s in %d Scan segments, all read (the selection stays)", text_.data, segs);
        break;
    case S_STOPPED:
        display_message("Search stopped: %d Scan segments, %zu match%s so far (n goes on): %s", segs, segs_n_,
                        segs_n_ == 1 ? "" : "es", text_.data);
        break;
    case S_FAILED:
        break;
    }
    buf_done(&key);
    table_def_free(&def);
    return true;
}

static void search_store(view *v, int dir)
{
    cond_arg where = { 0 };
    v->ops->context(v, &where);
    if (dir > 0 && !may_read_all(&where))
        return;
    store_info info;
    store_get_info(display_store(), &info);
    if (dir > 0 && info.remote && search_segments(v, &where))
        return;
    av start = { 0 }, match = { 0 };
    const av *gpk = view_items_group_pk(v);
    if (where.item) {
        av_copy(&start, where.item);
    } else if (gpk && first_item(&where, gpk, &start)) {
        /* On a partition header: its first item is the first candidate
         * forward; backward, the items before it. */
        if (dir > 0 && store_search_item_matches(&start, text_.data, text_.len)) {
            view_items_show(v, &start);
            display_message("/%s", text_.data);
            av_done(&start);
            return;
        }
    }
    uint64_t seen = 0;
    outcome o = pass(&where, start.type ? &start : NULL, dir, &seen, &match);
    bool wrapped = false;
    if (o == S_NONE && start.type) {
        /* From the other end, as far as the start (its own match, when it
         * is the only one). */
        wrapped = true;
        o = pass(&where, NULL, dir, &seen, &match);
    }
    switch (o) {
    case S_FOUND:
        view_items_show(v, &match);
        if (wrapped)
            display_message("search wrapped to the %s: /%s", dir > 0 ? "top" : "bottom",
                            text_.data);
        else
            display_message("/%s", text_.data);
        break;
    case S_NONE:
        display_error("Not found: %s (the selection stays)", text_.data);
        break;
    case S_STOPPED:
        display_message("Search stopped after %llu item%s: %s", (unsigned long long)seen,
                        seen == 1 ? "" : "s", text_.data);
        break;
    case S_FAILED:
        break;
    }
    av_done(&start);
    av_done(&match);
}

void search_run(view *v, int dir)
{
    if (!text_.len) {
        display_error("No search yet: press / first");
        return;
    }
    if (v->ops == &view_items_ops)
        search_store(v, dir);
    else
        search_lines(v, dir);
}
