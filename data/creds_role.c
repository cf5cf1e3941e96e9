/*
 * creds_role — the providers that call STS: assume-role (with its MFA
 * prompt and the CLI's cache), web identity, and GetCallerIdentity.
 * Part of creds (see creds.h, creds_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "data/creds_int.h"
#include "data/creds_net.h"
#include "model/buf.h"
#include "model/mem.h"

/* ---- asking for an MFA code --------------------------------------------- */

static creds_prompt_fn prompt_fn;
static void *prompt_ctx;

void creds_set_prompt(creds_prompt_fn fn, void *ctx)
{
    prompt_fn = fn;
    prompt_ctx = ctx;
}

/* On /dev/tty with echo off, as getpass does. */
static int tty_prompt(const char *question, char *answer, size_t cap)
{
    int fd = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct termios old, quiet;
    int have = tcgetattr(fd, &old) == 0;
    if (have) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(fd, TCSANOW, &quiet);   /* keep what was typed ahead */
    }
    if (write(fd, question, strlen(question)) < 0) {
        /* nothing to do: the read below still works */
    }
    size_t n = 0;
    int ok = 0;
    for (;;) {
        char ch;
        ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (ch == '\n' || ch == '\r') {
            ok = 1;
            break;
        }
        if (n + 1 < cap)
            answer[n++] = ch;
    }
    answer[n] = '\0';
    if (have)
        tcsetattr(fd, TCSANOW, &old);
    if (write(fd, "\n", 1) < 0) {
        /* ignored */
    }
    close(fd);
    return ok ? 0 : -1;
}

static int ask(const char *question, char *answer, size_t cap)
{
    return prompt_fn ? prompt_fn(prompt_ctx, question, answer, cap)
                     : tty_prompt(question, answer, cap);
}

/* ---- STS: where it is, one call -------------------------------------- */

static const char *const sts_global_regions[] = {
    "ap-northeast-1", "ap-south-1", "ap-southeast-1", "ap-southeast-2", "aws-global",
    "ca-central-1", "eu-central-1", "eu-north-1", "eu-west-1", "eu-west-2", "eu-west-3",
    "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2", NULL,
};

/* Where STS is for the top profile; *ep malloc'd. */
static void sts_where(const cfg *c, const char *prof, const char *region, char **ep,
                      const char **sign_region)
{
    const char *conf = creds_endpoint_of("AWS_ENDPOINT_URL_STS", c, prof, "sts");
    *sign_region = region ? region : "us-east-1";
    if (conf) {
        *ep = xstrdup(conf);
        return;
    }
    int legacy = 0;
    const char *mode = creds_conf_setting("AWS_STS_REGIONAL_ENDPOINTS", c, prof, "sts_regional_endpoints");
    if (region && mode && strcasecmp(mode, "legacy") == 0)
        for (size_t i = 0; sts_global_regions[i]; i++)
            legacy |= strcmp(region, sts_global_regions[i]) == 0;
    buf b = BUF_INIT;
    if (!region || legacy || strcmp(region, "aws-global") == 0) {
        buf_adds(&b, "https://sts.amazonaws.com");
        *sign_region = "us-east-1";
    } else {
        buf_printf(&b, "https://sts.%s.amazonaws.com%s", region,
                   strncmp(region, "cn-", 3) == 0 ? ".cn" : "");
    }
    *ep = buf_steal(&b);
}

static status sts_call(rctx *x, const creds *signer, const char *form, char **xml, diag *d)
{
    char *ep = NULL;
    const char *sr;
    sts_where(&x->c, x->top, x->region, &ep, &sr);
    sts_target t = { .endpoint = ep, .region = sr, .ca_bundle = x->ca_bundle, .timeout_ms = 10000 };
    status st = net_sts(&t, signer, form, xml, d);
    free(ep);
    return st;
}

/* ---- assume-role and web identity ------------------------------------ */

static void session_name(const char *given, char *out, size_t n)
{
    if (given)
        snprintf(out, n, "%s", given);
    else
        snprintf(out, n, "ddbx-session-%lld", (long long)time(NULL));
}

/* The keys a role is assumed with (source_profile or credential_source). */
static int role_source(rctx *x, const char *prof, creds *src, diag *d)
{
    const char *sp = creds_pget(&x->c, prof, "source_profile");
    const char *cs = creds_pget(&x->c, prof, "credential_source");
    if (sp && cs) {
        diag_set(d, ST_USAGE, "profile '%s' has both source_profile and credential_source; "
                 "give one", prof);
        return -1;
    }
    if (!sp && !cs) {
        diag_set(d, ST_USAGE, "profile '%s' has role_arn but neither source_profile nor "
                 "credential_source", prof);
        return -1;
    }
    if (cs) {
        int r;
        if (strcmp(cs, "Environment") == 0)
            r = creds_env_keys(src, d);
        else if (strcmp(cs, "Ec2InstanceMetadata") == 0)
            r = creds_imds(x, src, d);
        else if (strcmp(cs, "EcsContainer") == 0)
            r = creds_container(x, src, d);
        else {
            diag_set(d, ST_USAGE, "profile '%s': credential_source '%s' is not one of "
                     "Environment, Ec2InstanceMetadata, EcsContainer", prof, cs);
            return -1;
        }
        if (r == 0)
            diag_set(d, ST_USAGE, "profile '%s': credential_source %s gave no credentials%s%s",
                     prof, cs, x->imds_note[0] && strcmp(cs, "Ec2InstanceMetadata") == 0 ? ": " : "",
                     strcmp(cs, "Ec2InstanceMetadata") == 0 ? x->imds_note : "");
        return r == 0 ? -1 : r;
    }
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", sp);
    if (!creds_cfg_has_section(&x->c, sec)) {
        diag_set(d, ST_USAGE, "the source_profile '%s' of profile '%s' does not exist (in %s "
                 "or %s)", sp, prof, x->c.conf, x->c.cred);
        return -1;
    }
    for (int i = 0; i < x->depth; i++) {
        if (strcmp(x->path[i], sp) != 0)
            continue;
        /* A profile may name itself to use its own static keys; any other
         * return to a profile on the path is a loop (botocore's rule). */
        if (strcmp(sp, prof) != 0 || !creds_has_static(&x->c, sp)) {
            buf b = BUF_INIT;
            for (int k = 0; k < x->depth; k++)
                buf_printf(&b, "%s -> ", x->path[k]);
            buf_adds(&b, sp);
            diag_set(d, ST_USAGE, "the source_profile chain loops: %s", b.data);
            buf_done(&b);
            return -1;
        }
    }
    int r = creds_profile_chain(x, sp, 0, src, d);
    if (r == 0)
        diag_set(d, ST_USAGE, "the source_profile '%s' of profile '%s' has no credentials", sp,
                 prof);
    return r == 0 ? -1 : r;
}

int creds_assume_role(rctx *x, const char *prof, creds *out, diag *d)
{
    if (x->depth >= MAX_CHAIN) {
        diag_set(d, ST_USAGE, "the source_profile chain from '%s' is longer than %d profiles",
                 x->top, MAX_CHAIN);
        return -1;
    }
    x->path[x->depth++] = prof;
    const char *arn = creds_pget(&x->c, prof, "role_arn");
    const char *ext = creds_pget(&x->c, prof, "external_id");
    const char *mfa = creds_pget(&x->c, prof, "mfa_serial");
    const char *dur_s = creds_pget(&x->c, prof, "duration_seconds");
    long dur = 0;
    if (dur_s) {
        char *e;
        dur = strtol(dur_s, &e, 10);
        if (*e || dur < 900 || dur > 43200) {
            diag_set(d, ST_USAGE, "profile '%s': duration_seconds must be a number of seconds "
                     "from 900 to 43200", prof);
            return -1;
        }
    }
    char sname[128];
    session_name(creds_pget(&x->c, prof, "role_session_name"), sname, sizeof sname);
    char what[1100];
    const char *sp = creds_pget(&x->c, prof, "source_profile");
    const char *cs = creds_pget(&x->c, prof, "credential_source");
    snprintf(what, sizeof what, "role %s (profile %s, %s %s)", arn, prof,
             sp ? "source_profile" : "credential_source", sp ? sp : cs ? cs : "?");
    char key[41];
    creds_assume_cache_key(arn, ext, mfa, dur, key);
    if (creds_cache_load(key, out, what))
        return 1;

    creds src;
    memset(&src, 0, sizeof src);
    int r = role_source(x, prof, &src, d);
    if (r < 0)
        return -1;
    buf form = BUF_INIT;
    buf_adds(&form, "Action=AssumeRole&Version=2011-06-15");
    net_form_add(&form, "RoleArn", arn);
    net_form_add(&form, "RoleSessionName", sname);
    if (ext)
        net_form_add(&form, "ExternalId", ext);
    if (dur) {
        char n[32];
        snprintf(n, sizeof n, "%ld", dur);
        net_form_add(&form, "DurationSeconds", n);
    }
    if (mfa) {
        char q[600], code[64];
        snprintf(q, sizeof q, "Enter MFA code for %s: ", mfa);
        if (ask(q, code, sizeof code) != 0 || !code[0]) {
            diag_set(d, ST_USAGE, "profile '%s' needs an MFA code for %s and none was given%s",
                     prof, mfa, prompt_fn ? "" : " (no terminal to ask on?)");
            buf_done(&form);
            creds_done(&src);
            return -1;
        }
        net_form_add(&form, "SerialNumber", mfa);
        net_form_add(&form, "TokenCode", creds_trim(code));
    }
    char *xml = NULL;
    status st = sts_call(x, &src, form.data, &xml, d);
    buf_done(&form);
    creds_done(&src);
    if (st != ST_OK) {
        char m[sizeof d->msg];
        snprintf(m, sizeof m, "%s", d->msg);
        diag_set(d, st, "AssumeRole %s for profile '%s': %s", arn, prof, m);
        return -1;
    }
    st = net_sts_creds(xml, "AssumeRole", out, d);
    creds_wipe_free(xml);
    if (st != ST_OK)
        return -1;
    snprintf(out->source, sizeof out->source, "%s", what);
    creds_cache_store(key, out);
    return 1;
}

int creds_web_identity(rctx *x, const char *prof, int top, creds *out, diag *d)
{
    const char *file = top && creds_env("AWS_WEB_IDENTITY_TOKEN_FILE") ? creds_env("AWS_WEB_IDENTITY_TOKEN_FILE")
                       : creds_pget(&x->c, prof, "web_identity_token_file");
    if (!file)
        return 0;
    int from_env = top && creds_env("AWS_WEB_IDENTITY_TOKEN_FILE");
    const char *arn = top && creds_env("AWS_ROLE_ARN") ? creds_env("AWS_ROLE_ARN") : creds_pget(&x->c, prof, "role_arn");
    if (!arn) {
        diag_set(d, ST_USAGE, "%s names a web identity token file but no role: set AWS_ROLE_ARN "
                 "or role_arn in profile '%s'",
                 from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file", prof);
        return -1;
    }
    char sname[128];
    session_name(top && creds_env("AWS_ROLE_SESSION_NAME") ? creds_env("AWS_ROLE_SESSION_NAME")
                 : creds_pget(&x->c, prof, "role_session_name"), sname, sizeof sname);
    char *tok = creds_read_small(file);
    if (!tok) {
        diag_set(d, ST_IO, "cannot read the web identity token file %s (%s): %s", file,
                 from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file",
                 strerror(errno));
        return -1;
    }
    buf form = BUF_INIT;
    buf_adds(&form, "Action=AssumeRoleWithWebIdentity&Version=2011-06-15");
    net_form_add(&form, "RoleArn", arn);
    net_form_add(&form, "RoleSessionName", sname);
    net_form_add(&form, "WebIdentityToken", creds_trim(tok));
    creds_wipe_free(tok);
    char *xml = NULL;
    status st = sts_call(x, NULL, form.data, &xml, d);
    buf_wipe(&form);
    if (st != ST_OK) {
        char m[sizeof d->msg];
        snprintf(m, sizeof m, "%s", d->msg);
        diag_set(d, st, "AssumeRoleWithWebIdentity %s: %s", arn, m);
        return -1;
    }
    st = net_sts_creds(xml, "AssumeRoleWithWebIdentity", out, d);
    creds_wipe_free(xml);
    if (st != ST_OK)
        return -1;
    snprintf(out->source, sizeof out->source, "web identity (%s %s, role %s)",
             from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file", file, arn);
    return 1;
}

/* ---- who am I ------------------------------------------------------------ */

status creds_caller_identity(const creds *c, const char *profile, const char *region,
                             long timeout_ms, creds_identity *out, diag *d)
{
    memset(out, 0, sizeof *out);
    cfg cf;
    status st = creds_cfg_load(&cf, d);
    if (st != ST_OK) {
        creds_cfg_free(&cf);
        return st;
    }
    const char *prof = creds_profile_name(profile);
    char *ep = NULL;
    const char *sr;
    sts_where(&cf, prof, region, &ep, &sr);
    sts_target t = { .endpoint = ep, .region = sr,
                     .ca_bundle = creds_conf_setting("AWS_CA_BUNDLE", &cf, prof, "ca_bundle"),
                     .timeout_ms = timeout_ms > 0 ? timeout_ms : 10000 };
    char *xml = NULL;
    st = net_sts(&t, c, "Action=GetCallerIdentity&Version=2011-06-15", &xml, d);
    if (st == ST_OK) {
        char *arn = creds_xml_text(xml, "Arn"), *acct = creds_xml_text(xml, "Account");
        char *uid = creds_xml_text(xml, "UserId");
        if (!arn || !acct) {
            st = diag_set(d, ST_IO, "GetCallerIdentity: the answer lacks Arn or Account");
        } else {
            snprintf(out->arn, sizeof out->arn, "%s", arn);
            snprintf(out->account, sizeof out->account, "%s", acct);
            snprintf(out->user_id, sizeof out->user_id, "%s", uid ? uid : "");
        }
        free(arn);
        free(acct);
        free(uid);
    }
    free(xml);
    free(ep);
    creds_cfg_free(&cf);
    return st;
}
