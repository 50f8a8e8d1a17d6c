/* prof selftest probe: a submission-style drng.c that is not the official
 * one: both functions call sm3hash through the public symbol, so those calls
 * are nested inside wrapped DRNG calls (counted, marked nested, their time
 * not counted twice). Not a real DRNG. */
#include <string.h>

#include "auxfunc.h"
#include "drng.h"

int init_random_number(DRNG_ctx *drng, const unsigned char *seed, unsigned long long seed_len_bytes)
{
    unsigned char h[32];
    memset(drng, 0, sizeof *drng);
    if (sm3hash(256, seed, 8 * seed_len_bytes, h))
        return -2;
    memcpy(drng->V, h, sizeof h);
    return 0;
}

/* one sm3hash per request; requests of at most 256 bits */
int get_random_number(DRNG_ctx *drng, unsigned char *out, unsigned long long bits)
{
    unsigned char h[32];
    if (bits > 256 || sm3hash(256, drng->V, 8 * SEEDLEN, h))
        return -2;
    memcpy(out, h, (size_t)((bits + 7) / 8));
    drng->V[0]++;
    return 0;
}
