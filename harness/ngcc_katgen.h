/* ngcc-ctest: the official KAT drivers' private DRNG streams. Record i's
 * seed is the i-th 512-bit draw of drng_seed ("seed" x 16); its SIG message
 * is the i-th draw of (56 + 8 i) * 8 bits from drng_msg ("msg" x 21 + "m").
 * Security, perf and prof tests use the same streams, so timed and checked
 * work is the work the KAT checked. */
#ifndef NGCC_KATGEN_H
#define NGCC_KATGEN_H
#include "drng.h"

#define NGCC_KAT_SEED_BYTES 64
#define NGCC_KAT_MSG_MAX 128
#define NGCC_KAT_RECORDS 10

typedef struct {
    DRNG_ctx seed_drng;
    DRNG_ctx msg_drng;
    int is_kem; /* KEM driver has no message DRNG */
    int next;   /* index of the next record */
} ngcc_katgen;

void ngcc_katgen_init(ngcc_katgen *g, int is_kem);
/* m_len of record i: 56 + 8 i */
unsigned long long ngcc_katgen_mlen(int i);
/* draws the next record's seed (64 bytes) and, for SIG, message (m must hold
 * NGCC_KAT_MSG_MAX bytes; only the first mlen are written, as officially) */
void ngcc_katgen_next(ngcc_katgen *g, unsigned char *seed, unsigned char *m);

#endif
