#include "data/dynlib.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

status dynlib_load(const char *soname, const char *const *names, size_t n, void *table, diag *d)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return diag_set(d, ST_IO, "cannot load %s: %s", soname, dlerror());
    void **found = xcalloc(n ? n : 1, sizeof *found);
    for (size_t i = 0; i < n; i++) {
        dlerror();
        found[i] = dlsym(h, names[i]);
        if (!found[i]) {
            free(found);
            /* A handle that stays open: the library may serve another
             * table already, and a failed load is rare enough. */
            return diag_set(d, ST_IO, "%s has no %s", soname, names[i]);
        }
    }
    memcpy(table, found, n * sizeof *found);
    free(found);
    return ST_OK;
}
