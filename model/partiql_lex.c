/*
 * partiql_lex — PartiQL text into tokens (identifiers, quoted names,
 * strings, numbers, `?`, punctuation; `--` comments skipped), with the
 * line and column of a syntax error; and the two questions answered from
 * tokens alone: how many `?` a statement has, whether it reads.
 */
#include "model/partiql_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"

static void line_col(const P *p, long pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (long i = 0; i < pos && (size_t)i < p->len; i++) {
        if (p->t[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)p->t[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

/* A syntax error at pos: DynamoDB's lead-in, what was wrong, where. */
status pq_syntax_at(P *p, long pos, const char *what)
{
    int line, col;
    line_col(p, pos, &line, &col);
    p->d->line = line;
    p->d->col = col;
    return diag_at(p->d, ST_VALIDATION, pos, "%s%s at line %d, column %d", PQ_WF, what, line, col);
}

static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void push_tok(P *p, tkind k, long pos, size_t len)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 32;
        p->toks = xrealloc(p->toks, p->cap * sizeof *p->toks);
    }
    p->toks[p->n++] = (tok){ k, pos, len };
}

status pq_lex(P *p)
{
    const char *t = p->t;
    size_t i = 0, n = p->len;
    while (i < n) {
        unsigned char c = (unsigned char)t[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
            continue;
        }
        if (c == '-' && i + 1 < n && t[i + 1] == '-') {      /* -- comment to the end of the line */
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        size_t s = i;
        if (is_ident_start(c)) {
            while (i < n && is_ident_char((unsigned char)t[i]))
                i++;
            push_tok(p, T_IDENT, (long)s, i - s);
        } else if (c == '"' || c == '\'') {
            i++;
            for (;;) {
                if (i >= n)
                    return pq_syntax_at(p, (long)s, c == '"' ? "Unterminated quoted identifier"
                                                          : "Unterminated string literal");
                if ((unsigned char)t[i] == c) {
                    if (i + 1 < n && (unsigned char)t[i + 1] == c) {
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                i++;
            }
            push_tok(p, c == '"' ? T_QIDENT : T_STRING, (long)s, i - s);
        } else if (pq_is_digit(c) ||
                   (c == '.' && i + 1 < n && pq_is_digit((unsigned char)t[i + 1]))) {
            while (i < n && pq_is_digit((unsigned char)t[i]))
                i++;
            if (i < n && t[i] == '.') {
                i++;
                while (i < n && pq_is_digit((unsigned char)t[i]))
                    i++;
            }
            if (i < n && (t[i] == 'e' || t[i] == 'E')) {
                size_t e = i + 1;
                if (e < n && (t[e] == '+' || t[e] == '-'))
                    e++;
                if (e < n && pq_is_digit((unsigned char)t[e])) {
                    i = e;
                    while (i < n && pq_is_digit((unsigned char)t[i]))
                        i++;
                }
            }
            if (i < n && is_ident_char((unsigned char)t[i]))
                return pq_syntax_at(p, (long)s, "Invalid numeric literal");
            push_tok(p, T_NUMBER, (long)s, i - s);
        } else if (c == '?') {
            i++;
            push_tok(p, T_PARAM, (long)s, 1);
        } else {
            static const char *const two[] = { "<<", ">>", "<=", ">=", "<>", "!=" };
            size_t len = 0;
            for (size_t k = 0; k < sizeof two / sizeof *two; k++)
                if (i + 1 < n && t[i] == two[k][0] && t[i + 1] == two[k][1])
                    len = 2;
            if (!len && strchr("()[]{},.:*=<>+-;", c) && c)
                len = 1;
            if (!len)
                return pq_syntax_at(p, (long)s, "Unexpected character");
            i += len;
            push_tok(p, T_PUNCT, (long)s, len);
        }
    }
    push_tok(p, T_EOF, (long)n, 0);
    return ST_OK;
}


size_t pq_count_params(const char *text, size_t len)
{
    diag d;
    diag_init(&d);
    P p = { .t = text, .len = len, .d = &d };
    size_t n = 0;
    if (len <= PQ_MAX_BYTES && !memchr(text, '\0', len) && pq_lex(&p) == ST_OK)
        for (size_t i = 0; i < p.n; i++)
            n += p.toks[i].k == T_PARAM;
    free(p.toks);
    return n;
}

bool pq_is_read_text(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
                       text[i] == '('))
        i++;
    return len - i >= 6 && strncasecmp(text + i, "SELECT", 6) == 0 &&
           (len - i == 6 || !is_ident_char((unsigned char)text[i + 6]));
}

