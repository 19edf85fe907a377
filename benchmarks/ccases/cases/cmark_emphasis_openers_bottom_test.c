/* wynot C case: cmark 0.28.3 -> 0.30.0. 0.30.0 fixes #383: "An
 * optimization we used for emphasis parsing was too aggressive, causing us
 * to miss some emphasis that was legal according to the spec." The
 * openers_bottom table of process_emphasis is indexed by the delimiter and
 * the closing run's length mod 3, and now also by whether the closer can
 * open. The document of the regression test, *****Hello*world****, was
 *     <p>*****Hello<em>world</em>***</p>
 * and is
 *     <p>**<em><strong>Hello<em>world</em></strong></em></p>
 * The test first renders a small document (a heading, emphasis, strong
 * emphasis, a link, a code span, a list and a block quote) through
 * cmark_markdown_to_html, which both releases render the same way, and
 * walks its tree with the node API.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmark.h"

static int unresolved(const char *what, const char *detail)
{
    printf("UNRESOLVED: %s%s%s\n", what, detail ? ":\n" : "", detail ? detail : "");
    return 125;
}

static char *render(const char *doc)
{
    return cmark_markdown_to_html(doc, strlen(doc), CMARK_OPT_DEFAULT);
}

/* The number of nodes of TYPE in the tree under ROOT. */
static int count_nodes(cmark_node *root, cmark_node_type type)
{
    cmark_iter *iter = cmark_iter_new(root);
    cmark_event_type ev;
    int n = 0;
    if (!iter)
        return -1;
    while ((ev = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(cmark_iter_get_node(iter)) == type)
            n++;
    }
    cmark_iter_free(iter);
    return n;
}

int main(void)
{
    static const char *warmup =
        "# Title\n"
        "\n"
        "Some *emphasis*, **strong**, a [link](http://example.com/a \"t\") and `code`.\n"
        "\n"
        "- one\n"
        "- two *and **three***\n"
        "\n"
        "> quoted _text_\n";
    static const char *warmup_expected =
        "<h1>Title</h1>\n"
        "<p>Some <em>emphasis</em>, <strong>strong</strong>, a "
        "<a href=\"http://example.com/a\" title=\"t\">link</a> and <code>code</code>.</p>\n"
        "<ul>\n"
        "<li>one</li>\n"
        "<li>two <em>and <strong>three</strong></em></li>\n"
        "</ul>\n"
        "<blockquote>\n"
        "<p>quoted <em>text</em></p>\n"
        "</blockquote>\n";
    static const char *probe = "*****Hello*world****\n";
    static const char *old_expected = "<p>*****Hello<em>world</em>***</p>\n";
    static const char *new_expected = "<p>**<em><strong>Hello<em>world</em></strong></em></p>\n";
    cmark_node *doc;
    char *out;
    int code, emph, strong;

    out = render(warmup);
    if (!out)
        return unresolved("cmark_markdown_to_html failed on the small document", NULL);
    if (strcmp(out, warmup_expected) != 0)
        return unresolved("the small document renders as", out);
    free(out);

    doc = cmark_parse_document(warmup, strlen(warmup), CMARK_OPT_DEFAULT);
    if (!doc)
        return unresolved("cmark_parse_document failed on the small document", NULL);
    emph = count_nodes(doc, CMARK_NODE_EMPH);
    strong = count_nodes(doc, CMARK_NODE_STRONG);
    if (emph != 3 || strong != 2 || count_nodes(doc, CMARK_NODE_LINK) != 1 ||
        count_nodes(doc, CMARK_NODE_ITEM) != 2) {
        cmark_node_free(doc);
        return unresolved("the small document's tree has other nodes", NULL);
    }
    cmark_node_free(doc);

    out = render(probe);
    if (!out)
        return unresolved("cmark_markdown_to_html failed on *****Hello*world****", NULL);
    if (strcmp(out, old_expected) == 0) {
        printf("PASS: the final **** finds no opener:\n%s", out);
        code = 0;
    } else if (strcmp(out, new_expected) == 0) {
        printf("FAIL: the final **** closes on the first *****:\n%s", out);
        code = 1;
    } else {
        code = unresolved("*****Hello*world**** renders as", out);
    }
    free(out);
    return code;
}
