/* ngcc-ctest: ICCS DRNG, bit-compatible with the official drng.c.
 *
 * Hash_DRBG structure (NIST SP 800-90A) with SM3 in place of SHA-256,
 * seedlen = 440 bits. V, C and reseed_counter are 55-byte big-endian
 * integers. No nonce, no personalisation string, no reseed interval:
 * init_random_number always instantiates from scratch.
 *
 * Uses only the private ngcc_iccs_sm3_* helpers; it never calls the public
 * auxfunc symbols, so DRNG use never shows up in hash call counts. */
#include "drng.h"
#include "sm3.h"

#include <string.h>

#define DRNG_OUTLEN NGCC_ICCS_SM3_DIGEST_BYTES

/* Hash_df(prefix || data) -> SEEDLEN bytes, for a 440-bit result:
 * T_i = SM3(i || 0x000001B8 || prefix || data), i = 1, 2; output the first 55
 * bytes of T_1 || T_2. prefix may be NULL (prefix_len 0). */
static void drng_hash_df(unsigned char out[SEEDLEN], const unsigned char *prefix, unsigned long long prefix_len,
                         const unsigned char *data, unsigned long long data_len)
{
    unsigned char head[5] = {0x01, 0x00, 0x00, 0x01, 0xB8};
    unsigned char t[DRNG_OUTLEN];
    ngcc_iccs_sm3_ctx ctx;
    size_t done = 0;

    while (done < SEEDLEN) {
        size_t take = SEEDLEN - done;
        if (take > DRNG_OUTLEN)
            take = DRNG_OUTLEN;
        ngcc_iccs_sm3_init(&ctx);
        ngcc_iccs_sm3_update(&ctx, head, 8 * sizeof head);
        if (prefix_len > 0)
            ngcc_iccs_sm3_update(&ctx, prefix, 8 * prefix_len);
        if (data_len > 0)
            ngcc_iccs_sm3_update(&ctx, data, 8 * data_len);
        ngcc_iccs_sm3_final(&ctx, t);
        memcpy(out + done, t, take);
        done += take;
        head[0]++;
    }
}

/* acc = (acc + x) mod 2^440, x a big-endian number of xlen <= SEEDLEN bytes,
 * right-aligned. */
static void drng_add(unsigned char acc[SEEDLEN], const unsigned char *x, size_t xlen)
{
    unsigned int carry = 0;
    size_t i = SEEDLEN, k = xlen;
    while (i > 0) {
        i--;
        carry += acc[i];
        if (k > 0)
            carry += x[--k];
        acc[i] = (unsigned char)carry;
        carry >>= 8;
    }
}

/* v = (v + 1) mod 2^440 */
static void drng_increment(unsigned char v[SEEDLEN])
{
    size_t i = SEEDLEN;
    while (i > 0) {
        i--;
        if (++v[i] != 0)
            break;
    }
}

int init_random_number(DRNG_ctx *drng, const unsigned char *seed, unsigned long long seed_len_bytes)
{
    static const unsigned char zero = 0x00;

    /* V = Hash_df(seed); C = Hash_df(0x00 || V); reseed_counter = 1 */
    drng_hash_df(drng->V, NULL, 0, seed, seed_len_bytes);
    drng_hash_df(drng->C, &zero, 1, drng->V, SEEDLEN);
    memset(drng->reseed_counter, 0, SEEDLEN);
    drng->reseed_counter[SEEDLEN - 1] = 1;
    return 0;
}

int get_random_number(DRNG_ctx *drng, unsigned char *random_number, unsigned long long random_number_len_bits)
{
    static const unsigned char three = 0x03;
    unsigned long long nbytes = (random_number_len_bits + 7) / 8;
    unsigned int rem = (unsigned int)(random_number_len_bits & 7U);
    unsigned char data[SEEDLEN];
    unsigned char w[DRNG_OUTLEN];
    unsigned char *out = random_number;
    ngcc_iccs_sm3_ctx ctx;

    /* Hashgen: W_i = SM3(V + i), output the first nbytes bytes, never more. */
    if (nbytes > 0) {
        memcpy(data, drng->V, SEEDLEN);
        while (nbytes >= DRNG_OUTLEN) {
            ngcc_iccs_sm3(data, 8 * SEEDLEN, out);
            out += DRNG_OUTLEN;
            nbytes -= DRNG_OUTLEN;
            drng_increment(data);
        }
        if (nbytes > 0) {
            ngcc_iccs_sm3(data, 8 * SEEDLEN, w);
            memcpy(out, w, (size_t)nbytes);
            out += nbytes;
        }
        if (rem != 0)
            out[-1] &= (unsigned char)(0xFF00U >> rem);
    }

    /* State update, run for every call, also for 0 bits:
     * H = SM3(0x03 || V); V = V + H + C + reseed_counter; reseed_counter++ */
    ngcc_iccs_sm3_init(&ctx);
    ngcc_iccs_sm3_update(&ctx, &three, 8);
    ngcc_iccs_sm3_update(&ctx, drng->V, 8 * SEEDLEN);
    ngcc_iccs_sm3_final(&ctx, w);
    drng_add(drng->V, w, DRNG_OUTLEN);
    drng_add(drng->V, drng->C, SEEDLEN);
    drng_add(drng->V, drng->reseed_counter, SEEDLEN);
    drng_increment(drng->reseed_counter);
    return 0;
}
