/*
 * ddbjson_pretty — DynamoDB JSON indented for people (the item view, the
 * editor, the builder's results). Part of model/ddbjson.h; a file of its
 * own because it works on the text ddbjson_write_* produce, not on cJSON.
 */
#include <stdbool.h>

#include "model/ddbjson.h"

void ddbjson_pretty(buf *out, const char *s, size_t n)
{
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            buf_addc(out, c);
            if (c == '\\' && i + 1 < n)
                buf_addc(out, s[++i]);
            else if (c == '"')
                in_str = false;
            continue;
        }
        switch (c) {
        case '"':
            in_str = true;
            buf_addc(out, c);
            break;
        case '{': case '[': {
            /* Keep short leaf objects such as {"S":"x"} on one line. */
            size_t j = i + 1;
            bool q = false, leaf = true;
            for (; j < n; j++) {
                if (q) {
                    if (s[j] == '\\') j++;
                    else if (s[j] == '"') q = false;
                    continue;
                }
                if (s[j] == '"') q = true;
                else if (s[j] == '{' || s[j] == '[') { leaf = false; break; }
                else if (s[j] == '}' || s[j] == ']') break;
            }
            if (leaf && j < n && j - i < 60 && !(c == '{' && depth == 0)) {
                buf_add(out, s + i, j - i + 1);
                i = j;
                break;
            }
            buf_addc(out, c);
            depth++;
            buf_addc(out, '\n');
            for (int k = 0; k < depth; k++)
                buf_adds(out, "  ");
            break;
        }
        case '}': case ']':
            depth--;
            buf_addc(out, '\n');
            for (int k = 0; k < depth; k++)
                buf_adds(out, "  ");
            buf_addc(out, c);
            break;
        case ',':
            buf_addc(out, c);
            buf_addc(out, '\n');
            for (int k = 0; k < depth; k++)
                buf_adds(out, "  ");
            break;
        case ':':
            buf_adds(out, ": ");
            break;
        default:
            buf_addc(out, c);
        }
    }
}

void ddbjson_write_item_pretty(buf *out, const av *item)
{
    buf compact = BUF_INIT;
    ddbjson_write_item(&compact, item);
    ddbjson_pretty(out, compact.data ? compact.data : "", compact.len);
    buf_done(&compact);
}
