/*
 * live — the explorer following writes other processes make.
 *
 * SQLite's data_version changes when another connection commits to the
 * database (never for the explorer's own writes); the display asks on
 * every idle tick (term_getkey_timeout, a quarter of a second), one
 * PRAGMA and no reading of rows. When it moved, the display reloads the
 * view on screen (views keep their selection through a reload) and this
 * module reads the newest change records of the table on screen
 * (store_changes) to mark the items they touched for a few seconds.
 * Paused (`L`, `:live off`), nothing is asked. A remote store has no
 * data_version: live mode does nothing there (the change feed reads the
 * table's stream when asked).
 *
 * State is the module's own; values passed in are borrowed.
 */
#ifndef DDBX_LIVE_H
#define DDBX_LIVE_H

#include <stdbool.h>

#include "data/store.h"
#include "model/av.h"

/* How long an item stays marked after a change, in milliseconds. */
#define LIVE_MARK_MS 5000

void live_init(store *s);
void live_done(void);

bool live_paused(void);
void live_pause(bool paused);

enum { LIVE_NOTHING, LIVE_REDRAW, LIVE_RELOAD };
/* One idle tick; table is the one on screen (NULL: none). LIVE_RELOAD
 * when another process committed (the display reloads the view),
 * LIVE_REDRAW when only marks expired. */
int live_tick(const char *table);

/* The idle ticks also run the store's TTL sweep (store_ttl_sweep), every
 * `seconds` (the --ttl-interval option; 0: never; 5 unless set). Set
 * before live_init. */
void live_set_ttl_interval(double seconds);

/* STORE_INSERT or STORE_MODIFY when another process wrote this item of
 * table in the last LIVE_MARK_MS; 0 otherwise. */
int live_mark(const char *table, const av *item);

#endif
