/* wynot C case: Expat 2.2.0 -> 2.2.5, Changes 2.2.5 "Bug fixes", #11:
 * "The default handler wasn't being called when it should for a SYSTEM or
 * PUBLIC doctype if an entity declaration handler was registered" (commit
 * 4af5450e, "Don't suppress default handler unnecessarily"). In doProlog the
 * roles XML_ROLE_DOCTYPE_PUBLIC_ID and XML_ROLE_DOCTYPE_SYSTEM_ID fall through
 * to the entity roles, which suppress the default handler when an entity
 * declaration handler is set. The program registers a default handler and an
 * entity declaration handler (no start-doctype handler) and parses a document
 * whose doctype has a public and a system identifier: up to 2.2.4 the default
 * handler sees neither identifier, from 2.2.5 both.
 * Exit 0: old behaviour; 1: new; 125: anything else (one identifier without
 * the other included). */
#include <stdio.h>
#include <string.h>
#include "expat.h"

static char text[4096];
static size_t used;
static int overflow;
static int entity_decls;

static void XMLCALL on_default(void *user_data, const XML_Char *s, int len)
{
    (void)user_data;
    if (len < 0 || used + (size_t)len >= sizeof text) {
        overflow = 1;
        return;
    }
    memcpy(text + used, s, (size_t)len);
    used += (size_t)len;
    text[used] = '\0';
}

static void XMLCALL on_entity_decl(void *user_data, const XML_Char *name,
                                   int is_parameter_entity,
                                   const XML_Char *value, int value_length,
                                   const XML_Char *base,
                                   const XML_Char *system_id,
                                   const XML_Char *public_id,
                                   const XML_Char *notation_name)
{
    (void)user_data; (void)base; (void)system_id; (void)public_id;
    (void)notation_name;
    if (strcmp(name, "e") == 0 && !is_parameter_entity && value != NULL
        && value_length == 4 && memcmp(value, "text", 4) == 0)
        entity_decls++;
    else
        entity_decls += 100;
}

int main(void)
{
    static const char doc[] =
        "<!DOCTYPE doc PUBLIC '-//Wynot//DTD Doc//EN' 'doc.dtd' [\n"
        "  <!ENTITY e 'text'>\n"
        "]>\n"
        "<doc>&e;</doc>";
    int has_public, has_system;
    XML_Parser p = XML_ParserCreate(NULL);
    if (p == NULL) {
        puts("UNRESOLVED: no parser");
        return 125;
    }
    XML_SetDefaultHandler(p, on_default);
    XML_SetEntityDeclHandler(p, on_entity_decl);
    if (XML_Parse(p, doc, (int)(sizeof doc - 1), 1) != XML_STATUS_OK) {
        printf("UNRESOLVED: the parse failed: %s (line %lu)\n",
               XML_ErrorString(XML_GetErrorCode(p)),
               (unsigned long)XML_GetCurrentLineNumber(p));
        XML_ParserFree(p);
        return 125;
    }
    XML_ParserFree(p);
    /* both releases: the entity declaration goes to its handler, the rest
     * of the doctype and the element to the default handler */
    if (overflow || entity_decls != 1
        || strncmp(text, "<!DOCTYPE doc PUBLIC ", 21) != 0
        || strstr(text, "<doc>&e;</doc>") == NULL
        || strstr(text, "<!ENTITY") != NULL) {
        printf("UNRESOLVED: unexpected events (%d entity declarations): [%s]\n",
               entity_decls, text);
        return 125;
    }
    has_public = strstr(text, "'-//Wynot//DTD Doc//EN'") != NULL;
    has_system = strstr(text, "'doc.dtd'") != NULL;
    if (!has_public && !has_system) {
        printf("PASS: the default handler does not see the doctype's identifiers: [%s]\n", text);
        return 0;
    }
    if (has_public && has_system) {
        printf("FAIL: the default handler sees the doctype's identifiers: [%s]\n", text);
        return 1;
    }
    printf("UNRESOLVED: the default handler sees only the %s identifier: [%s]\n",
           has_public ? "public" : "system", text);
    return 125;
}
