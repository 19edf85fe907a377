/* wynot C case: miniz 2.2.0 -> 3.0.0. 3.0.0's ChangeLog.md: "Write correct
 * FLEVEL 2-bit value in zlib header" (pull request #225, commit cd1dc96,
 * "deflate: write zlib FLEVEL based on compression level"): the zlib
 * header that tdefl writes was always 0x78 0x01 (FLEVEL 0, "fastest"), then
 * its FLEVEL follows the level: 0x78 0x9C at the default level 6, 0x78 0xDA
 * at level 9. The test first checks crc32 and adler32 of "123456789",
 * round-trips a text through mz_compress2 and mz_uncompress at levels 1, 6
 * and 9, and through a zip archive in memory, which both releases do the
 * same way. Between the two, 3.0.0 reduced the memory tinfl_decompressor
 * uses (a changed structure), added MINIZ_NO_DEFLATE_APIS and
 * MINIZ_NO_INFLATE_APIS, padding in structures, and fixed
 * mz_zip_reader_extract_to_heap's sizes.
 * Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "miniz.h"

static const char text[] =
    "It was the best of times, it was the worst of times, it was the age "
    "of wisdom, it was the age of foolishness, it was the epoch of belief, "
    "it was the epoch of incredulity, it was the season of Light, it was "
    "the season of Darkness, it was the spring of hope, it was the winter "
    "of despair. It was the best of times, it was the worst of times.\n";

static int unresolved(const char *what, long value)
{
    printf("UNRESOLVED: %s (%ld)\n", what, value);
    return 125;
}

/* Compress text at level, check the stream is zlib (CMF 0x78, a valid
   FCHECK), decompress and compare; the header's second byte in *flg.
   0 when all is well, else 125 (printed). */
static int round_trip(int level, unsigned char *flg)
{
    static unsigned char packed[4096], unpacked[4096];
    mz_ulong plen = sizeof packed, ulen = sizeof unpacked;
    mz_ulong len = (mz_ulong)strlen(text);
    int ret;

    ret = mz_compress2(packed, &plen, (const unsigned char *)text, len, level);
    if (ret != MZ_OK)
        return unresolved("mz_compress2 failed", ret);
    if (plen < 6 || packed[0] != 0x78 || ((packed[0] << 8) | packed[1]) % 31 != 0)
        return unresolved("mz_compress2 did not write a zlib header", (long)plen);
    *flg = packed[1];
    ret = mz_uncompress(unpacked, &ulen, packed, plen);
    if (ret != MZ_OK)
        return unresolved("mz_uncompress failed", ret);
    if (ulen != len || memcmp(unpacked, text, len) != 0)
        return unresolved("the round trip changed the text", (long)ulen);
    return 0;
}

/* A zip archive in memory with one deflated file, read back. */
static int zip_round_trip(void)
{
    mz_zip_archive zw, zr;
    void *archive = NULL, *data = NULL;
    size_t archive_size = 0, data_size = 0;
    size_t len = strlen(text);
    int ok;

    memset(&zw, 0, sizeof zw);
    if (!mz_zip_writer_init_heap(&zw, 0, 0))
        return unresolved("mz_zip_writer_init_heap failed", 0);
    ok = mz_zip_writer_add_mem(&zw, "dickens.txt", text, len, MZ_BEST_COMPRESSION)
        && mz_zip_writer_finalize_heap_archive(&zw, &archive, &archive_size);
    mz_zip_writer_end(&zw);
    if (!ok) {
        free(archive);
        return unresolved("writing the zip archive failed", 0);
    }
    memset(&zr, 0, sizeof zr);
    if (!mz_zip_reader_init_mem(&zr, archive, archive_size, 0)) {
        free(archive);
        return unresolved("mz_zip_reader_init_mem failed", (long)archive_size);
    }
    ok = mz_zip_reader_get_num_files(&zr) == 1;
    if (ok)
        data = mz_zip_reader_extract_file_to_heap(&zr, "dickens.txt", &data_size, 0);
    ok = ok && data != NULL && data_size == len && memcmp(data, text, len) == 0;
    free(data);
    mz_zip_reader_end(&zr);
    free(archive);
    if (!ok)
        return unresolved("the zip round trip failed", (long)data_size);
    return 0;
}

int main(void)
{
    static const char *check = "123456789";
    unsigned char flg1, flg6, flg9;
    mz_ulong crc, adler;

    crc = mz_crc32(MZ_CRC32_INIT, (const unsigned char *)check, 9);
    if (crc != 0xcbf43926UL)
        return unresolved("crc32 of 123456789 is wrong", (long)crc);
    adler = mz_adler32(MZ_ADLER32_INIT, (const unsigned char *)check, 9);
    if (adler != 0x091e01deUL)
        return unresolved("adler32 of 123456789 is wrong", (long)adler);
    if (round_trip(1, &flg1) || round_trip(MZ_DEFAULT_COMPRESSION, &flg6)
            || round_trip(MZ_BEST_COMPRESSION, &flg9) || zip_round_trip())
        return 125;
    printf("zlib header: level 1 78 %02X, level 6 78 %02X, level 9 78 %02X\n",
           flg1, flg6, flg9);
    /* level 1 is FLEVEL 0 in both releases */
    if (flg1 != 0x01)
        return unresolved("the header at level 1 is not 78 01", flg1);
    if (flg6 == 0x01 && flg9 == 0x01) {
        puts("PASS: the zlib header is 78 01 at every level");
        return 0;
    }
    if (flg6 == 0x9C && flg9 == 0xDA) {
        puts("FAIL: the zlib header's FLEVEL follows the level (78 9C, 78 DA)");
        return 1;
    }
    return unresolved("the zlib header is something else", (flg6 << 8) | flg9);
}
