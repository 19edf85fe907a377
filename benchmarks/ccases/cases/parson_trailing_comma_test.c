/* wynot C case: parson 1.1.3 -> 1.4.0, "Accepting trailing commas in objects
 * and arrays" (issue #178): json_parse_string("[1, 2, ]") fails (NULL) in
 * 1.1.3 and gives an array of two numbers in 1.4.0. Between the two, 1.2.0
 * reimplemented objects as hash maps and added version macros that parson.h
 * and parson.c must agree on.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "parson.h"

int main(void)
{
    JSON_Value *plain = json_parse_string("{\"list\": [1, 2], \"name\": \"x\"}");
    JSON_Value *trailing;
    JSON_Array *items;
    if (plain == NULL || json_object_get_number(json_object(plain), "list") != 0
            || json_array_get_count(json_object_get_array(json_object(plain), "list")) != 2
            || strcmp(json_object_get_string(json_object(plain), "name"), "x") != 0) {
        puts("UNRESOLVED: a well-formed document does not parse as expected");
        return 125;
    }
    json_value_free(plain);
    trailing = json_parse_string("[1, 2, ]");
    if (trailing == NULL) {
        puts("PASS: a trailing comma in an array is rejected");
        return 0;
    }
    items = json_value_get_array(trailing);
    if (items != NULL && json_array_get_count(items) == 2
            && json_array_get_number(items, 1) == 2.0) {
        puts("FAIL: a trailing comma in an array is accepted");
        json_value_free(trailing);
        return 1;
    }
    puts("UNRESOLVED: a trailing comma gives something else");
    return 125;
}
