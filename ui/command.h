/*
 * command — the `:` commands, in one table (name, arguments, help), from
 * which the help overlay and the man page's COMMANDS list are made.
 * ui/commands.c runs them (display_command): the general ones itself, the
 * others through the features' hooks and the current view's `command` op
 * (":index" to the table view, ...).
 */
#ifndef DDBX_COMMAND_H
#define DDBX_COMMAND_H

#define CMD_LIST(X) \
    X(quit,         "",             "Quit ddbx") \
    X(back,         "",             "Close this view") \
    X(help,         "",             "Show the keys and commands") \
    X(table,        "NAME",         "Open a table") \
    X(index,        "NAME|base",    "Show the table through an index, or the base table") \
    X(goto,         "VALUE",        "Go to the partition with this partition key value") \
    X(partitions,   "",             "Partition overview of the table or index shown") \
    X(query,        "[PK [SKCOND]]","Open the query bar; with PK, run a Query at once (a multi-attribute key: | joins words into PK, A | B; only the last sort part takes a range)") \
    X(scan,         "",             "Run a Scan of the table or index shown") \
    X(page_size,    "N",            "Query bar: read N items a page (DynamoDB's Limit; 100 at the start)") \
    X(load,         "N",            "Query bar: load pages until N matches (Esc or ^C stops)") \
    X(load_all,     "",             "Query bar: load every page (Esc or ^C stops)") \
    X(partiql,      "[STATEMENT]",  "Open the PartiQL bar, with STATEMENT (each ? asked for)") \
    X(run,          "",             "PartiQL bar: run the statement") \
    X(search,       "TEXT",         "Search forward for TEXT") \
    X(fold,         "[all|none]",   "Fold the selected partition, or all, or none") \
    X(reload,       "",             "Reload the view from the store") \
    X(watch,        "[TABLE]",      "Change feed of the table shown (or TABLE): recent writes, newest first") \
    X(live,         "[on|off]",     "Follow other processes' writes (on by default), or pause") \
    X(samples,      "",             "Load the sample tables into this database; over edited ones it names what differs, asks, and keeps a backup") \
    X(undo,         "",             "Take back the explorer's last change (asks, naming the count); an item changed since is a conflict") \
    X(redo,         "",             "Take back the last :undo") \
    X(backup,       "[NAME]",       "Take an on-demand backup of the table shown (on an endpoint: CreateBackup, after asking)") \
    X(backups,      "[TABLE]",      "Backups of the table shown (or TABLE; all from the table list): Enter diffs one with the table now, r restores, d deletes") \
    X(restore,      "[NEW-TABLE]",  "Backups view: restore the selected backup into a new table") \
    X(diff,         "A [B]",        "Differences of A and B (backup:NAME, TABLE, TABLE@TIME or @TIME, FILE; B: the table shown) as a view: Enter shows both versions") \
    X(patterns,     "[FILE]",       "Access-patterns view (the table's; all from the table list), FILE's patterns too") \
    X(check,        "",             "Patterns view: run every pattern with its example values") \
    X(save_pattern, "NAME",         "Builder, query bar, PartiQL bar: save the request on screen as an access pattern") \
    X(save_display, "FILE",         "Write the screen text to FILE (tests)") \
    X(save_view,    "FILE",         "Write the view's lines, kinds and selection to FILE (tests)") \
    X(cond,         "[EXPR] [--names=J] [--values=J]", "Condition builder: open it, or parse EXPR into its tree") \
    X(cond_item,    "JSON",         "Builder: the item to evaluate and write (DynamoDB JSON)") \
    X(cond_table,   "TABLE [INDEX]","Builder: the table (and index) the request goes to") \
    X(cond_mode,    "condition|filter|key", "Builder: what the tree is") \
    X(upd,          "EXPR [--names=J] [--values=J]", "Builder: parse an UpdateExpression into update rows") \
    X(apply,        "put|update|delete|filter [PK [SK]]|key", "Builder: send the request to the store (a write is staged when staging is on)") \
    X(txn,          "add put|update|delete|check|run|clear", "Builder: collect actions, run them as one TransactWriteItems") \
    X(save_cond,    "NAME",         "Builder: save the condition under NAME in the database") \
    X(load_cond,    "NAME",         "Builder: load a saved condition into the tree") \
    X(delete_cond,  "NAME",         "Builder: delete a saved condition") \
    X(conds,        "",             "Builder: list the saved conditions") \
    X(create_index, "NAME PK[:S|N|B] [SK[:TYPE]] [--projection ALL|KEYS_ONLY|INCLUDE:a,b]", \
      "Create a GSI on the table shown and backfill it (UpdateTable; asks first); a multi-attribute key joins its parts with + (a+b c:N+d)") \
    X(delete_index, "NAME",         "Delete a GSI of the table shown (UpdateTable; asks first)") \
    X(ttl,          "[ATTR|off]",   "Show the table's TTL, or enable it on ATTR, or disable it (asks first)") \
    X(entities,     "[TABLE]",      "Entity types of the table shown (or TABLE), inferred from its items: Enter shows one's items") \
    X(doctor,       "[TABLE]",      "What hurts the design of the table shown (or TABLE), and what to do (as ddbx doctor)") \
    X(what_if,      "[TABLE]",      "A scratch copy of the table: :create-index and :delete-index there, every pattern's cost before and after, the doctor's findings they bring") \
    X(apply_index,  "NAME",         "What-if view: create on the table itself the GSI NAME made on the copy (asks, naming how many items it will hold; as ddbx evolve)") \
    X(stage,        "[on|off]",     "Stage edits instead of writing them, the builder's too (on by default for a remote table opened with --write)") \
    X(commit,       "",             "Write every staged change: TransactWriteItems of up to 100, each conditioned on the item as read") \
    X(discard,      "[all]",        "Drop every staged change (d in the staged view drops one)") \
    X(mark_results, "",             "Mark the items on screen (query bar: all its results, asking first when more)") \
    X(marked,       "[stage] delete|set NAME JSON|remove NAME, export FORMAT FILE|copy|clear", "On the marked items: delete (BatchWriteItem), set or remove one attribute, each after one question naming the count and keys; with stage (or staging on) staged instead; export in a ddbx export format, copy as DynamoDB JSON lines, unmark") \
    X(write,        "FILE",         "Write what was copied last to FILE (when the terminal has no clipboard)") \
    X(budget,       "[RCU|off]",    "On an endpoint: the session's read budget; a read past it asks once first (also --budget RCU)") \
    X(count_parts,  "",             "On an endpoint: count every partition of the table or index shown (a Scan of its keys; says what it reads and costs, and asks first)")

#endif
