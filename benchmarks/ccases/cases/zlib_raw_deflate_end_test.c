/* wynot C case: zlib 1.2.11 -> 1.2.13. 1.2.12 fixes "deflateEnd() to not
 * report an error at start of raw deflate": a raw deflate stream
 * (deflateInit2 with windowBits -15) that is ended before any deflate() call
 * made deflateEnd return Z_DATA_ERROR (the stream started in BUSY_STATE),
 * then Z_OK. The test first checks crc32 and adler32 of "123456789", and
 * round-trips a text through a zlib, a gzip and a raw deflate stream (each
 * ended with deflateEnd and inflateEnd returning Z_OK), which both releases
 * do the same way.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "zlib.h"

static int unresolved(const char *what, int ret)
{
    printf("UNRESOLVED: %s (%d)\n", what, ret);
    return 125;
}

/* Compress text with windowBits wbits, decompress it, compare; 0 when all is
   well, else 125 (printed). */
static int round_trip(const char *text, int wbits)
{
    static unsigned char packed[4096], unpacked[4096];
    z_stream d, i;
    size_t len = strlen(text);
    int ret;

    memset(&d, 0, sizeof d);
    ret = deflateInit2(&d, Z_DEFAULT_COMPRESSION, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY);
    if (ret != Z_OK)
        return unresolved("deflateInit2 failed", ret);
    d.next_in = (Bytef *)text;
    d.avail_in = (uInt)len;
    d.next_out = packed;
    d.avail_out = sizeof packed;
    ret = deflate(&d, Z_FINISH);
    if (ret != Z_STREAM_END) {
        deflateEnd(&d);
        return unresolved("deflate did not end the stream", ret);
    }
    ret = deflateEnd(&d);
    if (ret != Z_OK)
        return unresolved("deflateEnd after a whole stream", ret);

    memset(&i, 0, sizeof i);
    ret = inflateInit2(&i, wbits);
    if (ret != Z_OK)
        return unresolved("inflateInit2 failed", ret);
    i.next_in = packed;
    i.avail_in = (uInt)d.total_out;
    i.next_out = unpacked;
    i.avail_out = sizeof unpacked;
    ret = inflate(&i, Z_FINISH);
    if (ret != Z_STREAM_END) {
        inflateEnd(&i);
        return unresolved("inflate did not end the stream", ret);
    }
    if (i.total_out != len || memcmp(unpacked, text, len) != 0) {
        inflateEnd(&i);
        return unresolved("the round trip changed the text", (int)i.total_out);
    }
    ret = inflateEnd(&i);
    if (ret != Z_OK)
        return unresolved("inflateEnd after a whole stream", ret);
    return 0;
}

int main(void)
{
    static const char *text =
        "It was the best of times, it was the worst of times, it was the age "
        "of wisdom, it was the age of foolishness, it was the epoch of belief, "
        "it was the epoch of incredulity, it was the season of Light, it was "
        "the season of Darkness, it was the spring of hope, it was the winter "
        "of despair.\n";
    static const char *check = "123456789";
    z_stream d;
    uLong crc, adler;
    int ret;

    crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)check, 9);
    if (crc != 0xcbf43926UL)
        return unresolved("crc32 of 123456789 is wrong", (int)crc);
    adler = adler32(adler32(0L, Z_NULL, 0), (const Bytef *)check, 9);
    if (adler != 0x091e01deUL)
        return unresolved("adler32 of 123456789 is wrong", (int)adler);
    if (round_trip(text, 15) || round_trip(text, 31) || round_trip(text, -15))
        return 125;

    /* a zlib stream ended at once: Z_OK in both releases */
    memset(&d, 0, sizeof d);
    ret = deflateInit2(&d, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
    if (ret != Z_OK)
        return unresolved("deflateInit2 (zlib) failed", ret);
    ret = deflateEnd(&d);
    if (ret != Z_OK)
        return unresolved("deflateEnd of an unused zlib stream", ret);

    /* the probe: a raw stream ended at once */
    memset(&d, 0, sizeof d);
    ret = deflateInit2(&d, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    if (ret != Z_OK)
        return unresolved("deflateInit2 (raw) failed", ret);
    ret = deflateEnd(&d);
    if (ret == Z_DATA_ERROR) {
        printf("PASS: deflateEnd of an unused raw stream gives Z_DATA_ERROR\n");
        return 0;
    }
    if (ret == Z_OK) {
        printf("FAIL: deflateEnd of an unused raw stream gives Z_OK\n");
        return 1;
    }
    return unresolved("deflateEnd of an unused raw stream", ret);
}
