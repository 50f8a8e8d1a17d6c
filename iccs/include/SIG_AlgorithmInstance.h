/* ngcc-ctest: the official SIG API prototypes. Used only for the harness's own
 * fixtures and glue; a submission always compiles against its own header. */
#ifndef SIG_ALGORITHM_INSTANCE_H
#define SIG_ALGORITHM_INSTANCE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef OUTPUT_BLANK_TEST_VECTORS
#define OUTPUT_BLANK_TEST_VECTORS 1
#endif
#ifndef ALGORITHM_INSTANCE
#define ALGORITHM_INSTANCE "AlgorithmInstance"
#endif

unsigned long long sig_get_pk_len_bytes();
unsigned long long sig_get_sk_len_bytes();
unsigned long long sig_get_sn_len_bytes();
int sig_keygen(unsigned char *pk, unsigned long long *pk_len_bytes, unsigned char *sk,
               unsigned long long *sk_len_bytes);
int sig_sign(unsigned char *sk, unsigned long long sk_len_bytes, unsigned char *m, unsigned long long m_len_bytes,
             unsigned char *sn, unsigned long long *sn_len_bytes);
int sig_verify(unsigned char *pk, unsigned long long pk_len_bytes, unsigned char *sn, unsigned long long sn_len_bytes,
               unsigned char *m, unsigned long long m_len_bytes);

#ifdef __cplusplus
}
#endif

#endif /* SIG_ALGORITHM_INSTANCE_H */
