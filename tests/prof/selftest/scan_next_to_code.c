/* prof scan selftest object: pseudohash defined with hidden visibility next
 * to an API function that calls it; the compiler inlines the call, so no
 * relocation is left, but the shared object is still flagged. */
#include "auxfunc.h"

__attribute__((visibility("hidden"))) int pseudohash(int bits, const unsigned char *m, unsigned long long n,
                                                     unsigned char *d)
{
    for (int i = 0; i < bits / 8; i++)
        d[i] = (unsigned char)(i + (n ? m[0] : 0));
    return 0;
}

int sig_keygen(unsigned char *pk, unsigned long long *pk_len, unsigned char *sk, unsigned long long *sk_len)
{
    *pk_len = *sk_len = 64;
    return pseudohash(512, sk, 8, pk);
}
