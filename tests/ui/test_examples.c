/*
 * The `:` commands' working examples (ui/command_examples.h): every
 * command of ui/command.h has exactly one, named as in CMD_LIST, whose
 * text starts with the command, and says what it shows (so tests/help can
 * check it).
 *
 * `test_examples --table` prints the examples for tests/help, one a line:
 * NAME|WHERE|EXAMPLE|SHOWS, WHERE's script lines joined by \036.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/command.h"
#include "ui/command_examples.h"

typedef struct ex {
    const char *name, *where, *example, *shows;
} ex;

static const ex examples[] = {
#define EX_ROW(n, w, e, s) { #n, w, e, s },
    CMD_EXAMPLES(EX_ROW)
#undef EX_ROW
};
#define N_EX (sizeof examples / sizeof examples[0])

static const char *const commands[] = {
#define CMD_NAME(n, args, help) #n,
    CMD_LIST(CMD_NAME)
#undef CMD_NAME
};
#define N_CMD (sizeof commands / sizeof commands[0])

/* ":save-display" for save_display. */
static void command_word(const char *name, char *out, size_t max)
{
    size_t i = 0;
    out[i++] = ':';
    for (; *name && i + 1 < max; name++)
        out[i++] = *name == '_' ? '-' : *name;
    out[i] = '\0';
}

static void test_every_command_has_one(void **state)
{
    for (size_t c = 0; c < N_CMD; c++) {
        size_t found = 0;
        for (size_t e = 0; e < N_EX; e++)
            found += strcmp(examples[e].name, commands[c]) == 0;
        if (found != 1)
            fail_msg(":%s has %zu examples in ui/command_examples.h (one needed)", commands[c],
                     found);
    }
    for (size_t e = 0; e < N_EX; e++) {
        bool known = false;
        for (size_t c = 0; c < N_CMD; c++)
            known |= strcmp(examples[e].name, commands[c]) == 0;
        if (!known)
            fail_msg("the example of %s names no command of ui/command.h", examples[e].name);
    }
}

static void test_examples_are_of_their_command(void **state)
{
    char word[64];
    for (size_t e = 0; e < N_EX; e++) {
        command_word(examples[e].name, word, sizeof word);
        size_t n = strlen(word);
        const char *x = examples[e].example;
        if (strncmp(x, word, n) != 0 || (x[n] != '\0' && x[n] != ' '))
            fail_msg("the example of %s is not a %s command: %s", examples[e].name, word, x);
        if (!examples[e].shows[0])
            fail_msg("the example of %s does not say what it shows", examples[e].name);
        const char *fields[] = { examples[e].where, x, examples[e].shows };
        for (int f = 0; f < 3; f++)
            if (strchr(fields[f], '|') || strchr(fields[f], '\036'))
                fail_msg("the example of %s holds '|' or \\036", examples[e].name);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--table") == 0) {
        for (size_t e = 0; e < N_EX; e++) {
            printf("%s|", examples[e].name);
            for (const char *w = examples[e].where; *w; w++)
                putchar(*w == '\n' ? '\036' : *w);
            printf("|%s|%s\n", examples[e].example, examples[e].shows);
        }
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_has_one),
        cmocka_unit_test(test_examples_are_of_their_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
