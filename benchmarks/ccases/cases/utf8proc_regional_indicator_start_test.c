/* wynot C case: utf8proc 2.5.0 -> 2.6.1. 2.6's NEWS.md: "Bugfix for manual
 * calls to grapheme_break_extended for initial characters (#205)" (commit
 * 0643a64, "Fix grapheme breaks on string-initial"): a caller that walks a
 * string with utf8proc_grapheme_break_stateful and a state that starts at 0
 * (UTF8PROC_BOUNDCLASS_START) saw no break between the second and third of
 * three regional indicators (U+1F1E6 U+1F1E7 U+1F1E8: one cluster), then a
 * break after the pair (the flag AB, then C), as GB12/13 ask and as
 * utf8proc_map with UTF8PROC_CHARBOUND gives in both releases. Between the
 * two, 2.6 added utf8proc_islower and utf8proc_isupper, which regenerated
 * the tables of utf8proc_data.c (utf8proc_sequences, the stage-2 table and
 * the properties).
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "utf8proc.h"

static int unresolved(const char *what)
{
    printf("UNRESOLVED: %s\n", what);
    return 125;
}

int main(void)
{
    /* U+1F1E6 U+1F1E7 U+1F1E8, regional indicators A, B, C */
    static const utf8proc_int32_t ri[3] = {0x1F1E6, 0x1F1E7, 0x1F1E8};
    static const char ri_utf8[] = "\xF0\x9F\x87\xA6\xF0\x9F\x87\xA7\xF0\x9F\x87\xA8";
    static const char ri_marked[] =
        "\xFF\xF0\x9F\x87\xA6\xF0\x9F\x87\xA7\xFF\xF0\x9F\x87\xA8";
    utf8proc_uint8_t *mapped = NULL;
    utf8proc_ssize_t len;
    utf8proc_int32_t state;
    utf8proc_bool ab, bc;
    int i;

    for (i = 0; i < 3; i++)
        if (utf8proc_get_property(ri[i])->boundclass != UTF8PROC_BOUNDCLASS_REGIONAL_INDICATOR)
            return unresolved("U+1F1E6..U+1F1E8 are not regional indicators");
    if (utf8proc_get_property('a')->boundclass != UTF8PROC_BOUNDCLASS_OTHER
            || utf8proc_get_property(0x0301)->boundclass != UTF8PROC_BOUNDCLASS_EXTEND)
        return unresolved("the bound classes of 'a' or U+0301 are wrong");
    /* stateless: a regional indicator does not break from the next one,
       'a' breaks from 'b' and not from a combining acute accent */
    if (utf8proc_grapheme_break(ri[0], ri[1]) || !utf8proc_grapheme_break('a', 'b')
            || utf8proc_grapheme_break('a', 0x0301))
        return unresolved("utf8proc_grapheme_break gives wrong answers");
    if (utf8proc_toupper('a') != 'A' || utf8proc_tolower(0x00C9) != 0x00E9)
        return unresolved("case mapping is wrong");

    /* utf8proc_map marks the boundaries (0xFF) before A and before C in both */
    len = utf8proc_map((const utf8proc_uint8_t *)ri_utf8, 0, &mapped,
                       UTF8PROC_NULLTERM | UTF8PROC_CHARBOUND);
    if (len < 0)
        return unresolved(utf8proc_errmsg(len));
    if ((size_t)len != sizeof ri_marked - 1 || memcmp(mapped, ri_marked, (size_t)len) != 0) {
        free(mapped);
        return unresolved("utf8proc_map with CHARBOUND does not split the flags as AB|C");
    }
    free(mapped);

    /* the probe: a manual walk from the start state */
    state = 0;
    ab = utf8proc_grapheme_break_stateful(ri[0], ri[1], &state);
    bc = utf8proc_grapheme_break_stateful(ri[1], ri[2], &state);
    printf("stateful walk from 0: break A|B %d, B|C %d\n", (int)ab, (int)bc);
    if (ab)
        return unresolved("a break between the first two regional indicators");
    if (!bc) {
        puts("PASS: no break between the second and third regional indicators");
        return 0;
    }
    puts("FAIL: a break after the first pair of regional indicators");
    return 1;
}
