/*
 * cli_whoami — `ddbx whoami [--profile P] [--region R]` (also `ddbx
 * --whoami`): resolves credentials as every remote command does and asks
 * STS (GetCallerIdentity) who they are, printing the answer as `aws sts
 * get-caller-identity` does (its JSON, 4-space indented) on stdout, and
 * on stderr one line saying which profile, region and credential source
 * were used (never a key).
 *
 * cli_identity: the explorer's status-line identity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/creds.h"
#include "data/remote.h"
#include "model/buf.h"
#include "model/mem.h"
#include "ui/cli.h"

/* JSON string contents with control characters escaped (the values come
 * from the network). */
static void put_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

int cli_whoami(int argc, char **argv)
{
    remote_opts ro = { 0 };
    const opt table[] = {
        OPT_STRING("profile", "P", &ro.profile, "the AWS profile (credentials, region)"),
        OPT_STRING("region", "R", &ro.region, "the region of the STS endpoint asked"),
        OPT_REFUSE("endpoint-url", "--endpoint-url is DynamoDB's; STS's endpoint comes from "
                                   "AWS_ENDPOINT_URL_STS or the profile's services section"),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "whoami",
        .usage = "ddbx whoami [--profile P] [--region R]",
        .about = "Who the AWS credentials are, as aws sts get-caller-identity prints it; STS's\n"
                 "endpoint comes from AWS_ENDPOINT_URL_STS or the profile's services section.\n"
                 "ddbx --whoami is the same.\n",
        .opts = table,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    diag d;
    diag_init(&d);
    creds c;
    char *region = NULL;
    if (ro.region)
        region = xstrdup(ro.region);
    else if (creds_region(ro.profile, &region, &d) != ST_OK) {
        cli_print_diag("ddbx whoami", &d);
        return 1;
    }
    if (creds_resolve_in(ro.profile, region, &c, &d) != ST_OK) {
        cli_print_diag("ddbx whoami", &d);
        free(region);
        return 1;
    }
    creds_identity id;
    status st = creds_caller_identity(&c, ro.profile, region, 0, &id, &d);
    if (st != ST_OK) {
        cli_print_diag("ddbx whoami", &d);
    } else {
        printf("{\n    \"UserId\": ");
        put_json_string(id.user_id);
        printf(",\n    \"Account\": ");
        put_json_string(id.account);
        printf(",\n    \"Arn\": ");
        put_json_string(id.arn);
        printf("\n}\n");
        fprintf(stderr, "ddbx whoami: profile %s, region %s, credentials from ",
                creds_profile_name(ro.profile), region ? region : "(none: the global STS endpoint)");
        cli_fputs_safe(stderr, c.source);
        fputc('\n', stderr);
    }
    creds_done(&c);
    free(region);
    return st == ST_OK ? 0 : 1;
}

void cli_identity(const remote *r, char *out, size_t n)
{
    const char *known = remote_identity(r);
    const char *desc = remote_describe(r);
    char *sts = NULL;
    diag d;
    diag_init(&d);
    creds_endpoint("AWS_ENDPOINT_URL_STS", remote_profile(r), "sts", &sts, &d);
    /* STS is asked only where it can answer: an AWS endpoint, or an STS
     * endpoint the configuration names (a local DynamoDB has no STS). */
    int ask = !known[0] && (sts || strstr(desc, ".amazonaws.com"));
    free(sts);
    if (ask) {
        creds_identity id;
        if (creds_caller_identity(remote_creds(r), remote_profile(r), remote_region(r), 3000,
                                  &id, &d) == ST_OK) {
            snprintf(out, n, "%s, profile %s", id.arn, remote_profile(r));
            return;
        }
    }
    if (known[0])
        snprintf(out, n, "%s, profile %s", known, remote_profile(r));
    else
        snprintf(out, n, "profile %s, keys from %s%s", remote_profile(r),
                 remote_creds_source(r), ask ? " (STS did not say who)" : "");
}
