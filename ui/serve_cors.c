/*
 * serve_cors — the CORS headers of `ddbx serve --cors` (ui/serve_cors.h).
 */
#include "ui/serve_cors.h"

#include <stdio.h>
#include <string.h>

/* Whether list ("*" or origins separated by commas) allows origin. */
static bool serve_cors_allows(const char *list, const char *origin)
{
    if (!list || !origin || !*origin)
        return false;
    size_t n = strlen(origin);
    for (const char *p = list; *p;) {
        p += strspn(p, " ,");
        size_t k = strcspn(p, ",");
        size_t t = k;
        while (t > 0 && p[t - 1] == ' ')
            t--;
        if ((t == 1 && p[0] == '*') || (t == n && strncmp(p, origin, n) == 0))
            return true;
        p += k;
    }
    return false;
}

static void add(httpd_response *rs, const char *name, const char *value)
{
    if (rs->n_extra >= HTTPD_MAX_EXTRA)
        return;
    rs->extra_name[rs->n_extra] = name;
    snprintf(rs->extra_value[rs->n_extra], sizeof rs->extra_value[0], "%s", value);
    rs->n_extra++;
}

bool serve_cors(const char *list, const httpd_request *rq, httpd_response *rs, bool answered)
{
    if (!list)
        return false;
    const char *origin = httpd_header_value(rq, "Origin");
    bool ok = serve_cors_allows(list, origin);
    if (!answered && strcmp(rq->method, "OPTIONS") == 0) {
        const char *m = httpd_header_value(rq, "Access-Control-Request-Method");
        const char *h = httpd_header_value(rq, "Access-Control-Request-Headers");
        rs->status = 200;
        rs->content_type = "text/plain";
        add(rs, "Access-Control-Allow-Methods", m && *m ? m : "POST");
        if (h && *h)
            add(rs, "Access-Control-Allow-Headers", h);
        add(rs, "Access-Control-Max-Age", "1728000");
        if (ok) {
            add(rs, "Access-Control-Allow-Origin", origin);
            add(rs, "Vary", "Origin");
        }
        return true;
    }
    if (answered && ok) {
        add(rs, "Access-Control-Allow-Origin", origin);
        add(rs, "Access-Control-Expose-Headers", "x-amzn-RequestId, x-amz-crc32");
        add(rs, "Vary", "Origin");
    }
    return false;
}
