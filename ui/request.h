/*
 * request — every action a key can ask for, in ONE table.
 *
 * REQ_LIST produces the request enum (REQ_MOVE_DOWN, ...), the request
 * names used by the key-binding file (`move-down`), the help overlay and
 * the KEYS section of the man page (keymap_write_man), so none of them
 * can drift from the others. Sections group requests in the help.
 *
 * Columns: section, ENUM suffix, name in the bindings file, help text.
 */
#ifndef DDBX_REQUEST_H
#define DDBX_REQUEST_H

#define REQ_LIST(X) \
    X("Moving",  MOVE_UP,       "move-up",       "Move the selection up one line") \
    X("Moving",  MOVE_DOWN,     "move-down",     "Move the selection down one line") \
    X("Moving",  PAGE_UP,       "page-up",       "Move up one screen") \
    X("Moving",  PAGE_DOWN,     "page-down",     "Move down one screen") \
    X("Moving",  MOVE_FIRST,    "move-first",    "Go to the first line (first partition)") \
    X("Moving",  MOVE_LAST,     "move-last",     "Go to the last line (last partition)") \
    X("Moving",  PREV_GROUP,    "prev-group",    "Go to the previous partition header") \
    X("Moving",  NEXT_GROUP,    "next-group",    "Go to the next partition header") \
    X("Moving",  SCROLL_LEFT,   "scroll-left",   "Scroll the columns left") \
    X("Moving",  SCROLL_RIGHT,  "scroll-right",  "Scroll the columns right") \
    X("Views",   ENTER,         "enter",         "Open the selected table, partition or item") \
    X("Views",   BACK,          "back",          "Go back to the previous view; quit from the first") \
    X("Views",   QUIT,          "quit",          "Quit ddbx") \
    X("Views",   HELP,          "help",          "Show this help (at the keys of the view it opens from)") \
    X("Views",   REDRAW,        "redraw",        "Redraw the screen") \
    X("Views",   RELOAD,        "reload",        "Reload the view from the store") \
    X("Views",   WATCH,         "watch",         "Change feed: the table's writes, newest first, old -> new") \
    X("Views",   LIVE,          "live",          "Pause or resume following other processes' writes") \
    X("Views",   PATTERNS,      "patterns",      "Access patterns of the table (all, from the table list): Enter runs one") \
    X("Views",   RESTORE,       "restore",       "In the backups view: restore the selected backup into a new table (asks its name)") \
    X("Table",   TOGGLE_INDEX,  "toggle-index",  "Cycle base table, each GSI/LSI, base table") \
    X("Table",   FOLD,          "fold",          "Fold or unfold the selected partition") \
    X("Table",   FOLD_ALL,      "fold-all",      "Fold or unfold every partition") \
    X("Table",   PARTITIONS,    "partitions",    "Partition overview: items and bytes per partition") \
    X("Table",   ENTITIES,      "entities",      "Entity types of the table, inferred from its items: Enter shows the table view of one") \
    X("Table",   SIMILAR,       "similar",       "More like this: the item's nearest neighbours in a vector index, with scores and the capacity it cost (again there: inline filters off/on)") \
    X("Table",   FOLLOW,        "follow",        "Follow the sort key's edge (own collection first; f on it: the next)") \
    X("Table",   QUERY,         "query",         "Open the query bar (Query or Scan)") \
    X("Table",   PARTIQL,       "partiql",       "Open the PartiQL bar: a statement, a prompt for each ?, Query or Scan said before it runs") \
    X("Table",   COLUMNS,       "columns",       "Column picker: hide, reorder and pin the columns of the selected item's entity type (kept per table)") \
    X("Table",   COL_EARLIER,   "col-earlier",   "In the column picker: move the column earlier (left)") \
    X("Table",   COL_LATER,     "col-later",     "In the column picker: move the column later (right)") \
    X("Table",   COL_PIN,       "col-pin",       "In the column picker: pin the column (it stays when the columns scroll), or unpin it") \
    X("Editing", NEW_ITEM,      "new-item",      "Create an item in $EDITOR (PutItem, must not exist)") \
    X("Editing", EDIT_ITEM,     "edit-item",     "Edit the item's DynamoDB JSON in $EDITOR (PutItem)") \
    X("Editing", EDIT_ATTR,     "edit-attr",     "Set the value selected (UpdateItem SET of its path), after asking") \
    X("Editing", DELETE,        "delete",        "Delete the item (item view: the value selected), after asking") \
    X("Prompts", PROMPT,        "prompt",        "Type a command (see COMMANDS)") \
    X("Prompts", SEARCH,        "search",        "Search forward for text") \
    X("Prompts", SEARCH_NEXT,   "search-next",   "Next match of the last search") \
    X("Prompts", SEARCH_PREV,   "search-prev",   "Previous match of the last search") \
    X("Builder", COND,          "cond",          "Open the condition builder on the selected item (or empty)") \
    X("Builder", COND_ADD,      "cond-add",      "Builder: add a clause (or an update row) after the selection") \
    X("Builder", COND_GROUP,    "cond-group",    "Builder: add a group after the selection, OR in an AND group, AND in an OR (| toggles it)") \
    X("Builder", COND_PATH,     "cond-path",     "Builder: edit the clause's path (a.b[2].c); the prompt offers the item's paths") \
    X("Builder", COND_OP,       "cond-op",       "Builder: change the operator or function") \
    X("Builder", COND_VALUE,    "cond-value",    "Builder: edit the operands: their type (S ... BS, path, size, functions) and value") \
    X("Builder", COND_NOT,      "cond-not",      "Builder: negate the selected clause or group (NOT)") \
    X("Builder", COND_ANDOR,    "cond-andor",    "Builder: toggle AND/OR of the selected group (or the clause's group)") \
    X("Builder", COND_UP,       "cond-up",       "Builder: move the selection up (into and out of groups)") \
    X("Builder", COND_DOWN,     "cond-down",     "Builder: move the selection down (into and out of groups)") \
    X("Builder", COND_DUP,      "cond-dup",      "Builder: duplicate the selected clause or group") \
    X("Builder", COND_DEL,      "cond-del",      "Builder: delete the selected clause, group or update row") \
    X("Builder", COND_MODE,     "cond-mode",     "Builder: cycle condition, filter, key condition") \
    X("Builder", COND_APPLY,    "cond-apply",    "Builder: run the action shown (Put, Update, Delete, Query/Scan)") \
    X("Builder", COND_PANEL,    "cond-panel",    "Builder: give the keys to the right panel (the moving keys scroll it) and back") \
    X("Transaction", TXN_ADD,   "txn-add",       "Add an action on the selected item to the pending transaction") \
    X("Transaction", TXN_SHOW,  "txn-show",      "Show the pending transaction: edit, remove, run or clear its actions") \
    X("Staging", STAGED,        "staged",        "Staged changes: per item and attribute what :commit writes (d discards one)") \
    X("Staging", CONFLICT_KEEP, "conflict-keep", "Commit conflict: keep your change over theirs (force)") \
    X("Staging", CONFLICT_REBASE,"conflict-rebase","Commit conflict: apply your change to the item as it is now") \
    X("Staging", CONFLICT_DROP, "conflict-drop", "Commit conflict: drop your change") \
    X("Staging", MARK,          "mark",          "Mark or unmark the selected item (an index item marks its base item)") \
    X("Staging", MARK_PART,     "mark-partition","Mark every item of the selected partition (again: unmark them)") \
    X("Staging", MARK_RESULTS,  "mark-results",  "Mark the items on screen (query bar: all its results, asking first when more)") \
    X("Staging", COPY,          "copy",          "Copy the item, its key, the request as aws command line or SDK code (OSC 52)")

/*
 * Keys whose meaning in one view goes beyond their request's help above,
 * and keys of the prompts (fixed, not rebindable), listed after their
 * section in the help overlay and the man page's KEYS. Columns: section,
 * the request whose keys are shown (REQ_NONE: the fixed keys given), the
 * fixed keys, help text.
 */
#define REQ_VIEW_KEYS(X) \
    X("Prompts", REQ_NONE,      "^W",           "In a prompt: delete the word before the cursor (TARGET#bob -> TARGET#)") \
    X("Table",   REQ_NONE,      "HOT",          "On a partition header: far above the rest, 32 items or more and 4 times the mean of the other partitions in items or bytes, or the only partition (the doctor's hot-partition rule)") \
    X("Table",   REQ_ENTER,     "",             "In the column picker: show or hide the column") \
    X("Views",   REQ_ENTER,     "",             "In the backups view: diff the backup with its table as it is now; in a diff: both versions of the item side by side") \
    X("Views",   REQ_DELETE,    "",             "In the backups view: delete the selected backup, after asking") \
    X("Builder", REQ_ENTER,     "",             "In the builder: edit the selected clause or update row; on a group, toggle AND/OR") \
    X("Builder", REQ_EDIT_ITEM, "",             "In the builder: edit the builder's own item (the Put's) in $EDITOR") \
    X("Builder", REQ_RELOAD,    "",             "In the builder: read the item again from the store") \
    X("Builder", REQ_NONE,      "Tab, Down",    "In a builder prompt's list: the next choice matching the text") \
    X("Builder", REQ_NONE,      "BackTab, Up",  "In a builder prompt's list: the previous choice") \
    X("Builder", REQ_NONE,      "Esc",          "In a builder prompt: leave it (a clause being added goes)") \
    X("Builder", REQ_BACK,      "",             "With the keys on the builder's panel: give them back to the tree (so does Tab)") \
    X("Transaction", REQ_ENTER, "",             "In the transaction: edit the action's condition (an Update: then its update)") \
    X("Transaction", REQ_DELETE, "",            "In the transaction: remove the action; on the first line, clear them all") \
    X("Transaction", REQ_COND_APPLY, "",        "In the transaction: run it (one TransactWriteItems), after asking")

enum req {
    REQ_NONE = 0,
#define REQ_ENUM(sect, id, name, help) REQ_##id,
    REQ_LIST(REQ_ENUM)
#undef REQ_ENUM
    REQ__COUNT
};

#endif
