/* wynot C case: jansson 2.13.1 -> 2.15.1. 2.14.1 "Use[s] David M. Gay's
 * dtoa() algorithm to avoid misprinting issues of real numbers that are not
 * exactly representable as a double" (#680; on by default, DTOA_ENABLED=1 as
 * CMake's USE_DTOA and configure's --enable-dtoa give): with the default
 * precision a real is printed with the fewest digits that read back to the
 * same double. json_dumps of the real 0.1 gives 0.10000000000000001 (17
 * significant digits, "%.17g"), then 0.1. The test first parses, unpacks and
 * dumps a small document, through the hashtable that 2.14 rewrote to carry
 * key lengths.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

static int unresolved(const char *what, const char *detail)
{
    printf("UNRESOLVED: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 125;
}

int main(void)
{
    json_error_t error;
    json_t *root, *value;
    json_int_t i = 0;
    double f = 0;
    const char *s = NULL;
    char *text;
    int code;

    root = json_loads("{\"k\": [1, 2.5, \"x\"], \"n\": null, \"key\": true}", 0, &error);
    if (!root)
        return unresolved("a small document did not parse", error.text);
    value = json_object_get(root, "k");
    if (!json_is_array(value) || json_array_size(value) != 3 ||
        !json_is_null(json_object_get(root, "n")) || json_object_size(root) != 3)
        return unresolved("the parsed document is not what was read", NULL);
    if (json_unpack_ex(root, &error, 0, "{s:[i,f,s]}", "k", &i, &f, &s) != 0)
        return unresolved("json_unpack failed", error.text);
    if (i != 1 || f != 2.5 || !s || strcmp(s, "x") != 0)
        return unresolved("json_unpack read other values", NULL);
    text = json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT);
    if (!text || strcmp(text, "{\"k\":[1,2.5,\"x\"],\"key\":true,\"n\":null}") != 0)
        return unresolved("the document dumps as", text ? text : "(NULL)");
    free(text);
    json_decref(root);

    value = json_real(0.1);
    text = value ? json_dumps(value, JSON_ENCODE_ANY) : NULL;
    json_decref(value);
    if (!text)
        return unresolved("json_dumps of the real 0.1 gave NULL", NULL);
    if (strcmp(text, "0.10000000000000001") == 0) {
        printf("PASS: 0.1 is printed with 17 digits (%s)\n", text);
        code = 0;
    } else if (strcmp(text, "0.1") == 0) {
        printf("FAIL: 0.1 is printed with the shortest digits (%s)\n", text);
        code = 1;
    } else {
        code = unresolved("json_dumps of the real 0.1 gave", text);
    }
    free(text);
    return code;
}
