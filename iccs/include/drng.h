/* ngcc-ctest: ICCS DRNG interface, layout-compatible with the official drng.h.
 * SEEDLEN and the DRNG_ctx field layout are public: submissions allocate the
 * type and see the macro, so both must match the official header exactly. */
#ifndef DRNG_H
#define DRNG_H

#ifdef __cplusplus
extern "C" {
#endif

#define SEEDLEN (55)

typedef struct {
    unsigned char V[SEEDLEN];
    unsigned char C[SEEDLEN];
    unsigned char reseed_counter[SEEDLEN];
} DRNG_ctx;

/* seed length in BYTES; returns 0, or -2 on allocation failure */
int init_random_number(DRNG_ctx *drng, const unsigned char *seed, unsigned long long seed_len_bytes);
/* output length in BITS (MSB-first partial last byte); returns 0 */
int get_random_number(DRNG_ctx *drng, unsigned char *random_number, unsigned long long random_number_len_bits);

#ifdef __cplusplus
}
#endif

#endif /* DRNG_H */
