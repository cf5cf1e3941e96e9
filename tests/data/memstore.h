/*
 * memstore.h — the data tests' fixtures for in-memory databases and peer
 * connections: setup_memory opens a store on a new ":memory:" database
 * (`ddbx serve --in-memory`'s), setup_image on one made from the schema's
 * image as the binary makes them (store_set_memory_image,
 * tools/memimage.c), teardown_memory closes it; peer_of opens another
 * connection to a store's database (store_open_peer, one a `ddbx serve`
 * worker thread). Static, for inclusion by one test program each, after
 * <cmocka.h> and tmpstore.h (path is emptied: no file); main frees image.
 */
#ifndef DDBX_TEST_MEMSTORE_H
#define DDBX_TEST_MEMSTORE_H

#include "data/store.h"

static store *peer_of(store *s)
{
    store *p = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_peer(s, &p, &d), ST_OK);
    return p;
}

static int setup_memory(void **state)
{
    store *s;
    diag d;
    diag_init(&d);
    *path = 0;
    assert_int_equal(store_open(":memory:", 0, &s, &d), ST_OK);
    *state = s;
    return 0;
}

static int teardown_memory(void **state)
{
    store_close(*state);
    store_set_memory_image(NULL, 0);
    return 0;
}

static unsigned char *image;
static size_t image_len;

static int setup_image(void **state)
{
    diag d;
    diag_init(&d);
    if (!image)
        assert_int_equal(store_memory_image(&image, &image_len, &d), ST_OK);
    assert_true(image_len >= 4096 && image_len % 4096 == 0);
    assert_memory_equal(image, "SQLite format 3", 16);
    store_set_memory_image(image, image_len);
    return setup_memory(state);
}

#endif
