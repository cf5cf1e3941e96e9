/*
 * creds_net — the HTTP half of the credential chain (data/creds.h): one
 * request with libcurl, and the calls the providers make (STS's query
 * API, the SSO portal and OIDC, the container endpoint, IMDS). Internal
 * to data/creds*.c.
 *
 * Nothing here prints. Messages name the host and AWS's error code and
 * message, never a header value, a body or a query (they carry tokens).
 */
#ifndef DDBX_CREDS_NET_H
#define DDBX_CREDS_NET_H

#include <stddef.h>

#include "data/creds.h"
#include "model/buf.h"
#include "model/status.h"

typedef struct net_req {
    const char *method;           /* "GET", "PUT", "POST" */
    const char *url;
    const char *const *headers;   /* "Name: value" lines, NULL-ended; may be NULL */
    const char *body;             /* NULL: none */
    size_t body_len;
    long timeout_ms;              /* the whole request; also the connect bound */
    const char *ca_bundle;        /* NULL: the system's CAs */
    const char *what;             /* "STS", "the container endpoint", ... for messages */
    int direct;                   /* never through a proxy from the environment */
} net_req;

/* One request. ST_OK with *http the status and the body in resp (also for
 * 4xx/5xx); ST_IO "cannot connect to / timed out talking to WHAT (HOST)"
 * when no answer came. */
status net_do(const net_req *q, long *http, buf *resp, diag *d);

/* What the STS calls need. */
typedef struct sts_target {
    const char *endpoint;   /* "https://sts.us-east-1.amazonaws.com" */
    const char *region;     /* signing region */
    const char *ca_bundle;
    long timeout_ms;
} sts_target;

/* An STS query-API call: form is "Action=...&Version=2011-06-15&..."
 * (values already %-encoded). signer NULL: unsigned (web identity). On
 * ST_OK *xml is the response (malloc'd); an <ErrorResponse> is ST_IO
 * "STS CODE: MESSAGE" (ST_USAGE for AccessDenied and the like, which a
 * retry does not change). */
status net_sts(const sts_target *t, const creds *signer, const char *form, char **xml,
               diag *d);

/* Appends "&name=value" with value %-encoded (RFC 3986 unreserved kept). */
void net_form_add(buf *b, const char *name, const char *value);

/* Fills out from an STS <Credentials> block (AssumeRole*); the identity
 * from <AssumedRoleUser><Arn>. ST_IO when a field is missing. */
status net_sts_creds(const char *xml, const char *what, creds *out, diag *d);

#endif
