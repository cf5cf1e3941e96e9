/*
 * paths — the database's and its pattern folder's paths (see paths.h).
 */
#include "ui/paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/buf.h"
#include "model/mem.h"

char *paths_db(const char *flag_db, int create)
{
    const char *env = getenv("DDBX_DB");
    if (flag_db && *flag_db)
        return xstrdup(flag_db);
    if (env && *env)
        return xstrdup(env);

    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[4096];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/ddbx", xdg);
    else
        snprintf(dir, sizeof dir, "%s/.local/share/ddbx", home ? home : ".");
    if (create) {
        /* mkdir -p, owner only for the last component. */
        for (char *p = dir + 1; *p; p++) {
            if (*p != '/')
                continue;
            *p = '\0';
            if (mkdir(dir, 0755) != 0 && errno != EEXIST)
                break;
            *p = '/';
        }
        mkdir(dir, 0700);
    }
    size_t n = strlen(dir) + sizeof "/ddbx.db";
    char *path = xmalloc(n);
    snprintf(path, n, "%s/ddbx.db", dir);
    return path;
}

char *paths_patterns_dir(const char *db_path)
{
    const char *slash = strrchr(db_path, '/');
    buf b = BUF_INIT;
    if (slash)
        buf_printf(&b, "%.*s/patterns", (int)(slash - db_path), db_path);
    else
        buf_adds(&b, "patterns");
    return buf_steal(&b);
}
