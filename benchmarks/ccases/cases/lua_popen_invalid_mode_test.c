/* wynot C case: Lua 5.4.0 -> 5.4.2, a bug of 5.4.0 fixed in 5.4.1,
 * "invalid mode can crash 'io.popen'" (commit 1ecfbfa1): io.popen passed
 * any mode to popen(3); glibc refuses "rw" (NULL, EINVAL), so 5.4.0 gives
 * nil and a message. From 5.4.1 the mode must be "r" or "w", and anything
 * else is an argument error ("invalid mode"). The chunk runs through
 * luaL_dostring, without starting a process (the command is never run).
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
    "local ok, f, msg = pcall(io.popen, 'true', 'rw')\n"
    "if ok and f == nil then return 'nil' end\n"
    "if not ok and string.find(tostring(f), 'invalid mode', 1, true) then\n"
    "  return 'error'\n"
    "end\n"
    "return 'other: ' .. tostring(ok) .. ' ' .. tostring(f) .. ' ' .. tostring(msg)\n";

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
    if (result != NULL && strcmp(result, "nil") == 0) {
        puts("PASS: io.popen with mode \"rw\" gives nil and a message");
        code = 0;
    } else if (result != NULL && strcmp(result, "error") == 0) {
        puts("FAIL: io.popen with mode \"rw\" is an argument error");
        code = 1;
    } else {
        printf("UNRESOLVED: %s\n", result != NULL ? result : "(no result)");
    }
    lua_close(L);
    return code;
}
