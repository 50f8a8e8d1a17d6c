/* ngcc-security: the digests a candidate-level test compares across the
 * candidate's hash instances (security/<cand>/hash-widths,
 * tests/security/hash_widths.cmake: a 384-bit digest that is the first 384
 * bits of the 512-bit one). The sandboxed child may write only its scratch
 * folder, but its output goes to the check's log in the records folder
 * (<records>/security.logs/determinism.log): the plain run's determinism
 * child prints one line a message there,
 *   ngcc-hash-digest <message bits> <digest bits> <digest hex>
 * on a line of its own (the instance's own output may lack a newline). */
#include <stdio.h>

#include "sec_hash_util.h"

void sec_hash_widths_write(sec_job *j, const unsigned long long *bits, const unsigned char *digests, const int *ok,
                           int count)
{
    if (j->opt->sanitizer)
        return; /* the plain run's digests are the instance's */
    size_t dl = (size_t)sec_hash_dbytes(j);
    fflush(stdout);
    for (int i = 0; i < count; i++) {
        if (!ok[i])
            continue;
        printf("\nngcc-hash-digest %llu %d ", bits[i], j->claims.digest_bits);
        for (size_t b = 0; b < dl; b++)
            printf("%02X", digests[(size_t)i * dl + b]);
        printf("\n");
    }
    fflush(stdout);
}
