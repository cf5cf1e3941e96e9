/*
 * text — what data looks like on a terminal: UTF-8 decoding, display
 * width (wcwidth: wide Korean/CJK cells count 2, combining marks 0), and
 * escaping, so that control bytes, invalid UTF-8 and other unprintable
 * code points in data are shown as `\x1b`, `\xff` or `\u{202e}` and never
 * reach the terminal raw.
 *
 * Pure functions over caller-owned buffers; no curses. text_init must run
 * once before the first width computation (it makes LC_CTYPE UTF-8).
 */
#ifndef DDBX_TEXT_H
#define DDBX_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"

#define TEXT_BAD 0xFFFFFFFFu   /* an invalid UTF-8 byte */

/* Makes LC_CTYPE a UTF-8 locale (the environment's, else C.UTF-8).
 * Returns false when no UTF-8 locale is available. */
bool text_init(void);

/* Decodes one code point from p[0..len) (len > 0); returns bytes used
 * (1 for an invalid byte, with *cp = TEXT_BAD). Overlongs, surrogates and
 * values above U+10FFFF are invalid. */
size_t text_decode(const char *p, size_t len, uint32_t *cp);

/* Appends the code point as UTF-8. */
void text_encode(buf *out, uint32_t cp);

/* Columns the code point takes on screen once escaped (escapes are ASCII
 * and count their length). */
int text_cp_width(uint32_t cp);

/* Columns of the whole string, escaped. */
int text_width(const char *s, size_t len);

/*
 * Appends the escaped form of s[0..len), clipped to `width` columns: a
 * string that does not fit ends in "~" (one column) when `mark` is set,
 * a wide character that would straddle the edge is not drawn. With `pad`
 * the result is padded with spaces to exactly `width` columns. Returns
 * the columns appended. width < 0 means no limit.
 */
int text_fit(buf *out, const char *s, size_t len, int width, bool pad, bool mark);

/*
 * One row of wrapped text: how many bytes of s[0..len) fit in `room`
 * columns (at least one code point, so wrapping always moves on). When
 * the text goes on past the row and does not go on with a space, the row
 * ends instead just after its last space that is at least `keep` columns
 * in (1: any space; a larger keep leaves fewer short rows; past room:
 * never, cut at the column). The caller decides whether the next row
 * skips a space it starts with.
 */
size_t text_fit_row(const char *s, size_t len, int room, int keep);

/* Byte offset of the first case-insensitive (ASCII) occurrence of needle
 * in hay, or -1. */
long text_find(const char *hay, size_t hlen, const char *needle, size_t nlen);

#endif
