/* wynot C case: json-c 0.14 -> 0.17, 0.16's ChangeLog "Neither vertical
 * tab nor formfeed are considered whitespace per the JSON spec" (commit
 * f3d8006, "... remove them from is_ws_char()"): json_tokener_parse_verbose
 * skips a vertical tab or a form feed between tokens in 0.14 (isspace) and
 * refuses it from 0.16 (json_tokener_error_parse_unexpected). Between the
 * two, 0.15 split struct json_object into one structure per type, 0.16
 * replaced the ctype functions, capped string lengths at INT_MAX and hid
 * lh_table's members behind accessors, 0.17 added json_patch and errors on
 * integer overflow in strict mode.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "json_object.h"
#include "json_tokener.h"

/* 1 if obj is an array of the ints want[0..n-1] */
static int is_int_array(struct json_object *obj, const int *want, int n)
{
    int i;

    if (obj == NULL || !json_object_is_type(obj, json_type_array)
            || (int)json_object_array_length(obj) != n)
        return 0;
    for (i = 0; i < n; i++) {
        struct json_object *v = json_object_array_get_idx(obj, i);
        if (!json_object_is_type(v, json_type_int) || json_object_get_int(v) != want[i])
            return 0;
    }
    return 1;
}

/* 0: parsed as the array want; 1: refused as an unexpected character;
 * 2: anything else */
static int parse(const char *text, const int *want, int n)
{
    enum json_tokener_error err = json_tokener_success;
    struct json_object *obj = json_tokener_parse_verbose(text, &err);
    int r;

    if (obj != NULL && err == json_tokener_success && is_int_array(obj, want, n))
        r = 0;
    else if (obj == NULL && err == json_tokener_error_parse_unexpected)
        r = 1;
    else
        r = 2;
    printf("%-14s -> %s (%s)\n", r == 0 ? "parsed" : r == 1 ? "refused" : "other",
           obj ? json_object_to_json_string(obj) : "NULL", json_tokener_error_desc(err));
    json_object_put(obj);
    return r;
}

int main(void)
{
    static const int one[] = {1}, two[] = {1, 2};
    int vt, ff;

    if (parse(" \t\r\n[ 1 ,\n\t2 ]\r\n", two, 2) != 0 || parse("[1]", one, 1) != 0) {
        puts("UNRESOLVED: plain JSON does not parse as expected");
        return 125;
    }
    vt = parse("\v[1]", one, 1);
    ff = parse("[1,\f2]", two, 2);
    if (vt == 0 && ff == 0) {
        puts("PASS: vertical tab and form feed are whitespace");
        return 0;
    }
    if (vt == 1 && ff == 1) {
        puts("FAIL: vertical tab and form feed are refused");
        return 1;
    }
    puts("UNRESOLVED: vertical tab and form feed give something else");
    return 125;
}
