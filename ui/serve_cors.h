/*
 * serve_cors — `ddbx serve --cors LIST` (DynamoDB Local's -cors): the
 * CORS answers that let a browser page (a web admin, a front end under
 * test) call the endpoint.
 *
 * What DynamoDB Local 3.3.1 answers, seen here 2026-12-06 (curl against
 * `-cors http://a.example,http://b.example`): a preflight OPTIONS is 200
 * with an empty body, Access-Control-Allow-Methods the method asked,
 * Access-Control-Allow-Headers the headers asked, Access-Control-Max-Age
 * 1728000, and Access-Control-Allow-Origin the Origin when the list
 * names it (none otherwise); any other request from a listed Origin
 * carries Access-Control-Allow-Origin. Its documentation says `*` is
 * "public access": here `*` allows every Origin (DynamoDB Local 3.3.1
 * sent no Allow-Origin for `*`, nor without -cors). Without --cors no
 * CORS header is sent, so no web page the user visits can call a local
 * endpoint (as DynamoDB Local 3.3.1 in fact behaves; its documentation
 * says the default is `*`). Beyond DynamoDB Local: Access-Control-Expose-
 * Headers names x-amzn-RequestId and x-amz-crc32 (the browser SDK reads
 * them), and Vary: Origin.
 */
#ifndef DDBX_SERVE_CORS_H
#define DDBX_SERVE_CORS_H

#include <stdbool.h>

#include "ui/httpd.h"

/* With list NULL (no --cors): nothing, false. Else a preflight (OPTIONS)
 * is answered into *rs (true: the request is done); any other request
 * from an allowed Origin gets its headers added to *rs (call after the
 * answer is written), false. */
bool serve_cors(const char *list, const httpd_request *rq, httpd_response *rs, bool answered);

#endif
