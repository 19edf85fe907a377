/* wynot C case: inih r40 -> r62, "If a line is longer than INI_MAX_LINE,
 * consume input up to next newline" (r59, pull request #188). With the
 * default INI_USE_STACK and INI_MAX_LINE 200, a line longer than 199
 * characters was cut: the rest of it was parsed as a line of its own, so a
 * "tail=1" that follows the cut reached the handler. From r59 the rest of
 * the line is consumed (and the line reported as an error).
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "ini.h"

static int seen_tail, seen_after, seen_first;

static int handler(void *user, const char *section, const char *name,
                   const char *value)
{
    (void)user;
    (void)section;
    if (name == NULL)
        return 1;
    if (strcmp(name, "tail") == 0 && strcmp(value, "1") == 0)
        seen_tail++;
    else if (strcmp(name, "after") == 0 && strcmp(value, "2") == 0)
        seen_after++;
    else if (strcmp(name, "first") == 0 && strcmp(value, "0") == 0)
        seen_first++;
    return 1;
}

int main(void)
{
    char doc[512];
    size_t n;
    int result;
    /* "long=" and 194 'v': the 199 characters the reader takes at once */
    strcpy(doc, "first=0\nlong=");
    n = strlen(doc);
    memset(doc + n, 'v', 194);
    strcpy(doc + n + 194, "tail=1\nafter=2\n");
    result = ini_parse_string(doc, handler, NULL);
    if (seen_first != 1 || seen_after != 1) {
        printf("UNRESOLVED: the short lines were not all seen (result %d)\n", result);
        return 125;
    }
    if (seen_tail == 1) {
        puts("PASS: the rest of a too-long line is parsed as a line");
        return 0;
    }
    if (seen_tail == 0) {
        puts("FAIL: the rest of a too-long line is consumed");
        return 1;
    }
    puts("UNRESOLVED: the tail was seen more than once");
    return 125;
}
