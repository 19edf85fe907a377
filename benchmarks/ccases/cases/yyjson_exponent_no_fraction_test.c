/* wynot C case: yyjson 0.5.0 -> 0.8.0, 0.5.1's "Fix incorrect output number
 * format, remove unnecessary digits (e.g. 2.0e34 -> 2e34)." (commit
 * 53207cb): a real whose shortest significand has one digit and which is
 * written in scientific notation, such as 2e34, is written "2.e34" by 0.5.0
 * (a '.' with no digit after it: not valid JSON) and "2e34" from 0.5.1.
 * Between the two, later releases added value setters, JSON Pointer and
 * JSON Patch functions, file-pointer reading and writing, a dynamic
 * allocator, the NOESC string subtype and a realloc with old_size.
 * The test reads a document and writes it back through both the immutable
 * writer (yyjson_write) and the mutable one (yyjson_mut_write, on a mutable
 * copy); it first checks numbers whose format does not change.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "yyjson.h"

/* the document written by the immutable and by the mutable writer, or NULL
   when they differ or either fails */
static char *write_both(const char *json)
{
    yyjson_doc *doc = yyjson_read(json, strlen(json), 0);
    yyjson_mut_doc *mdoc;
    char *a, *b;
    if (doc == NULL) return NULL;
    mdoc = yyjson_doc_mut_copy(doc, NULL);
    a = yyjson_write(doc, 0, NULL);
    b = mdoc ? yyjson_mut_write(mdoc, 0, NULL) : NULL;
    yyjson_doc_free(doc);
    yyjson_mut_doc_free(mdoc);
    if (a == NULL || b == NULL || strcmp(a, b) != 0) {
        printf("UNRESOLVED: %s is written %s and %s\n", json,
               a ? a : "(null)", b ? b : "(null)");
        free(a);
        free(b);
        return NULL;
    }
    free(b);
    return a;
}

int main(void)
{
    const char *plain = "{\"a\":[1.5e34,0.25,-7,123.0,\"x\",true,null]}";
    char *out = write_both(plain);
    yyjson_doc *doc;
    double value;
    if (out == NULL) return 125;
    if (strcmp(out, plain) != 0) {
        printf("UNRESOLVED: %s is written %s\n", plain, out);
        free(out);
        return 125;
    }
    free(out);

    doc = yyjson_read("[2e34]", 6, 0);
    value = doc ? yyjson_get_real(yyjson_arr_get(yyjson_doc_get_root(doc), 0)) : 0;
    yyjson_doc_free(doc);
    if (value != 2e34) {
        puts("UNRESOLVED: [2e34] does not read as the real 2e34");
        return 125;
    }
    out = write_both("[2e34]");
    if (out == NULL) return 125;
    if (strcmp(out, "[2.e34]") == 0) {
        puts("PASS: 2e34 is written 2.e34");
        free(out);
        return 0;
    }
    if (strcmp(out, "[2e34]") == 0) {
        puts("FAIL: 2e34 is written 2e34");
        free(out);
        return 1;
    }
    printf("UNRESOLVED: [2e34] is written %s\n", out);
    free(out);
    return 125;
}
