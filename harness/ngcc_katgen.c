#include "ngcc_katgen.h"
#include <string.h>

void ngcc_katgen_init(ngcc_katgen *g, int is_kem)
{
    unsigned char s[NGCC_KAT_SEED_BYTES];
    memset(g, 0, sizeof *g);
    g->is_kem = is_kem;
    for (int i = 0; i < 16; i++)
        memcpy(s + 4 * i, "seed", 4);
    init_random_number(&g->seed_drng, s, sizeof s);
    for (int i = 0; i < 21; i++)
        memcpy(s + 3 * i, "msg", 3);
    s[63] = 'm';
    init_random_number(&g->msg_drng, s, sizeof s);
}

unsigned long long ngcc_katgen_mlen(int i)
{
    return 56ull + 8ull * (unsigned long long)i;
}

void ngcc_katgen_next(ngcc_katgen *g, unsigned char *seed, unsigned char *m)
{
    get_random_number(&g->seed_drng, seed, 8 * NGCC_KAT_SEED_BYTES);
    if (!g->is_kem)
        get_random_number(&g->msg_drng, m, 8 * ngcc_katgen_mlen(g->next));
    g->next++;
}
