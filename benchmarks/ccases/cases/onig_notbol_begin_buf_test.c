/* wynot C case: oniguruma 6.9.5_rev1 -> 6.9.6, commit 534a14b "fix:
 * Incomplete application of ONIG_OPTION_NOTBOL to \A" (HISTORY, 6.9.6:
 * "2020/07/05: fix: Incomplete application of ONIG_OPTION_NOTBOL to \A"):
 * onig_search of \Aab in "abc" with the search option ONIG_OPTION_NOTBOL
 * matches at 0 in 6.9.5_rev1 (NOTBOL applied to ^ only) and fails from
 * 6.9.6. The test first checks a plain search, captures, ^ under NOTBOL
 * (refused in both) and a UTF-8 case-insensitive match. Between the two,
 * 6.9.6 added ONIG_OPTION_NOT_BEGIN_STRING, NOT_END_STRING and
 * NOT_BEGIN_POSITION, the onig_posix_ prefix of the POSIX API, and
 * reworked the optimizer (many oss-fuzz timeout fixes).
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "oniguruma.h"

static OnigRegex compile(const char *pat, OnigOptionType opt)
{
    OnigRegex reg;
    OnigErrorInfo einfo;
    const UChar *p = (const UChar *)pat;
    if (onig_new(&reg, p, p + strlen(pat), opt, ONIG_ENCODING_UTF8,
                 ONIG_SYNTAX_DEFAULT, &einfo) != ONIG_NORMAL)
        return NULL;
    return reg;
}

/* the start of the first match, ONIG_MISMATCH, or -1000 on an error */
static int search(OnigRegex reg, const char *s, OnigOptionType opt,
                  OnigRegion *region)
{
    const UChar *str = (const UChar *)s, *end = str + strlen(s);
    int r = onig_search(reg, str, end, str, end, region, opt);
    if (r >= 0 || r == ONIG_MISMATCH)
        return r;
    return -1000;
}

int main(void)
{
    OnigEncoding use_encs[] = { ONIG_ENCODING_UTF8 };
    OnigRegex plain, caret, icase, anchored;
    OnigRegion *region;
    int r;

    if (onig_initialize(use_encs, 1) != ONIG_NORMAL) {
        puts("UNRESOLVED: onig_initialize fails");
        return 125;
    }
    region = onig_region_new();
    plain = compile("b(c+)d", ONIG_OPTION_NONE);
    caret = compile("^ab", ONIG_OPTION_NONE);
    icase = compile("\xc3\xa9t\xc3\xa9", ONIG_OPTION_IGNORECASE);
    anchored = compile("\\Aab", ONIG_OPTION_NONE);
    if (!region || !plain || !caret || !icase || !anchored) {
        puts("UNRESOLVED: a pattern does not compile");
        return 125;
    }
    if (search(plain, "abccd", ONIG_OPTION_NONE, region) != 1
            || region->num_regs != 2 || region->beg[1] != 2
            || region->end[1] != 4
            || search(caret, "abc", ONIG_OPTION_NONE, region) != 0
            || search(caret, "abc", ONIG_OPTION_NOTBOL, region)
               != ONIG_MISMATCH
            || search(caret, "x\nabc", ONIG_OPTION_NOTBOL, region) != 2
            || search(icase, "L'\xc3\x89T\xc3\x89", ONIG_OPTION_NONE, region)
               != 2
            || search(anchored, "abc", ONIG_OPTION_NONE, region) != 0
            || search(anchored, "xabc", ONIG_OPTION_NONE, region)
               != ONIG_MISMATCH) {
        puts("UNRESOLVED: a plain search does not give what is expected");
        return 125;
    }
    r = search(anchored, "abc", ONIG_OPTION_NOTBOL, region);
    if (r == 0) {
        puts("PASS: \\A matches at the start under ONIG_OPTION_NOTBOL");
        return 0;
    }
    if (r == ONIG_MISMATCH) {
        puts("FAIL: \\A does not match under ONIG_OPTION_NOTBOL");
        return 1;
    }
    puts("UNRESOLVED: \\A under ONIG_OPTION_NOTBOL gives something else");
    return 125;
}
