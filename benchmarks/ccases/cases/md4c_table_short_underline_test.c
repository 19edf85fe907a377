/* wynot C case: md4c 0.4.8 -> 0.5.2. 0.5.0 fixes #169: "Table underline
 * now does not require 3 characters per table column anymore. One dash
 * (optionally with a leading or tailing ':' appended or prepended) is now
 * sufficient." With MD_FLAG_TABLES, the document
 *     | a | b |
 *     | - | :-: |
 *     | 1 | 2 |
 * was a paragraph, then is a table of two columns. The test first renders a
 * small document (a heading, emphasis, a link, a code span, a list and a
 * table with a long underline) through md_html, which both releases render
 * the same way.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "md4c.h"
#include "md4c-html.h"

struct buf {
    char *data;
    size_t size, cap;
};

static void collect(const MD_CHAR *text, MD_SIZE size, void *userdata)
{
    struct buf *b = userdata;
    if (b->size + size + 1 > b->cap) {
        size_t cap = (b->size + size + 1) * 2;
        char *data = realloc(b->data, cap);
        if (!data)
            exit(125);
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->size, text, size);
    b->size += size;
    b->data[b->size] = '\0';
}

static int unresolved(const char *what, const char *detail)
{
    printf("UNRESOLVED: %s%s%s\n", what, detail ? ":\n" : "", detail ? detail : "");
    return 125;
}

static char *render(const char *doc, unsigned flags)
{
    struct buf b = {NULL, 0, 0};
    if (md_html(doc, (MD_SIZE)strlen(doc), collect, &b, flags, 0) != 0) {
        free(b.data);
        return NULL;
    }
    if (!b.data)
        collect("", 0, &b);
    return b.data;
}

int main(void)
{
    static const char *warmup =
        "# Title\n"
        "\n"
        "Some *emphasis*, a [link](http://example.com/a) and `code`.\n"
        "\n"
        "- one\n"
        "- two\n"
        "\n"
        "| x | y |\n"
        "| --- | ---: |\n"
        "| 1 | 2 |\n";
    static const char *warmup_expected =
        "<h1>Title</h1>\n"
        "<p>Some <em>emphasis</em>, a <a href=\"http://example.com/a\">link</a> and <code>code</code>.</p>\n"
        "<ul>\n"
        "<li>one</li>\n"
        "<li>two</li>\n"
        "</ul>\n"
        "<table>\n"
        "<thead>\n"
        "<tr>\n"
        "<th>x</th>\n"
        "<th align=\"right\">y</th>\n"
        "</tr>\n"
        "</thead>\n"
        "<tbody>\n"
        "<tr>\n"
        "<td>1</td>\n"
        "<td align=\"right\">2</td>\n"
        "</tr>\n"
        "</tbody>\n"
        "</table>\n";
    static const char *probe = "| a | b |\n| - | :-: |\n| 1 | 2 |\n";
    static const char *old_expected = "<p>| a | b |\n| - | :-: |\n| 1 | 2 |</p>\n";
    char *out;
    int code;

    out = render(warmup, MD_FLAG_TABLES);
    if (!out)
        return unresolved("md_html failed on the small document", NULL);
    if (strcmp(out, warmup_expected) != 0)
        return unresolved("the small document renders as", out);
    free(out);

    out = render(probe, MD_FLAG_TABLES);
    if (!out)
        return unresolved("md_html failed on the table with one-dash underlines", NULL);
    if (strcmp(out, old_expected) == 0) {
        printf("PASS: a one-dash underline makes no table:\n%s", out);
        code = 0;
    } else if (strstr(out, "<table>") && strstr(out, "<th>a</th>") &&
               strstr(out, "<th align=\"center\">b</th>") && strstr(out, "<td>1</td>")) {
        printf("FAIL: a one-dash underline makes a table:\n%s", out);
        code = 1;
    } else {
        code = unresolved("the table with one-dash underlines renders as", out);
    }
    free(out);
    return code;
}
