/*
 * creds_net — the HTTP half of the credential chain (data/creds.h): the
 * calls the providers make over remote_http_do (libcurl stays in
 * data/remote.c) (STS's query
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
#include "data/remote.h"
#include "model/buf.h"
#include "model/status.h"

typedef remote_http net_req;   /* the request; data/remote.h */

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
