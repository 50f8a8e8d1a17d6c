#include "sec_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drng.h"
#include "ngcc_katgen.h"

/* the extra messages: an empty one, a single byte, one just past a 32-byte
 * block and a long one */
static const struct {
    const char *name;
    unsigned long long len;
} extras[] = {{"empty", 0}, {"1-byte", 1}, {"33-byte", 33}, {"4096-byte", 4096}};

/* our own stream, in the style of the official ones: "security" x 8 */
static void security_drng(DRNG_ctx *d)
{
    unsigned char s[SEC_SEED_BYTES];
    for (int i = 0; i < 8; i++)
        memcpy(s + 8 * i, "security", 8);
    init_random_number(d, s, sizeof s);
}

static sec_item *add_item(sec_plan *p, int key, int record)
{
    sec_item *it = &p->item[p->nitems++];
    memset(it, 0, sizeof *it);
    it->key = key;
    it->record = record;
    return it;
}

static void set_message(sec_item *it, const unsigned char *m, unsigned long long len)
{
    it->mlen = len;
    it->m = malloc(len ? len : 1);
    if (len)
        memcpy(it->m, m, len);
}

void sec_plan_make(sec_plan *p, int is_kem, int nkeys, int kat_records)
{
    unsigned char m[NGCC_KAT_RECORDS][NGCC_KAT_MSG_MAX], other_seed[NGCC_KAT_SEED_BYTES];
    ngcc_katgen gen;
    memset(p, 0, sizeof *p);
    p->is_kem = is_kem;
    p->nkeys = nkeys;
    ngcc_katgen_init(&gen, is_kem);
    int nrec = kat_records > nkeys ? kat_records : nkeys;
    for (int r = 0; r < nrec; r++) /* both streams advance exactly as in the KAT driver */
        ngcc_katgen_next(&gen, r < nkeys ? p->key_seed[r] : other_seed, m[r]);
    for (int k = 0; k < nkeys; k++) {
        sec_item *it = add_item(p, k, k);
        it->kat_flow = 1;
        snprintf(it->label, sizeof it->label, "record %d", k);
        if (!is_kem)
            set_message(it, m[k], ngcc_katgen_mlen(k));
    }
    if (is_kem)
        return;
    DRNG_ctx d;
    security_drng(&d);
    for (int r = nkeys; r < kat_records; r++) {
        sec_item *it = add_item(p, 0, r);
        set_message(it, m[r], ngcc_katgen_mlen(r));
        get_random_number(&d, it->seed, 8 * SEC_SEED_BYTES);
        snprintf(it->label, sizeof it->label, "record %d's message with record 0's key", r);
    }
    for (size_t e = 0; e < sizeof extras / sizeof extras[0]; e++) {
        sec_item *it = add_item(p, (int)(e + 1) % nkeys, -1);
        unsigned char *buf = malloc(extras[e].len ? extras[e].len : 1);
        get_random_number(&d, buf, 8 * extras[e].len);
        set_message(it, buf, extras[e].len);
        free(buf);
        get_random_number(&d, it->seed, 8 * SEC_SEED_BYTES);
        snprintf(it->label, sizeof it->label, "the %s extra message with record %d's key", extras[e].name, it->key);
    }
}

void sec_plan_free(sec_plan *p)
{
    for (int i = 0; i < p->nitems; i++)
        free(p->item[i].m);
    memset(p, 0, sizeof *p);
}

void sec_plan_bytes(unsigned char *out, unsigned long long len, unsigned tag)
{
    unsigned x = 0x6A09E667u ^ (tag * 0x9E3779B9u);
    for (unsigned long long i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        out[i] = (unsigned char)(x >> 24);
    }
}
