#include "ui/jscan.h"

#include <stdlib.h>
#include <string.h>

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i;
}

/* End (exclusive) of the value starting at i. */
static size_t value_end(const char *s, size_t n, size_t i)
{
    if (i >= n)
        return n;
    if (s[i] == '"') {
        for (i++; i < n; i++) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"')
                return i + 1;
        }
        return n;
    }
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        bool str = false;
        for (; i < n; i++) {
            char c = s[i];
            if (str) {
                if (c == '\\')
                    i++;
                else if (c == '"')
                    str = false;
                continue;
            }
            if (c == '"')
                str = true;
            else if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0)
                return i + 1;
        }
        return n;
    }
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n')
        i++;
    return i;
}

bool jscan_member(const char *s, size_t n, const char *name, const char **val, size_t *vlen)
{
    size_t i = skip_ws(s, n, 0), nl = strlen(name);
    if (i >= n || s[i] != '{')
        return false;
    i++;
    for (;;) {
        i = skip_ws(s, n, i);
        if (i >= n || s[i] != '"')
            return false;
        size_t ks = i + 1, ke = value_end(s, n, i) - 1;
        i = skip_ws(s, n, ke + 1);
        if (i >= n || s[i] != ':')
            return false;
        i = skip_ws(s, n, i + 1);
        size_t ve = value_end(s, n, i);
        if (ke - ks == nl && memcmp(s + ks, name, nl) == 0) {
            *val = s + i;
            *vlen = ve - i;
            return true;
        }
        i = skip_ws(s, n, ve);
        if (i >= n || s[i] != ',')
            return false;
        i++;
    }
}

bool jscan_next(const char *arr, size_t n, size_t *pos, const char **val, size_t *vlen)
{
    size_t i = *pos;
    if (i == 0) {
        i = skip_ws(arr, n, 0);
        if (i >= n || arr[i] != '[')
            return false;
        i++;
    }
    i = skip_ws(arr, n, i);
    if (i < n && arr[i] == ',')
        i = skip_ws(arr, n, i + 1);
    if (i >= n || arr[i] == ']')
        return false;
    size_t e = value_end(arr, n, i);
    *val = arr + i;
    *vlen = e - i;
    *pos = e;
    return true;
}

long long jscan_int(const char *val, size_t vlen, long long def)
{
    char tmp[32];
    if (vlen == 0 || vlen >= sizeof tmp)
        return def;
    memcpy(tmp, val, vlen);
    tmp[vlen] = '\0';
    char *end;
    long long v = strtoll(tmp, &end, 10);
    return end == tmp ? def : v;
}
