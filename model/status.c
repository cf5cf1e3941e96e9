#include "model/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = {
#define X(code, name) [code] = name,
    STATUS_LIST(X)
#undef X
};

const char *status_name(status code)
{
    if ((unsigned)code >= ST__COUNT)
        return "InternalServerError";
    return names[code];
}

void diag_init(diag *d)
{
    /* Field by field: a diag is 1.8 KB, mostly text buffers, and one is
     * initialised on every request (memset made it a tenth of GetItem). */
    d->code = ST_OK;
    d->line = d->col = 0;
    d->pos = -1;
    d->file[0] = d->path[0] = d->msg[0] = '\0';
}

static status diag_vset(diag *d, status code, const char *fmt, va_list ap)
{
    if (!d)
        return code;
    d->code = code;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return code;
}

status diag_set(diag *d, status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(d, code, fmt, ap);
    va_end(ap);
    return code;
}

status diag_at(diag *d, status code, long pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(d, code, fmt, ap);
    va_end(ap);
    if (d)
        d->pos = pos;
    return code;
}
