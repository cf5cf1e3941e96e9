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

/*
 * A title made of parts, for a title bar that may be narrower than it:
 * TEXT_PART followed by a rank digit ('0' to '9') starts a part (its text
 * carries its own leading separator, "  " or " · "); text before the
 * first mark is a part of rank 0. Parts that do not fit in `width`
 * columns are left out whole, the highest rank first (the last of equal
 * ranks first); rank 0 parts always stay. What is left, when still too
 * wide, is cut at its last space that fits and marked "~", so a number
 * or a word is never cut in two (a single word wider than the row is
 * left whole, for the caller's term_put to cut). Appends the plain text
 * (no marks) and returns its columns; width < 0: every part, uncut.
 */
#define TEXT_PART '\x1f'
int text_title_fit(buf *out, const char *title, size_t len, int width);
/* Starts a part of that rank (0-9) in a title being written. */
void text_title_part(buf *out, int rank);

/*
 * Row k (from 0) of s[0..len) wrapped in `width` columns, as text_fit_row
 * ends rows (at a space, keep 1), a space a row starts with skipped: its
 * start and length in bytes. False when the text has no row k (an empty
 * text has none). text_wrap_rows counts them.
 */
bool text_wrap_row(const char *s, size_t len, int width, size_t k, size_t *from, size_t *n);
size_t text_wrap_rows(const char *s, size_t len, int width);
/* The same with a tail kept whole at the end (a key hint, "[Enter: run]"):
 * three spaces after the last row when it fits there, else on a row of
 * its own. Appends row k's text to out; false when there is no row k.
 * text_wrap_rows_tail counts the rows. */
bool text_wrap_row_tail(const char *s, size_t len, const char *tail, int width, size_t k, buf *out);
size_t text_wrap_rows_tail(const char *s, size_t len, const char *tail, int width);

/* Byte offset of the first case-insensitive (ASCII) occurrence of needle
 * in hay, or -1. */
long text_find(const char *hay, size_t hlen, const char *needle, size_t nlen);

#endif
