/* prof scan selftest object: a scheme file that only calls the ICCS
 * functions (undefined here): every call crosses objects and is wrapped. */
#include "auxfunc.h"
#include "drng.h"

extern DRNG_ctx drng_algorithm;

int scan_clean_op(unsigned char *out)
{
    unsigned char seed[32];
    if (get_random_number(&drng_algorithm, seed, 256))
        return -1;
    return sm3hash(256, seed, 256, out) | pseudoXOF(256, seed, 256, out);
}
