/*
 * edit — writes from the explorer: new item, edit item ($EDITOR on its
 * DynamoDB JSON), set or remove one attribute, delete item. Every write
 * is a typed request (model/ddbreq: PutItem, UpdateItem, DeleteItem) to
 * store_exec with a condition, so an item that changed or vanished
 * underneath is refused rather than overwritten; every write that
 * destroys something asks first. Keys go as avs, byte for byte (a B key
 * holding NUL bytes included). Errors go to the status line with the
 * store's message. Each returns true when the store changed.
 */
#ifndef DDBX_EDIT_H
#define DDBX_EDIT_H

#include <stdbool.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"
#include "model/status.h"

/* Typed key value from text, typed as the key attribute of the table
 * (ix NULL) or index: the partition key when partition, else the sort
 * key. S is the text as is, N a number, B base64 (decoded strictly, as
 * DynamoDB does). */
status edit_parse_key(const table_def *def, const index_def *ix, bool partition,
                      const char *text, av *out, diag *d);
/* The same for the key attribute k (one part of a multi-attribute key). */
status edit_parse_key_attr(const key_attr *k, const char *text, av *out, diag *d);

/* The whole item with the same table key as `keys` (GetItem); false with
 * a status message when it is gone. */
bool edit_get_item(const char *table, const table_def *def, const av *keys, av *out);
/* The same, but no item is no error: *out AV_NONE; false (said on the
 * status line) only when the store refused. */
bool edit_read_item(const char *table, const table_def *def, const av *keys, av *out);
/* edit_get_item for a view: strongly consistent or not (eventually
 * consistent reads cost half; issue 42). The others read strongly, since
 * what they read is a write's check. */
bool edit_view_item(const char *table, const table_def *def, const av *keys, bool strong, av *out);

/* A new item typed in $EDITOR (pk, may be NULL, pre-filled); *created
 * (may be NULL; av_done) gets the item written or staged, AV_NONE when
 * none was. */
bool edit_new_item(const char *table, const table_def *def, const av *pk, av *created);
bool edit_item(const char *table, const table_def *def, const av *item, bool projected);
/*
 * One place of an item, a line of the item view's tree: a document path
 * (names and list indexes), the value there as shown, and for one element
 * of a set that element (path and val are then the set's). Borrowed.
 */
struct bpath;
typedef struct edit_place {
    const struct bpath *path;
    const av *val;
    const av *elem;   /* NULL: the whole value */
} edit_place;

/* Sets the place (UpdateItem SET of its path; an element: the set with it
 * replaced) to a value typed at a prompt that starts with what it holds:
 * DynamoDB JSON, or for an S or N its plain text ("4" for an N); empty
 * removes it (edit_remove_place). Asks first, naming the path, the old
 * and the new value. Key attributes are refused. */
bool edit_set_place(const char *table, const table_def *def, const av *item, const edit_place *at);
/* Removes the place (UpdateItem REMOVE of its path; an element: DELETE
 * of it from its set, the attribute going with the set's last), after
 * asking, naming what goes. Key attributes are refused. Both are
 * conditioned on the item existing and the place still holding what was
 * shown (a list that shifted meanwhile is refused, not written). */
bool edit_remove_place(const char *table, const table_def *def, const av *item, const edit_place *at);
bool edit_delete_item(const char *table, const table_def *def, const av *item);

/* The table key of item (its key attributes, copied) into an
 * uninitialised out (AV_M; av_done). */
void edit_key(const table_def *def, const av *item, av *out);

#endif
