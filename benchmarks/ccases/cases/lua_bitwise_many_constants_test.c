/* wynot C case: Lua 5.4.3 -> 5.4.6, a bug of 5.4.0 to 5.4.4 fixed in 5.4.5
 * (Lua 5.4.4's bug list, commit c764ca71), "Wrong code generation for
 * constants in bitwise operations": in a function with more than 256
 * constants, the integer constant of a bitwise operation could not be a
 * K operand, so luaK_exp2RK put it in a register, and codebitwise then
 * read that register as a constant index: 1 ~ (2 or 3) gave 0 and
 * 1 | (2 or 3) gave 2. From 5.4.5 they give 3 (5.4.6 reworked the code
 * generation of binary operators: codebinK, codebinNoK).
 * The chunk runs through luaL_dostring; it first checks that the same
 * expressions give 3 in a function with few constants.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

static const char *CHUNK =
    "local sum = 0\n"
    "for i = 1, 10 do sum = sum + i end\n"
    "assert(sum == 55 and string.format('%d', 7) == '7')\n"
    "local function eval(prefix, e)\n"
    "  local f, err = load(prefix .. 'return ' .. e)\n"
    "  if not f then error(err) end\n"
    "  return tostring(f())\n"
    "end\n"
    "local few = eval('', '1 ~ (2 or 3)') .. ' ' .. eval('', '1 | (2 or 3)')\n"
    "if few ~= '3 3' then return 'few constants: ' .. few end\n"
    "-- a table constructor with 257 float constants: more than 256 in the function\n"
    "local code = {'local x = {'}\n"
    "for i = 1, 257 do code[#code + 1] = i .. '.1,' end\n"
    "code[#code + 1] = '};'\n"
    "code = table.concat(code)\n"
    "return eval(code, '1 ~ (2 or 3)') .. ' ' .. eval(code, '1 | (2 or 3)')\n"
    "  .. ' ' .. eval(code, '1 + (2 or 3)')\n";

int main(void)
{
    const char *result;
    int code = 125;
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        puts("UNRESOLVED: no Lua state");
        return 125;
    }
    luaL_openlibs(L);
    if (luaL_dostring(L, CHUNK) != LUA_OK) {
        printf("UNRESOLVED: the chunk failed: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 125;
    }
    result = lua_tostring(L, -1);
    if (result != NULL && strcmp(result, "0 2 3") == 0) {
        puts("PASS: with 257 constants, 1 ~ (2 or 3) is 0 and 1 | (2 or 3) is 2");
        code = 0;
    } else if (result != NULL && strcmp(result, "3 3 3") == 0) {
        puts("FAIL: with 257 constants, 1 ~ (2 or 3) and 1 | (2 or 3) are 3");
        code = 1;
    } else {
        printf("UNRESOLVED: %s\n", result != NULL ? result : "(no result)");
    }
    lua_close(L);
    return code;
}
