/* ngcc-security: which keys, messages and signatures the checks work on.
 * Key pair k comes from the seed of KAT record k, and its first signature is
 * made exactly as the official driver makes record k (keygen, then sign on
 * the same DRNG stream), so the checks judge the KAT's own signatures. Key 0
 * also signs the KAT messages of the further records, and the keys sign some
 * extra messages (empty, 1 byte, 33 bytes, 4 KiB) drawn from a DRNG of our own. */
#ifndef SEC_PLAN_H
#define SEC_PLAN_H

#define SEC_MAX_KEYS 10
#define SEC_MAX_ITEMS 24
#define SEC_SEED_BYTES 64

typedef struct {
    int key;                            /* key pair = KAT record of its seed */
    int record;                         /* KAT record whose message is signed; -1: an extra message */
    int kat_flow;                       /* made right after the key's keygen on the same DRNG stream */
    unsigned char seed[SEC_SEED_BYTES]; /* otherwise: DRNG seed before sign */
    unsigned char *m;
    unsigned long long mlen;
    char label[96]; /* "record 3", "record 5's message with record 0's key", ... */
} sec_item;

typedef struct {
    int is_kem;
    int nkeys, nitems;
    unsigned char key_seed[SEC_MAX_KEYS][SEC_SEED_BYTES];
    sec_item item[SEC_MAX_ITEMS];
} sec_plan;

/* nkeys (2..10) key pairs; SIG: KAT messages of records 0..kat_records-1.
 * Items 0..nkeys-1 are the KAT-flow items of the keys, in key order. */
void sec_plan_make(sec_plan *p, int is_kem, int nkeys, int kat_records);
void sec_plan_free(sec_plan *p);
/* deterministic filler bytes for extended signatures and messages */
void sec_plan_bytes(unsigned char *out, unsigned long long len, unsigned tag);

#endif
