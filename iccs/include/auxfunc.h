/* ngcc-ctest: ICCS auxiliary hash interface, compatible with the official
 * auxfunc.h. All message lengths are in bits, MSB-first. */
#ifndef AUXFUNC_H
#define AUXFUNC_H

#ifdef __cplusplus
extern "C" {
#endif

/* digest_len_bits must be 256; else -4 */
int sm3hash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits, unsigned char *digest);
/* digest_len_bits must be 512, 768 or 1024; else -4 */
int pseudohash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits, unsigned char *digest);
/* KDF-SM3 counter mode; any output length (ceil(bits/8) bytes written) */
int pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
              unsigned char *output);

#ifdef __cplusplus
}
#endif

#endif /* AUXFUNC_H */
