/* ngcc-ctest unit tests: hex helpers (see unit_hex.h). */
#include "unit_hex.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int hex_nibble(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

size_t unit_hex_decode(const char *hex, unsigned char *out, size_t cap)
{
    size_t n = strlen(hex), i;
    if (n % 2 != 0 || n / 2 > cap) {
        fprintf(stderr, "unit_hex_decode: bad length %zu (cap %zu)\n", n, cap);
        abort();
    }
    for (i = 0; i < n / 2; i++) {
        int hi = hex_nibble((unsigned char)hex[2 * i]), lo = hex_nibble((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "unit_hex_decode: bad digit at %zu\n", 2 * i);
            abort();
        }
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return n / 2;
}

unsigned char *unit_hex_alloc(const char *hex, size_t *len)
{
    size_t n = strlen(hex) / 2;
    unsigned char *p = malloc(n > 0 ? n : 1);
    if (p == NULL)
        abort();
    *len = unit_hex_decode(hex, p, n);
    return p;
}

char *unit_hex_encode(const unsigned char *in, size_t len, char *out)
{
    static const char digits[] = "0123456789ABCDEF";
    size_t i;
    for (i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
    return out;
}

void unit_assert_hex(const unsigned char *buf, size_t len, const char *hex, const char *file, int line)
{
    size_t n = strlen(hex), i;
    int same = (n == 2 * len);
    char *got;

    for (i = 0; same && i < n; i++) {
        int nib = (i % 2 == 0) ? buf[i / 2] >> 4 : buf[i / 2] & 15;
        if (hex_nibble((unsigned char)hex[i]) != nib)
            same = 0;
    }
    if (same)
        return;
    got = malloc(2 * len + 1);
    if (got == NULL)
        abort();
    unit_hex_encode(buf, len, got);
    print_error("hex mismatch (%zu bytes)\n  got:      %s\n  expected: %s\n", len, got, hex);
    free(got);
    _fail(file, line);
}
