/* ngcc-ctest: the official KEM API prototypes (note kem_enc's order: ss before ct). */
#ifndef KEM_ALGORITHM_INSTANCE_H
#define KEM_ALGORITHM_INSTANCE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef OUTPUT_BLANK_TEST_VECTORS
#define OUTPUT_BLANK_TEST_VECTORS 1
#endif
#ifndef ALGORITHM_INSTANCE
#define ALGORITHM_INSTANCE "AlgorithmInstance"
#endif

unsigned long long kem_get_pk_len_bytes();
unsigned long long kem_get_sk_len_bytes();
unsigned long long kem_get_ss_len_bytes();
unsigned long long kem_get_ct_len_bytes();
int kem_keygen(unsigned char *pk, unsigned long long *pk_len_bytes, unsigned char *sk,
               unsigned long long *sk_len_bytes);
int kem_enc(unsigned char *pk, unsigned long long pk_len_bytes, unsigned char *ss, unsigned long long *ss_len_bytes,
            unsigned char *ct, unsigned long long *ct_len_bytes);
int kem_dec(unsigned char *sk, unsigned long long sk_len_bytes, unsigned char *ct, unsigned long long ct_len_bytes,
            unsigned char *ss, unsigned long long *ss_len_bytes);

#ifdef __cplusplus
}
#endif

#endif /* KEM_ALGORITHM_INSTANCE_H */
