/*
 * view_items_remote — what the table view does differently on an
 * endpoint (see ui/view_items_int.h), where every read is paid for and
 * a Scan reads forward only (issue 42): G reads the end of the last
 * partition found backward and says the table's end is not known;
 * :count-parts counts every partition after saying what that reads and
 * costs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "ui/display.h"
#include "ui/prices.h"
#include "ui/view_items_int.h"

void items_move_last_remote(view *v)
{
    items_view *p = v->priv;
    part_info pi;
    if (!items_part_next(p, NULL, -1, &pi))
        return;
    uint64_t known = 0;
    bool complete = false;
    diag d;
    diag_init(&d);
    items_load_end(v, &pi);
    store_scan_state(display_store(), p->table, index_name(p), &known, &complete, &d);
    if (!complete)
        display_message("The end of the last of %llu partition%s found so far: the table's end is"
                        " not known until paging or :count-parts reaches it",
                        (unsigned long long)known, known == 1 ? "" : "s");
}

static bool count_progress(void *ctx, uint64_t items)
{
    display_progress("Counting the partitions of %s: %llu items read (Esc stops)", (const char *)ctx,
                     (unsigned long long)items);
    return !display_interrupted();
}

/* :count-parts on an endpoint: every partition found and counted
 * by a Scan of the keys, which reads (and bills) the whole table or
 * index, so its size and cost are said first, from DescribeTable's
 * approximate size (issue 42). */
void items_count_parts(view *v)
{
    items_view *p = v->priv;
    store_info info;
    store_get_info(display_store(), &info);
    if (!info.remote) {
        display_message("Every partition of a local table is counted already");
        return;
    }
    buf cost = BUF_INIT;
    prices_read_all(p->table, index_name(p), &cost);
    bool go = display_confirm("Count every partition of %s%s%s: a Scan of the keys reads %s"
                              " (DescribeTable's size)?", p->table, p->ix >= 0 ? " " : "",
                              p->ix >= 0 ? index_name(p) : "", cost.data);
    buf_done(&cost);
    diag d;
    diag_init(&d);
    status st;
    if (!go) {
        display_message("Not counted: nothing was read");
        return;
    }
    st = store_count_partitions(display_store(), p->table, index_name(p), count_progress, p->table, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    uint64_t known = 0;
    bool complete = false;
    store_scan_state(display_store(), p->table, index_name(p), &known, &complete, &d);
    display_message("Counted %llu partition%s of %s", (unsigned long long)known, known == 1 ? "" : "s",
                    p->table);
}

