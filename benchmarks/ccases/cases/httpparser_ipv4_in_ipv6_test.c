/* wynot C case: http-parser v2.0 -> v2.9.4, commit 1c7f8ca "Fix IPv6
 * address parsing." (issue #133): http_parser_parse_url refuses a URL whose
 * IPv6 host ends in a dotted IPv4 part, "http://[2001:0:0:0:0:0:1.9.1.1]/",
 * in v2.0 and accepts it (host "2001:0:0:0:0:0:1.9.1.1") from v2.1. Between
 * the two, later releases added IPv6 zone IDs, the status callback,
 * http_parser_settings_init, http_parser_url_init, a faster header loop and
 * stricter method, version and Content-Length parsing.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "http_parser.h"

static int parse(const char *url, struct http_parser_url *u)
{
    memset(u, 0, sizeof *u);
    return http_parser_parse_url(url, strlen(url), 0, u);
}

static int field_is(const char *url, const struct http_parser_url *u,
                    int field, const char *want)
{
    return (u->field_set & (1 << field)) != 0
        && u->field_data[field].len == strlen(want)
        && memcmp(url + u->field_data[field].off, want, strlen(want)) == 0;
}

int main(void)
{
    struct http_parser_url u;
    const char *plain = "http://[2001:db8::1]:8080/index.html?q=1";
    const char *mixed = "http://[2001:0:0:0:0:0:1.9.1.1]/";
    int rv;

    if (parse(plain, &u) != 0 || !field_is(plain, &u, UF_SCHEMA, "http")
            || !field_is(plain, &u, UF_HOST, "2001:db8::1")
            || !field_is(plain, &u, UF_PORT, "8080") || u.port != 8080
            || !field_is(plain, &u, UF_PATH, "/index.html")
            || !field_is(plain, &u, UF_QUERY, "q=1")) {
        puts("UNRESOLVED: a plain IPv6 URL does not parse as expected");
        return 125;
    }
    rv = parse(mixed, &u);
    if (rv != 0) {
        puts("PASS: an IPv6 host with an IPv4 part is refused");
        return 0;
    }
    if (field_is(mixed, &u, UF_SCHEMA, "http")
            && field_is(mixed, &u, UF_HOST, "2001:0:0:0:0:0:1.9.1.1")
            && field_is(mixed, &u, UF_PATH, "/")
            && (u.field_set & (1 << UF_PORT)) == 0) {
        puts("FAIL: an IPv6 host with an IPv4 part is accepted");
        return 1;
    }
    puts("UNRESOLVED: an IPv6 host with an IPv4 part gives something else");
    return 125;
}
