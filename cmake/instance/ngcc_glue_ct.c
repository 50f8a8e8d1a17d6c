/* ngcc-ctest: constant-time glue, compiled only into the ct variant (label
 * ct, tests/ct).
 *
 * The ct library is linked with -Wl,--wrap=get_random_number, so every call
 * of the ICCS DRNG from another object file (the candidate's keygen, sign,
 * enc, KEX passes) lands in __wrap_get_random_number below: it calls the real
 * function and then tells valgrind memcheck that the bytes drawn are undefined
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
 * Draw log: every draw is numbered (0, 1, ... in call order) and a defined
 * copy of its first bytes is kept (ngcc_ct_draw), so the flow can find draws
 * that reappear verbatim in a public output (a seed copied into pk, a nonce
 * into a message). ngcc_ct_public_draw() declares byte ranges of a numbered
 * draw public for the next run: they are left defined when that draw is made.
 *
 * Like ngcc_glue.c this file includes no scheme header. */
#include <string.h>

#include <valgrind/memcheck.h>

#include "drng.h"
#include "ngcc_control.h"

int __real_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);
int __wrap_get_random_number(DRNG_ctx *, unsigned char *, unsigned long long);

#define LOG_DRAWS 256
#define LOG_BYTES (1u << 20) /* copies past this are not kept (not compared) */
#define PUBLIC_RANGES 64

static int secret_draws = 1;
static unsigned long long draws, marked_bytes;
static struct {
    unsigned long long len;  /* the draw's length in bytes */
    unsigned long long kept; /* bytes of it copied into pool */
    size_t at;               /* its copy in pool */
    int secret;              /* marked secret when drawn */
} drawn[LOG_DRAWS];
static unsigned char pool[LOG_BYTES];
static size_t pool_used;
static struct {
    unsigned long long draw, from, to;
} public_ranges[PUBLIC_RANGES];
static int n_public;

int __wrap_get_random_number(DRNG_ctx *drng, unsigned char *out, unsigned long long bits)
{
    int rc = __real_get_random_number(drng, out, bits);
    unsigned long long n = (bits + 7) / 8, index = draws++;
    if (index < LOG_DRAWS) {
        unsigned long long keep = n < LOG_BYTES - pool_used ? n : LOG_BYTES - pool_used;
        memcpy(pool + pool_used, out, (size_t)keep);
        /* the harness may look at its copy (a reseeded DRNG gives undefined bytes) */
        (void)VALGRIND_MAKE_MEM_DEFINED(pool + pool_used, keep);
        drawn[index].len = n;
        drawn[index].kept = keep;
        drawn[index].at = pool_used;
        drawn[index].secret = secret_draws && bits > 0;
        pool_used += (size_t)keep;
    }
    if (secret_draws && bits > 0) {
        (void)VALGRIND_MAKE_MEM_UNDEFINED(out, n);
        marked_bytes += n;
        for (int i = 0; i < n_public; i++)
            if (public_ranges[i].draw == index && public_ranges[i].from < n) {
                unsigned long long to = public_ranges[i].to < n ? public_ranges[i].to : n;
                (void)VALGRIND_MAKE_MEM_DEFINED(out + public_ranges[i].from, to - public_ranges[i].from);
                marked_bytes -= to - public_ranges[i].from;
            }
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

const unsigned char *ngcc_ct_draw(unsigned long long index, unsigned long long *len, unsigned long long *kept,
                                  int *secret)
{
    if (index >= draws || index >= LOG_DRAWS)
        return NULL;
    *len = drawn[index].len;
    *kept = drawn[index].kept;
    *secret = drawn[index].secret;
    return pool + drawn[index].at;
}

int ngcc_ct_public_draw(unsigned long long index, unsigned long long from, unsigned long long to)
{
    if (n_public == PUBLIC_RANGES || from >= to)
        return -1;
    public_ranges[n_public].draw = index;
    public_ranges[n_public].from = from;
    public_ranges[n_public++].to = to;
    return 0;
}
