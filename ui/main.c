/*
 * main — dispatch `ddbx [--db FILE] [TABLE]` and `ddbx SUBCOMMAND ...`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "ui/cli.h"

#define DDBX_VERSION "0.1.0"

static const char usage_text[] =
    "usage: ddbx [--db FILE] [--ttl-interval S] [TABLE]\n"
    "                                         open the explorer\n"
    "       ddbx (--endpoint-url URL | --region R) [--profile P] [--write] [--budget RCU] [TABLE]\n"
    "                                         the explorer on a DynamoDB endpoint (read-only\n"
    "                                         unless --write; every write asks first; with\n"
    "                                         --write edits are staged until :commit; reads\n"
    "                                         past --budget RCU ask first)\n"
    "       ddbx api [--db FILE]              DynamoDB requests in, responses out, one JSON a line\n"
    "       ddbx api (--endpoint-url URL | --region R) [--profile P]\n"
    "                                         the same against a remote DynamoDB endpoint\n"
    "       ddbx serve [--db FILE | --in-memory | --db-path DIR [--shared-db]] [--port 8000]\n"
    "                  [--host 127.0.0.1] [--cors LIST] [--require-credentials KEY:SECRET] [...]\n"
    "                                         the store as a DynamoDB (and DynamoDB Streams)\n"
    "                                         endpoint (HTTP); --in-memory (or --db :memory:):\n"
    "                                         a database in memory, gone when it stops;\n"
    "                                         DynamoDB Local's flags too (ddbx serve --help)\n"
    "       ddbx eval EXPR [--kind K] [--names J] [--values J] [--item J]\n"
    "                                         parse, check and evaluate an expression\n"
    "       ddbx eval STATEMENT --kind partiql [--params J] [--key-schema S] [--index I=S]\n"
    "                                         explain a PartiQL statement without running it\n"
    "       ddbx samples [--db FILE] [--patterns-dir DIR]\n"
    "                                         (re)load the bundled sample tables; write\n"
    "                                         their access patterns to DIR\n"
    "       ddbx check [PATTERNS.json...] [--db FILE | --endpoint-url URL | --region R]\n"
    "                  [--profile P] [--format text|tap|json] [--cost] [--price FILE]\n"
    "                  [--price-region R]\n"
    "                                         run every access pattern, read-only; exit 1\n"
    "                                         when one needs a Scan or breaks its budget;\n"
    "                                         --cost: in dollars, with writes and storage\n"
    "       ddbx patterns FILE... [--out DIR] [--db FILE] [--format text|json]\n"
    "                                         the access patterns of traffic recorded by\n"
    "                                         ddbx serve --record FILE: rates, costs, Scans,\n"
    "                                         wasteful filters, hot keys, unused indexes\n"
    "       ddbx model [TABLE...] [--db FILE | --endpoint-url URL | --region R] [--profile P]\n"
    "                  [--format text|json|markdown] [--sample N | --all] [--patterns FILE]\n"
    "                  [--price FILE] [--price-region R]\n"
    "                                         the entity types inferred from the items; json:\n"
    "                                         a model file; markdown: the design document\n"
    "       ddbx doctor [TABLE...] [--db FILE | --endpoint-url URL | --region R] [--profile P]\n"
    "                   [--patterns FILE] [--model FILE] [--sample N | --all] [--format text|json]\n"
    "                                         what hurts the design, and what to do; exit 1\n"
    "                                         when it finds something\n"
    "       ddbx load FILE [...]              import items\n"
    "       ddbx export TABLE [...]           export items\n"
    "       ddbx pull TABLE [--as NAME] [--segments N] [--mask RULES] [--db FILE]\n"
    "                 (--endpoint-url URL | --region R) [--profile P]\n"
    "                                         copy a remote table into the local store\n"
    "                                         (--mask: hash, fake, redact or drop what RULES name)\n"
    "       ddbx push TABLE... (--endpoint-url URL | --region R) [--profile P] [--db FILE]\n"
    "                 [--with-items] [--as NAME] [--replace] [--yes]\n"
    "                                         create the tables on an endpoint (and copy\n"
    "                                         their items); the plan is shown and asked first\n"
    "       ddbx diff A B [--db FILE] [--key PK[:T][,SK[:T]]] [--format text|json|jsonl]\n"
    "                 [--input-format FMT] [--endpoint-url URL | --region R] [--profile P]\n"
    "                                         what differs between two tables, export files or\n"
    "                                         remote:TABLE; exit 1 when they differ\n"
    "       ddbx evolve TABLE --index NAME --hash TEMPLATE [--range TEMPLATE] [--dry-run]\n"
    "                   [--yes] [--rate WCU] [--db FILE | --endpoint-url URL | --region R]\n"
    "                                         new key attributes from each item's own, written\n"
    "                                         in checkpointed batches, then a GSI on them\n"
    "       ddbx whoami [--profile P] [--region R]   (or ddbx --whoami)\n"
    "                                         who the AWS credentials are, as\n"
    "                                         aws sts get-caller-identity prints it\n"
    "       ddbx --help | --version\n"
    "--read-only (with any of them) opens the database so no write can happen.\n"
    "\n"
    "The default database is $XDG_DATA_HOME/ddbx/ddbx.db (else\n"
    "~/.local/share/ddbx/ddbx.db); --db FILE or DDBX_DB override it.\n"
    "In the explorer, ? lists the keys and : commands; see ddbx(1).\n";

typedef int (*cli_fn)(int argc, char **argv);

static const struct {
    const char *name;
    cli_fn fn;
} commands[] = {
    { "api", cli_api },
    { "eval", cli_eval },
    { "serve", cli_serve },
    { "samples", cli_samples },
    { "check", cli_check },
    { "patterns", cli_patterns },
    { "model", cli_model },
    { "doctor", cli_doctor },
    { "push", cli_push },
    { "load", cli_load },
    { "export", cli_export },
    { "pull", cli_pull },
    { "diff", cli_diff },
    { "evolve", cli_evolve },
    { "whoami", cli_whoami },
    { NULL, NULL },
};

/* The store's notices (a long schema upgrade), before any screen. */
static void notice_stderr(const char *msg)
{
    fprintf(stderr, "ddbx: %s\n", msg);
}

int main(int argc, char **argv)
{
    store_set_notice(notice_stderr);
    store_set_memory_image(store_mem_image, store_mem_image_len);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("ddbx %s\n", DDBX_VERSION);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--whoami") == 0)
        return cli_whoami(argc - 1, argv + 1);
    cli_take_read_only(&argc, argv);
    if (argc >= 2) {
        for (size_t i = 0; commands[i].name; i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].fn(argc - 1, argv + 1);
    }
    /* No subcommand: `ddbx [--db FILE] [TABLE]` is the explorer. */
    return cli_explore(argc, argv);
}
