/*
 * creds_int — what the files of the credential chain share, private to
 * them: creds.c (the helpers, the CLI's caches, the chain), creds_config.c
 * (the two files and the settings), creds_process.c, creds_role.c,
 * creds_sso.c and creds_metadata.c (the providers). Nothing outside these
 * files includes it; the public interface is creds.h.
 *
 * Strings returned by the cfg lookups point into the cfg and live as long
 * as it does; every char * a function here returns is malloc'd and the
 * caller's. A provider returns 1 with *out filled, 0 when it does not
 * apply (the chain goes on), -1 with d set when it applies and failed.
 */
#ifndef DDBX_DATA_CREDS_INT_H
#define DDBX_DATA_CREDS_INT_H

#include <stddef.h>

#include "data/creds.h"

#define REFRESH_EARLY 300        /* in memory: fetched again 5 minutes before expiry */
#define CACHE_WINDOW 900         /* the CLI's caches: used while 15 minutes are left */
#define MAX_CHAIN 16

struct cJSON;

/* ---- helpers (creds.c) ---- */

const char *creds_env(const char *name);       /* the variable, NULL when unset or empty */
int creds_is_true(const char *v);              /* "true", any case */
char *creds_home_path(const char *rel);        /* ~/REL */
void creds_wipe(char *s);                      /* zeroes a secret in place */
void creds_wipe_free(char *s);
char *creds_trim(char *s);                     /* in place: blanks and line ends off */
const char *creds_jstr(const struct cJSON *o, const char *k); /* a non-empty string member */
void creds_wipe_json_strings(struct cJSON *j);  /* zeroes the object's string members */
char *creds_read_small(const char *path);      /* a whole small file, NULL when unreadable */
int creds_write_private(const char *path, const char *text); /* mode 0600, dirs 0700 */
void creds_iso_time(long long t, char out[32]); /* UTC, as the CLI writes expirations */

/* The CLI's cache of temporary keys (~/.aws/cli/cache/KEY.json): loaded
 * when at least CACHE_WINDOW seconds are left; source names the provider. */
int creds_cache_load(const char *key, creds *out, const char *source);
void creds_cache_store(const char *key, const creds *c);

/* ---- the two files (creds_config.c) ---- */

enum { F_CONF = 1, F_CRED = 2 };

typedef struct cent {
    int file;
    char *sec, *key, *sub, *val;
} cent;

typedef struct cfg {
    cent *v;
    size_t n, cap;
    char *conf, *cred;   /* the paths */
} cfg;

status creds_cfg_load(cfg *c, diag *d);
void creds_cfg_free(cfg *c);
/* The value of KEY (SUB: its sub-key, or NULL) in section SEC of the files
 * in MASK; *from (may be NULL) is told which file. */
const char *creds_cfg_find(const cfg *c, int mask, const char *sec, const char *key,
                           const char *sub, int *from);
int creds_cfg_has_section(const cfg *c, const char *sec);
const char *creds_pget(const cfg *c, const char *prof, const char *key); /* [profile PROF] */
void creds_where_of(const cfg *c, int file, const char *prof, char *out, size_t n);
/* The variable VAR (may be NULL), else KEY of the profile. */
const char *creds_conf_setting(const char *var, const cfg *c, const char *prof, const char *key);
const char *creds_region_of(const cfg *c, const char *prof);
const char *creds_endpoint_of(const char *var, const cfg *c, const char *prof,
                              const char *service);

/* ---- one resolution ---- */

typedef struct rctx {
    cfg c;
    const char *top;            /* the profile asked for */
    const char *region;         /* for STS; NULL: none configured */
    const char *ca_bundle;
    const char *path[MAX_CHAIN]; /* the role chain so far */
    int depth;
    char imds_note[200];
} rctx;

/* The providers, in the chain's order (creds.c creds_profile_chain). */
int creds_profile_chain(rctx *x, const char *prof, int top, creds *out, diag *d); /* creds.c */
int creds_env_keys(creds *out, diag *d);                                  /* creds_process.c */
int creds_static_keys(const cfg *c, int file, const char *prof, creds *out, diag *d);
int creds_has_static(const cfg *c, const char *prof);
status creds_run_process(const char *cmd, const char *where, creds *out, diag *d);
int creds_assume_role(rctx *x, const char *prof, creds *out, diag *d);    /* creds_role.c */
int creds_web_identity(rctx *x, const char *prof, int top, creds *out, diag *d);
int creds_sso(rctx *x, const char *prof, creds *out, diag *d);            /* creds_sso.c */
int creds_container(rctx *x, creds *out, diag *d);                        /* creds_metadata.c */
int creds_imds(rctx *x, creds *out, diag *d);

#endif
