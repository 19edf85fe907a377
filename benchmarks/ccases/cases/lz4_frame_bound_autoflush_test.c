/* wynot C case: lz4 1.9.2 -> 1.9.3, "api : improved LZ4F_compressBound()
 * with automatic flushing, by Christopher Harvie". With autoFlush set,
 * 1.9.2's bound still counts a block that might be buffered; 1.9.3's does
 * not, so it is smaller than the bound without autoFlush.
 * The test first round-trips a frame (lz4frame.c over lz4.c, lz4hc.c and
 * xxhash.c). Exit 0: old behaviour; 1: new; 125: anything else. */
#include <stdio.h>
#include <string.h>
#include "lz4frame.h"

int main(void)
{
    static char src[100000], packed[120000], back[100000];
    LZ4F_preferences_t prefs;
    LZ4F_dctx *dctx = NULL;
    size_t i, packed_size, src_left, out_size, bound_plain, bound_flush;
    for (i = 0; i < sizeof src; i++)
        src[i] = (char)("abcabdabeabf"[i % 12] + (i / 997) % 3);
    memset(&prefs, 0, sizeof prefs);
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    prefs.compressionLevel = 9;
    packed_size = LZ4F_compressFrame(packed, sizeof packed, src, sizeof src, &prefs);
    if (LZ4F_isError(packed_size)) {
        printf("UNRESOLVED: compressFrame: %s\n", LZ4F_getErrorName(packed_size));
        return 125;
    }
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) {
        puts("UNRESOLVED: no decompression context");
        return 125;
    }
    src_left = packed_size;
    out_size = sizeof back;
    if (LZ4F_decompress(dctx, back, &out_size, packed, &src_left, NULL) != 0
            || out_size != sizeof src || memcmp(src, back, sizeof src) != 0) {
        puts("UNRESOLVED: the frame does not round-trip");
        return 125;
    }
    LZ4F_freeDecompressionContext(dctx);
    memset(&prefs, 0, sizeof prefs);
    bound_plain = LZ4F_compressBound(1000, &prefs);
    prefs.autoFlush = 1;
    bound_flush = LZ4F_compressBound(1000, &prefs);
    if (bound_flush >= bound_plain) {
        printf("PASS: compressBound(1000) is %zu with autoFlush, %zu without\n",
               bound_flush, bound_plain);
        return 0;
    }
    if (bound_flush < bound_plain && bound_flush >= 1000) {
        printf("FAIL: compressBound(1000) is %zu with autoFlush, %zu without\n",
               bound_flush, bound_plain);
        return 1;
    }
    printf("UNRESOLVED: compressBound(1000): %zu with autoFlush, %zu without\n",
           bound_flush, bound_plain);
    return 125;
}
