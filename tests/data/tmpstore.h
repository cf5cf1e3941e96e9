/*
 * tmpstore.h — the cmocka fixture of the data tests: setup opens a store on
 * a new database in a fresh folder under /tmp (its path in `path`, the
 * folder in `dir`); teardown closes it and removes the folder. Static, for
 * inclusion by one test program each, after <cmocka.h>.
 */
#ifndef DDBX_TEST_TMPSTORE_H
#define DDBX_TEST_TMPSTORE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/store.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
    strcpy(dir, "/tmp/ddbx-test-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
    store *s;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

#endif
