/* wynot C case: cJSON 1.7.12 -> 1.7.13, "Improve performance of adding item
 * to array" (#430, #448): an array's first child now keeps the array's last
 * item in its prev pointer, so that appending does not walk the list. In
 * 1.7.12 the first child's prev is NULL.
 * The test also goes through cJSON_Utils.c (a JSON pointer to an item), so
 * both sources and their headers must agree.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "cJSON.h"
#include "cJSON_Utils.h"

int main(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_CreateArray();
    cJSON *first = cJSON_CreateString("a");
    cJSON *last = cJSON_CreateNumber(2);
    char *pointer, *text;
    if (root == NULL || list == NULL || first == NULL || last == NULL) {
        puts("UNRESOLVED: creating items failed");
        return 125;
    }
    cJSON_AddItemToObject(root, "list", list);
    cJSON_AddItemToArray(list, first);
    cJSON_AddItemToArray(list, last);
    text = cJSON_PrintUnformatted(root);
    pointer = cJSONUtils_FindPointerFromObjectTo(root, last);
    if (text == NULL || strcmp(text, "{\"list\":[\"a\",2]}") != 0
            || pointer == NULL || strcmp(pointer, "/list/1") != 0) {
        printf("UNRESOLVED: printed %s, pointer %s\n", text ? text : "(null)",
               pointer ? pointer : "(null)");
        return 125;
    }
    if (list->child != first || first->next != last) {
        puts("UNRESOLVED: the array's items are not linked in order");
        return 125;
    }
    if (first->prev == NULL) {
        puts("PASS: the first item's prev is NULL");
        return 0;
    }
    if (first->prev == last) {
        puts("FAIL: the first item's prev is the last item");
        return 1;
    }
    puts("UNRESOLVED: the first item's prev is neither NULL nor the last item");
    return 125;
}
