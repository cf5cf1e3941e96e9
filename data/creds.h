/*
 * creds — AWS credentials, region and the other settings the AWS CLI
 * reads, from the standard places and in the CLI's (botocore's) order.
 *
 * The chain (creds_resolve), first answer wins:
 *
 *   1. AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN,
 *      unless a profile was named explicitly (--profile): as in botocore,
 *      an explicit profile negates the environment's keys;
 *   then for the profile (--profile, else AWS_PROFILE, else "default"),
 *   whose keys are the config file's [profile NAME] (or [default]) with
 *   the credentials file's [NAME] laid over them:
 *   2. role_arn (without web_identity_token_file): sts:AssumeRole with
 *      keys from source_profile (a chain of them, a cycle refused; a
 *      profile with static keys may name itself) or credential_source
 *      (Environment, Ec2InstanceMetadata, EcsContainer); external_id,
 *      role_session_name, duration_seconds, mfa_serial (the code asked
 *      for through creds_set_prompt's callback, else on /dev/tty). The
 *      answer is cached in ~/.aws/cli/cache/ under the AWS CLI's own key
 *      (SHA-1 of the sorted JSON arguments) and used while it has more
 *      than 15 minutes left, so ddbx and aws share one MFA prompt;
 *   3. web identity: AWS_WEB_IDENTITY_TOKEN_FILE / AWS_ROLE_ARN /
 *      AWS_ROLE_SESSION_NAME (each over the profile's
 *      web_identity_token_file / role_arn / role_session_name), by
 *      sts:AssumeRoleWithWebIdentity (not signed);
 *   4. IAM Identity Center: sso_session (an [sso-session NAME] section
 *      with sso_start_url, sso_region) or the legacy sso_start_url and
 *      sso_region in the profile, with sso_account_id and sso_role_name;
 *      the token `aws sso login` cached in ~/.aws/sso/cache/SHA1.json
 *      (SHA-1 of the session name, or of the start URL for the legacy
 *      form), refreshed through SSO OIDC CreateToken when it expires
 *      within 15 minutes and has a refresh token (sso_session only, as in
 *      botocore; the cache file is rewritten), then the portal's
 *      GetRoleCredentials, whose keys go into ~/.aws/cli/cache as the CLI
 *      keeps them (SHA-1 of {"accountId","roleName","sessionName" or
 *      "startUrl"}). A missing or expired token says "run `aws sso
 *      login --profile P`";
 *   5. static keys in the credentials file's [NAME];
 *   6. credential_process (the command split into words as a POSIX shell
 *      would and run without a shell, as the AWS CLI does; its stdout is
 *      {"Version":1,"AccessKeyId","SecretAccessKey","SessionToken",
 *      "Expiration"});
 *   7. static keys in the config file's profile section;
 *   8. the container endpoint: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI
 *      (on http://169.254.170.2), else AWS_CONTAINER_CREDENTIALS_FULL_URI
 *      (https, or http to a loopback address, 169.254.170.2,
 *      169.254.170.23 or fd00:ec2::23), with the Authorization header from
 *      AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, else
 *      AWS_CONTAINER_AUTHORIZATION_TOKEN; 2 s per attempt, 3 attempts
 *      (botocore's);
 *   9. the EC2 instance metadata service, IMDSv2: a PUT for a session
 *      token, then the role's name and its credentials; IMDSv1 only when
 *      the token PUT answers 403, 404 or 405 (and ec2_metadata_v1_disabled
 *      is not set). AWS_EC2_METADATA_DISABLED=true skips it;
 *      AWS_EC2_METADATA_SERVICE_ENDPOINT (ec2_metadata_service_endpoint)
 *      and ..._ENDPOINT_MODE=IPv6 move it; AWS_METADATA_SERVICE_TIMEOUT
 *      (seconds, default 1) and AWS_METADATA_SERVICE_NUM_ATTEMPTS (default
 *      1) bound it, so a laptop without one waits about a second.
 *
 * STS goes to https://sts.REGION.amazonaws.com (regional endpoints, the
 * SDKs' default; sts_regional_endpoints = legacy keeps the global one for
 * the regions that had it), or wherever the service endpoint settings
 * point STS (creds_endpoint). Requests to STS other than
 * AssumeRoleWithWebIdentity are signed with SigV4 (service "sts").
 *
 * Temporary credentials are also kept in memory (per process, per
 * profile) until 5 minutes before they expire, so the threads of a pull
 * share one AssumeRole and one MFA prompt.
 *
 * Secrets (secret keys, session tokens, web identity tokens, SSO access
 * and refresh tokens, client secrets) never enter a diag message; the
 * `source` names where the keys came from, never what they are.
 * Ownership: a creds is the caller's, emptied (and its secrets wiped) by
 * creds_done. Thread-safety: creds_resolve may be called from any thread
 * (one resolution at a time, process-wide).
 */
#ifndef DDBX_CREDS_H
#define DDBX_CREDS_H

#include <stddef.h>

#include "model/status.h"

typedef struct creds {
    char *access_key;
    char *secret_key;
    char *session_token;   /* NULL when there is none */
    long long expires;     /* epoch seconds; 0: never */
    char source[1200];     /* "environment", "~/.aws/credentials [profile p]", ... */
    char identity[512];    /* the ARN (or "account A, role R") when the provider
                            * told it; "" when only STS can say */
} creds;

/*
 * Finds credentials. profile NULL: AWS_PROFILE, else "default" (and the
 * environment's keys come first); non-NULL: that profile, explicitly.
 * ST_USAGE (a configuration to fix, not a DynamoDB error) when none was
 * found, one is half set, a named profile does not exist, a role chain
 * loops, or an SSO token is missing or expired, with a message naming
 * every place looked; ST_IO for an unreadable file, a failed
 * credential_process, or a provider that answered with an error.
 */
status creds_resolve(const char *profile, creds *out, diag *d);
/* The same with the region STS is asked in (--region; NULL: the profile's,
 * as creds_region finds it), as the CLI's --region does. */
status creds_resolve_in(const char *profile, const char *region, creds *out, diag *d);
void creds_done(creds *c);
/* A copy of src (its own strings). */
void creds_copy(creds *dst, const creds *src);
/* Forgets the in-memory temporary credentials (tests). */
void creds_forget(void);

/* The region: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's
 * `region`; *out malloc'd, or NULL when none is configured (ST_OK either
 * way unless a file is bad). */
status creds_region(const char *profile, char **out, diag *d);

/* The profile name in effect (profile, AWS_PROFILE, "default"). */
const char *creds_profile_name(const char *profile);

/* A key of the profile (config file, credentials file over it) or, when
 * var is non-NULL and set, that variable first: *out malloc'd or NULL. */
status creds_setting(const char *var, const char *profile, const char *key, char **out,
                     diag *d);

/*
 * The endpoint a service's requests go to, as the SDKs resolve
 * "service-specific endpoints": AWS_ENDPOINT_URL_<SERVICE>, else
 * AWS_ENDPOINT_URL, else `endpoint_url` under the service in the
 * profile's `services` section, else the profile's `endpoint_url`; none
 * of them when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS or
 * ignore_configured_endpoint_urls is true. var is the service's variable
 * ("AWS_ENDPOINT_URL_DYNAMODB"), service its key in the services section
 * ("dynamodb", "sts", "sso", "sso_oidc"). *out malloc'd, NULL when nothing is configured (then the
 * caller builds the AWS one).
 */
status creds_endpoint(const char *var, const char *profile, const char *service, char **out,
                      diag *d);

/*
 * Asks the user a question (an MFA code): writes the answer (NUL-ended)
 * into answer; returns 0, or -1 when cancelled or impossible. The
 * explorer sets one that asks on its status line; NULL restores the
 * default, which asks on /dev/tty with echo off, as getpass does.
 */
typedef int (*creds_prompt_fn)(void *ctx, const char *question, char *answer, size_t cap);
void creds_set_prompt(creds_prompt_fn fn, void *ctx);

/* sts:GetCallerIdentity, as `aws sts get-caller-identity` answers it. */
typedef struct creds_identity {
    char user_id[256];
    char account[64];
    char arn[512];
} creds_identity;
/* Asks STS (creds_endpoint "sts", else the regional endpoint for region,
 * NULL: the global one) who c is. timeout_ms 0: 10 s. */
status creds_caller_identity(const creds *c, const char *profile, const char *region,
                             long timeout_ms, creds_identity *out, diag *d);

/* Splits a credential_process command line into words as a POSIX shell
 * would (no expansion): NULL-terminated malloc'd argv (free with
 * creds_argv_free), or NULL for an unterminated quote or no words. */
char **creds_split_command(const char *cmd);
void creds_argv_free(char **argv);

/* ---- exposed for tests ------------------------------------------------ */

/* The text of the first <tag>...</tag> in xml, entities decoded
 * (malloc'd), or NULL. */
char *creds_xml_text(const char *xml, const char *tag);
/* The AWS CLI's cache file name (without ".json") for AssumeRole with
 * these arguments (NULL/0: absent): hex SHA-1 of
 * {"DurationSeconds":N,"ExternalId":..,"RoleArn":..,"SerialNumber":..}. */
void creds_assume_cache_key(const char *role_arn, const char *external_id,
                            const char *mfa_serial, long duration, char out[41]);
/* Hex SHA-1 of s (the SSO token cache's file name). */
void creds_sha1_hex(const char *s, char out[41]);
/* "2030-01-01T00:00:00Z" (fractions, +00:00 allowed) to epoch seconds; -1. */
long long creds_parse_time(const char *s);
/* The container endpoint's URL from the environment: 1 (*url malloc'd),
 * 0 not configured, -1 refused (message in d). */
int creds_container_url(char **url, diag *d);

#endif
