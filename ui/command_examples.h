/*
 * command_examples — one working example for each `:` command of
 * ui/command.h, shown under the command in the help overlay and in the
 * man page's COMMANDS list.
 *
 * tests/help types every example the help overlay shows and checks that
 * it does what it says, so an example cannot rot and a new command
 * without one fails that test. Columns:
 *   name     the command, as in CMD_LIST
 *   where    script lines typed first (ui/term.h's script syntax, "\n"
 *            between lines) in the explorer opened on the samples'
 *            SocialGraph table; "" for none
 *   example  the command line, exactly as the help shows it
 *   shows    text on the screen after it that was not there before (the
 *            panel of the builder counts, scrolled to its end); prefixes:
 *            "=" on the screen after it, there before or not (a command
 *            that shows the same view again); "file:" the file it writes;
 *            "exit:" nothing runs after it (the explorer ended); "y:" it
 *            asks first, y is typed, then the rest of shows is checked
 * Keep the strings free of '|' (the test's separator).
 */
#ifndef DDBX_COMMAND_EXAMPLES_H
#define DDBX_COMMAND_EXAMPLES_H

#define BUILDER_ITEM "c\n:cond-item '{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}}'"
#define BUILDER_SAVED "c\n:cond attribute_not_exists(PK)\n:save-cond follow-once"

#define CMD_EXAMPLES(X) \
    X(quit,         "",                 ":quit",                     "exit:") \
    X(back,         "",                 ":back",                     "? help") \
    X(help,         "",                 ":help",                     "Help: keys and commands") \
    X(table,        "",                 ":table Music",              "Music  base table") \
    X(index,        "",                 ":index GSI1",               "GSI GSI1 (GSI1PK, GSI1SK") \
    X(goto,         "",                 ":goto ACTOR#bob",           "partition 2 of 2407") \
    X(partitions,   "",                 ":partitions",               "partitions by size") \
    X(query,        "",                 ":query ACTOR#bob",          "Query: Count 2") \
    X(scan,         "",                 ":scan",                     "Scan: Count 100") \
    X(page_size,    ":scan",            ":page-size 25",             "25 items a page from the next page read") \
    X(load,         ":scan",            ":load 150",                 "Loaded: ") \
    X(load_all,     ":scan",            ":load-all",                 ", the end") \
    X(partiql,      "",                 ":partiql SELECT * FROM SocialGraph WHERE PK = 'ACTOR#bob'", \
                                                                     "Will run: Query on the base table") \
    X(run,          ":partiql SELECT * FROM SocialGraph WHERE PK = 'ACTOR#bob'", \
                                        ":run",                      "Ran: 2 items") \
    X(search,       "",                 ":search Cyclist",           "/Cyclist") \
    X(fold,         "",                 ":fold all",                 "▸ ACTOR#alice") \
    X(reload,       "",                 ":reload",                   "=▾ ACTOR#alice  4 items") \
    X(watch,        "",                 ":watch",                    "changes, newest first") \
    X(live,         "",                 ":live off",                 "live paused") \
    X(samples,      "",                 ":samples",                  "are as shipped: nothing to load") \
    X(undo,         "jd\ny",            ":undo",                     "y:Undid the delete of") \
    X(redo,         "jd\ny\n:undo\ny",  ":redo",                     "y:Redid the delete of") \
    X(backup,       "",                 ":backup before-edits",      "Backup before-edits of SocialGraph taken") \
    X(backups,      ":backup snap1",    ":backups",                  "Backups of SocialGraph") \
    X(restore,      ":backup snap1\n:backups", ":restore SocialGraph-copy", "into the new table SocialGraph-copy") \
    X(diff,         ":backup snap1\njd\ny", ":diff backup:snap1",    "- removed") \
    X(patterns,     "",                 ":patterns",                 "Access patterns of SocialGraph") \
    X(check,        ":patterns",        ":check",                    "Ran 5 patterns") \
    X(save_pattern, "s",                ":save-pattern bobs",        "Saved pattern bobs") \
    X(save_display, "",                 ":save-display screen.txt",  "file:screen.txt") \
    X(save_view,    "",                 ":save-view view.txt",       "file:view.txt") \
    X(cond,         "",                 ":cond attribute_not_exists(PK)", "attribute_not_exists(PK)") \
    X(cond_item,    "c",                ":cond-item '{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}}'", \
                                                                     "Item: PK=ACTOR#zed SK=PROFILE") \
    X(cond_table,   "c",                ":cond-table Music",         "Condition builder: Music") \
    X(cond_mode,    "c",                ":cond-mode filter",         "Mode: filter") \
    X(upd,          "c",                ":upd REMOVE nickname",      "REMOVE nickname") \
    X(apply,        BUILDER_ITEM,       ":apply put",                "PutItem: OK") \
    X(txn,          BUILDER_ITEM "\n:txn add put", ":txn run",       "TransactWriteItems") \
    X(save_cond,    "c\n:cond attribute_not_exists(PK)", ":save-cond follow-once", "Saved follow-once") \
    X(load_cond,    BUILDER_SAVED "\n:cond attribute_exists(nickname)", ":load-cond follow-once", \
                                                                     "attribute_not_exists(PK)") \
    X(delete_cond,  BUILDER_SAVED,      ":delete-cond follow-once",  "Deleted follow-once") \
    X(conds,        BUILDER_SAVED,      ":conds",                    "follow-once [condition]") \
    X(create_index, "",                 ":create-index GSI2 followedAt", "y:GSI2") \
    X(delete_index, ":create-index GSI2 followedAt\ny", ":delete-index GSI2", "y:GSI GSI2 of SocialGraph deleted") \
    X(ttl,          "",                 ":ttl",                      "TTL of SocialGraph: DISABLED") \
    X(entities,     "",                 ":entities",                 "Entities of SocialGraph") \
    X(doctor,       "",                 ":doctor",                   "Doctor: SocialGraph") \
    X(what_if,      "",                 ":what-if",                  "What if: SocialGraph") \
    X(apply_index,  ":what-if\n:create-index ByName displayName", ":apply-index ByName", "y:GSI ByName of SocialGraph created") \
    X(stage,        "",                 ":stage on",                 "Staging on: edits are staged") \
    X(commit,       ":stage on\njd",    ":commit",                   "Committed 1 change in 1 TransactWriteItems") \
    X(discard,      ":stage on\njd",    ":discard",                  "y:Discarded 1 staged change") \
    X(mark_results, "",                 ":mark-results",             "items on screen (") \
    X(marked,       "jm",               ":marked copy",              "Copied") \
    X(write,        "jm\n:marked copy", ":write marked.jsonl",       "file:marked.jsonl") \
    X(budget,       "",                 ":budget 500",               "reads cost nothing: no read budget") \
    X(count_parts,  "",                 ":count-parts",              "Every partition of a local table is counted already")

#endif
