/*
 * lineedit — the text of a prompt being edited, and what of it fits on
 * the prompt line: the line editor under every prompt (ui/prompt.c).
 *
 * The text is a gap buffer with the gap at the cursor, so typing or
 * pasting a character, deleting one and moving the cursor by one are
 * O(1) (amortised: the buffer doubles when full); Home, End, ^U and ^K
 * move or drop what they cross. The line shown is measured from the
 * cursor outwards and only as far as the line is wide: the text before
 * the cursor that fits in the columns given (the cursor at the right
 * edge once the text is longer, as before), then what follows it up to
 * the edge. So a key costs the same with 10 characters typed or 100,000
 * (issue 27, item 4: the prompt re-measured the whole text from every
 * start offset on every key, and 5,000 pasted characters froze it).
 * Widths are ui/text's: wide (CJK) characters take two columns, control
 * characters and invalid bytes their escapes. `measured` counts the code
 * points measured and `moved` the bytes moved, for tests/ui/
 * test_lineedit.c.
 *
 * Ownership: a lineedit is embedded (lineedit_init / lineedit_done) and
 * owns its bytes; lineedit_text copies them out.
 */
#ifndef DDBX_LINEEDIT_H
#define DDBX_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"

typedef struct lineedit {
    char *b;           /* [0, gap) before the cursor, [end, cap) after it */
    size_t gap, end, cap;
    uint64_t measured; /* code points measured by lineedit_line */
    uint64_t moved;    /* bytes the gap moved (cursor moves, growing) */
} lineedit;

/* Starts with text (NULL: empty), the cursor at its end. */
void lineedit_init(lineedit *e, const char *text, size_t len);
void lineedit_done(lineedit *e);

/* Replaces the whole text, the cursor at its end. */
void lineedit_set(lineedit *e, const char *text, size_t len);
/* The text, into out (replacing what out held). */
void lineedit_text(const lineedit *e, buf *out);
size_t lineedit_len(const lineedit *e);

/* Inserts a code point at the cursor (UTF-8 encoded). */
void lineedit_insert(lineedit *e, uint32_t cp);
/* An editing key (ui/keymap.h's K_* codes and the control characters
 * ^A ^B ^D ^E ^F ^K ^U ^W, Backspace and ^H): true when it is one. */
bool lineedit_key(lineedit *e, int key);

/*
 * The prompt line for `avail` columns (>= 0) left of the cursor's last
 * column: into out the bytes to draw (escaped by term_put; at most
 * avail + 1 columns of them, the cursor's column included), and the
 * cursor's column in *col. The text before the cursor shown is the
 * longest tail of it that fits in avail columns.
 */
void lineedit_line(lineedit *e, int avail, buf *out, int *col);

#endif
