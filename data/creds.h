/*
 * creds — AWS credentials and region from the standard places, in the
 * order the AWS CLI (botocore) looks:
 *
 *   1. AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN,
 *      unless a profile was named explicitly (--profile): as in botocore,
 *      an explicit profile negates the environment's keys;
 *   2. the profile (--profile, else AWS_PROFILE, else "default") in the
 *      shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else
 *      ~/.aws/credentials, sections [NAME]);
 *   3. the profile's credential_process in the config file
 *      (AWS_CONFIG_FILE, else ~/.aws/config, sections [profile NAME] and
 *      [default]); the command is split into words as a POSIX shell would
 *      (quotes, backslashes) and run directly, without a shell, as the
 *      AWS CLI does; its stdout is the JSON {"Version":1,"AccessKeyId",
 *      "SecretAccessKey","SessionToken","Expiration"};
 *   4. static keys in the profile's config section.
 *
 * The region: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's
 * `region` in the config file (creds_region).
 *
 * Secrets (secret key, session token) never enter a diag message; the
 * `source` names where the keys came from, never what they are.
 * Ownership: a creds is the caller's, emptied (and its secrets wiped) by
 * creds_done.
 */
#ifndef DDBX_CREDS_H
#define DDBX_CREDS_H

#include <stddef.h>

#include "model/status.h"

typedef struct creds {
    char *access_key;
    char *secret_key;
    char *session_token;   /* NULL when there is none */
    long long expires;     /* epoch seconds from credential_process; 0: never */
    char source[1200];     /* "environment", "~/.aws/credentials [profile p]", ... */
} creds;

/*
 * Finds credentials. profile NULL: AWS_PROFILE, else "default" (and the
 * environment's keys come first); non-NULL: that profile, explicitly.
 * ST_USAGE (a configuration to fix, not a DynamoDB error) when none was
 * found or one is half set, with a message naming every place
 * looked; ST_IO for an unreadable file or a failed credential_process.
 */
status creds_resolve(const char *profile, creds *out, diag *d);
void creds_done(creds *c);

/* The region as above (profile as for creds_resolve); *out malloc'd, or
 * NULL when none is configured (ST_OK either way unless a file is bad). */
status creds_region(const char *profile, char **out, diag *d);

/* The profile name in effect (profile, AWS_PROFILE, "default"). */
const char *creds_profile_name(const char *profile);

/* Splits a credential_process command line into words as a POSIX shell
 * would (no expansion): NULL-terminated malloc'd argv (free with
 * creds_argv_free), or NULL for an unterminated quote or no words. */
char **creds_split_command(const char *cmd);
void creds_argv_free(char **argv);

#endif
