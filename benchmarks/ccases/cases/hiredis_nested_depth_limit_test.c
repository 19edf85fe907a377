/* wynot C case: hiredis v0.14.1 -> v1.0.0. 1.0.0 removes the reply parser's
 * limit on nested multi-bulk replies (pull request #797, "Remove nested depth
 * limitation", issues #794 and #421): its fixed stack of 9 read tasks becomes
 * one that grows. The test feeds a reply nested 9 arrays deep, an integer at
 * the bottom, to redisReaderGetReply: 0.14.1 refuses it with the protocol
 * error "No support for nested multi bulk replies with depth > 7", 1.0.0
 * returns the nested arrays. No Redis server is needed.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include <hiredis.h>

#define DEPTH 9

/* Feed PROTO to a new reader and get one reply: 1 with the reply in *OUT,
 * 0 on a protocol error (its message copied into ERR), -1 otherwise. */
static int read_one(const char *proto, redisReply **out, char *err, size_t size)
{
    redisReader *reader = redisReaderCreate();
    void *reply = NULL;
    int status;
    *out = NULL;
    err[0] = '\0';
    if (reader == NULL) {
        snprintf(err, size, "redisReaderCreate failed");
        return -1;
    }
    if (redisReaderFeed(reader, proto, strlen(proto)) != REDIS_OK) {
        snprintf(err, size, "feed: %s", reader->errstr);
        redisReaderFree(reader);
        return -1;
    }
    status = redisReaderGetReply(reader, &reply);
    if (status != REDIS_OK) {
        snprintf(err, size, "%s", reader->errstr);
        status = reader->err;
        redisReaderFree(reader);
        return status == REDIS_ERR_PROTOCOL ? 0 : -1;
    }
    redisReaderFree(reader);
    if (reply == NULL) {
        snprintf(err, size, "no reply");
        return -1;
    }
    *out = (redisReply *)reply;
    return 1;
}

int main(void)
{
    char err[256];
    char proto[256];
    redisReply *reply, *r;
    int ok, level;

    /* First a flat reply: an array of a bulk string, an integer and a status,
     * and a depth of 3, which both releases read. */
    ok = read_one("*3\r\n$5\r\nhello\r\n:42\r\n+OK\r\n", &reply, err, sizeof err);
    if (ok != 1 || reply->type != REDIS_REPLY_ARRAY || reply->elements != 3 ||
        reply->element[0]->type != REDIS_REPLY_STRING ||
        reply->element[0]->len != 5 || memcmp(reply->element[0]->str, "hello", 5) != 0 ||
        reply->element[1]->type != REDIS_REPLY_INTEGER || reply->element[1]->integer != 42 ||
        reply->element[2]->type != REDIS_REPLY_STATUS ||
        strcmp(reply->element[2]->str, "OK") != 0) {
        printf("UNRESOLVED: a flat array did not parse (%d, %s)\n", ok, err);
        return 125;
    }
    freeReplyObject(reply);
    ok = read_one("*1\r\n*2\r\n*1\r\n:7\r\n$-1\r\n", &reply, err, sizeof err);
    if (ok != 1 || reply->type != REDIS_REPLY_ARRAY || reply->elements != 1 ||
        reply->element[0]->elements != 2 ||
        reply->element[0]->element[0]->element[0]->integer != 7 ||
        reply->element[0]->element[1]->type != REDIS_REPLY_NIL) {
        printf("UNRESOLVED: a reply nested 3 deep did not parse (%d, %s)\n", ok, err);
        return 125;
    }
    freeReplyObject(reply);

    /* Then DEPTH nested arrays of one element each, 1 at the bottom. */
    proto[0] = '\0';
    for (level = 0; level < DEPTH; level++)
        strcat(proto, "*1\r\n");
    strcat(proto, ":1\r\n");
    ok = read_one(proto, &reply, err, sizeof err);
    if (ok == 0 && strstr(err, "nested multi bulk") != NULL) {
        printf("PASS: a reply nested %d deep is refused: %s\n", DEPTH, err);
        return 0;
    }
    if (ok != 1) {
        printf("UNRESOLVED: a reply nested %d deep gave %d, %s\n", DEPTH, ok, err);
        return 125;
    }
    r = reply;
    for (level = 0; level < DEPTH; level++) {
        if (r->type != REDIS_REPLY_ARRAY || r->elements != 1 || r->element == NULL) {
            printf("UNRESOLVED: level %d of the nested reply is not an array of one\n", level);
            return 125;
        }
        r = r->element[0];
    }
    if (r->type != REDIS_REPLY_INTEGER || r->integer != 1) {
        printf("UNRESOLVED: the bottom of the nested reply is not the integer 1\n");
        return 125;
    }
    freeReplyObject(reply);
    printf("FAIL: a reply nested %d deep is read\n", DEPTH);
    return 1;
}
