/* wynot C case: libyaml 0.1.7 -> 0.2.1. 0.2.1 applies "an old fix for `\/`"
 * (pull request 15): in a double-quoted scalar the escape \/ now stands for
 * '/', and \' is no longer an escape. The test scans "it\'s": 0.1.7 reads
 * the scalar it's, 0.2.1 stops with "found unknown escape character".
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* Scan DOC; return 1 and copy the first scalar into OUT, or 0 on a scanner
 * error (its problem copied into OUT). */
static int first_scalar(const char *doc, char *out, size_t size)
{
    yaml_parser_t parser;
    yaml_token_t token;
    int found = 0, done = 0;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(out, size, "initialize failed");
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)doc, strlen(doc));
    while (!done) {
        if (!yaml_parser_scan(&parser, &token)) {
            snprintf(out, size, "%s", parser.problem ? parser.problem : "(no problem)");
            yaml_parser_delete(&parser);
            return 0;
        }
        if (token.type == YAML_SCALAR_TOKEN && !found) {
            snprintf(out, size, "%.*s", (int)token.data.scalar.length,
                     (const char *)token.data.scalar.value);
            found = 1;
        }
        done = token.type == YAML_STREAM_END_TOKEN;
        yaml_token_delete(&token);
    }
    yaml_parser_delete(&parser);
    return found ? 1 : -1;
}

int main(void)
{
    char text[256];
    int ok = first_scalar("key: \"plain \\\"quoted\\\"\"\n", text, sizeof text);
    if (ok != 1 || strcmp(text, "key") != 0) {
        printf("UNRESOLVED: a plain document did not scan (%d, %s)\n", ok, text);
        return 125;
    }
    ok = first_scalar("\"it\\'s\"\n", text, sizeof text);
    if (ok == 1 && strcmp(text, "it's") == 0) {
        printf("PASS: \\' is an escape (%s)\n", text);
        return 0;
    }
    if (ok == 0 && strstr(text, "unknown escape character") != NULL) {
        printf("FAIL: \\' is not an escape: %s\n", text);
        return 1;
    }
    printf("UNRESOLVED: scanning \"it\\'s\" gave %d, %s\n", ok, text);
    return 125;
}
