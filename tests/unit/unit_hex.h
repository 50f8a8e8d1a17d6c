/* ngcc-ctest unit tests: hex helpers shared by the ICCS unit tests.
 * Include <cmocka.h> (with its prerequisites) before this header if you use
 * assert_hex_equal. */
#ifndef NGCC_UNIT_HEX_H
#define NGCC_UNIT_HEX_H

#include <stddef.h>

/* Decode hex (upper/lower case, no separators) into out (capacity cap).
 * Returns the byte count; aborts the process on malformed input or overflow,
 * since that is a bug in the test itself. */
size_t unit_hex_decode(const char *hex, unsigned char *out, size_t cap);

/* Decode into a fresh malloc'd buffer of exactly strlen(hex)/2 bytes (at least
 * 1 byte is allocated). *len receives the byte count. Caller frees. */
unsigned char *unit_hex_alloc(const char *hex, size_t *len);

/* Encode len bytes as uppercase hex into out (room for 2*len+1 chars). */
char *unit_hex_encode(const unsigned char *in, size_t len, char *out);

/* CMocka check: buf[0..len) equals hex (case-insensitive); on mismatch prints
 * both values and fails the running test case. */
void unit_assert_hex(const unsigned char *buf, size_t len, const char *hex, const char *file, int line);
#define assert_hex_equal(buf, len, hex) unit_assert_hex((buf), (len), (hex), __FILE__, __LINE__)

#endif /* NGCC_UNIT_HEX_H */
