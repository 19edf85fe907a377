/* wynot C case: cJSON 1.4.7 -> 1.5.0, "cJSON finally prints numbers without
 * losing precision (#153)". 1.4.7 prints 1/3 as 0.333333, 1.5.0 as
 * 0.33333333333333331. Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "cJSON.h"

int main(void)
{
    cJSON *doc = cJSON_Parse("{\"a\":[1,2,\"x\"]}");
    cJSON *third = cJSON_CreateNumber(1.0 / 3.0);
    char *text;
    char *check;
    if (doc == NULL || third == NULL) {
        puts("UNRESOLVED: cJSON_Parse or cJSON_CreateNumber failed");
        return 125;
    }
    check = cJSON_PrintUnformatted(doc);
    if (check == NULL || strcmp(check, "{\"a\":[1,2,\"x\"]}") != 0) {
        printf("UNRESOLVED: round trip gave %s\n", check ? check : "(null)");
        return 125;
    }
    text = cJSON_PrintUnformatted(third);
    if (text == NULL) {
        puts("UNRESOLVED: printing 1/3 failed");
        return 125;
    }
    if (strcmp(text, "0.333333") == 0) {
        printf("PASS: 1/3 printed as %s\n", text);
        return 0;
    }
    if (strcmp(text, "0.33333333333333331") == 0) {
        printf("FAIL: 1/3 printed as %s\n", text);
        return 1;
    }
    printf("UNRESOLVED: 1/3 printed as %s\n", text);
    return 125;
}
