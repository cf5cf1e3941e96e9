/*
 * keymap — keys, their names, and the bindings from keys to requests.
 *
 * A key is a Unicode code point (control keys are 1..31) or one of the
 * K_* codes above the Unicode range. Bindings come from a text file of
 * lines `bind KEY REQUEST` (`#` comments), or `bind VIEW KEY REQUEST`
 * for a binding that holds in one view only (the builder's `m`) and wins
 * there over the global one: the defaults are
 * assets/keys.conf, compiled into the binary by the Makefile
 * (keymap_default_conf); a user file ($XDG_CONFIG_HOME/ddbx/keys.conf)
 * may add or replace bindings. The keymap owns its binding table; nothing
 * is returned that the caller must free.
 */
#ifndef DDBX_KEYMAP_H
#define DDBX_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/status.h"
#include "ui/request.h"

enum {
    K_BASE = 0x110000,
    K_UP, K_DOWN, K_LEFT, K_RIGHT, K_PGUP, K_PGDN, K_HOME,
    K_END, K_ENTER, K_TAB, K_BTAB, K_ESC, K_BACKSPACE,
    K_DELETE, K_INSERT, K_F1,
    /* Not keys a user presses, but events the terminal reports. */
    K_RESIZE, K_CLICK, K_DOUBLE, K_WHEEL_UP, K_WHEEL_DOWN,
    K_INTERRUPT,   /* ^C or SIGINT */
    K_EOF,         /* input ended (end of a script) */
    K_TICK,        /* term_getkey_timeout: no key within the time */
    K_NONE
};

/* The default bindings (assets/keys.conf), generated into the build. */
extern const char keymap_default_conf[];
extern const size_t keymap_default_conf_len;

/* Empties the table, then loads the compiled-in defaults. */
status keymap_init(diag *d);
void keymap_done(void);

/* Parses binding lines; each error carries line and column. file names
 * the source in diagnostics (may be NULL). */
status keymap_load(const char *text, size_t len, const char *file, diag *d);

/* The request bound to key, or REQ_NONE. */
enum req keymap_lookup(int key);
/* The same in the view named view (view_ops.name): its own binding of
 * the key first, else the global one. */
enum req keymap_lookup_in(const char *view, int key);

/* "j", "Down", "^F", "Space", "<", ... */
void keymap_key_name(int key, buf *out);
/* Inverse of keymap_key_name; -1 when unknown. */
int keymap_key_parse(const char *name, size_t len);

/* All keys bound to a request, comma separated ("j, Down"), into out. */
void keymap_keys_of(enum req r, buf *out);

/* Request by bindings-file name ("move-down"), or REQ_NONE. */
enum req keymap_req_parse(const char *name, size_t len);
const char *keymap_req_name(enum req r);
const char *keymap_req_help(enum req r);
const char *keymap_req_section(enum req r);

/* The man page's KEYS section body (roff), generated from REQ_LIST and
 * the current bindings; assets/ddbx.1 carries it between markers. */
void keymap_write_man(buf *out);
/* The explorer's `:` commands (ui/command.h) as a roff list. */
void keymap_write_man_commands(buf *out);

#endif
