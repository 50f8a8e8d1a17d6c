/* ngcc-ctest: constant-time glue, compiled only into the ct variant (label
 * ct, tests/ct).
 *
 * The ct library is linked with -Wl,--wrap=get_random_number, so every call
 * of the ICCS DRNG from another object file (the candidate's keygen, sign,
 * enc) lands in __wrap_get_random_number below: it calls the real function
 * and then tells valgrind memcheck that the bytes drawn are undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED), i.e. secret. Memcheck then reports every
 * branch ("Conditional jump or move depends on uninitialised value(s)") and
 * every memory index ("Use of uninitialised value of size N") computed from
 * them. Outside valgrind the client request is a no-op.
 *
 * The ct driver turns the marking off for an operation whose draws are
 * public by design (override "ct": {"public_randomness": ["sign"]}, e.g. a
 * salt copied into the signature) with ngcc_ct_secret_draws(0), and reads how
 * many draws and bytes were marked with ngcc_ct_draws(). Calls made inside
 * the file that defines get_random_number (a submission's own drng.c calling
 * itself) are not wrapped: --wrap acts on undefined references only.
 *
 * Like ngcc_glue.c this file includes no scheme header. */
#include <valgrind/memcheck.h>

#include "drng.h"
#include "ngcc_control.h"

int __real_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);
int __wrap_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);

static int secret_draws = 1;
static unsigned long long draws, marked_bytes;

int __wrap_get_random_number(DRNG_ctx *drng, unsigned char *out, unsigned long long bits)
{
    int rc = __real_get_random_number(drng, out, bits);
    draws++;
    if (secret_draws && bits > 0) {
        unsigned long long n = (bits + 7) / 8;
        (void)VALGRIND_MAKE_MEM_UNDEFINED(out, n);
        marked_bytes += n;
    }
    return rc;
}

void ngcc_ct_secret_draws(int on)
{
    secret_draws = on;
}

void ngcc_ct_draws(unsigned long long *calls, unsigned long long *bytes)
{
    *calls = draws;
    *bytes = marked_bytes;
}
