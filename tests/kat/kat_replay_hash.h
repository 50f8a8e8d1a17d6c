/* ngcc-ctest: the child side of a hash KAT test: one of KAT_CryptHash.c's
 * four generators (iccs-kex-hash.md §3.3-3.6), bit for bit, streaming the
 * file's text into a pipe, interleaved with '#' lines (hash KAT text lines
 * never start with '#'):
 *   #LOADFAIL <reason>     the library did not load, or is not a hash instance
 *   #META <key> <value>    metadata
 *   #B <record>            CryptHash of a record starts (flushed)
 *   #R <record>            the record is complete
 *   #ERR <code> <reason>   the official generator returns <code> here (-2
 *                          memory, -3 CryptHash failed); the text so far is
 *                          its (partial) file
 *   #T <calls> <bits> <hash s> <work s>   before #DONE: the CryptHash calls
 *                          timed (all but KAT_Loop's 10^6 inner ones), their
 *                          message bits and seconds, and the generator's
 *                          whole wall time (DRNG and text included)
 *   #DONE                  the generator finished (0)
 * For KAT_Loop the 10^6 inner CryptHash results are ignored, as officially. */
#ifndef KAT_REPLAY_HASH_H
#define KAT_REPLAY_HASH_H
#include <stddef.h>

typedef enum { KAT_HASH_2_12, KAT_HASH_2_23, KAT_HASH_2_33, KAT_HASH_LOOP, KAT_HASH_NFILES } kat_hash_file;

/* "2_12", "2_23", "2_33", "loop" (test names) */
extern const char *const kat_hash_file_ids[KAT_HASH_NFILES];
/* "KAT_2_12_", ..., "KAT_Loop_": the official file name prefixes */
extern const char *const kat_hash_file_prefixes[KAT_HASH_NFILES];
/* the message length of the big-message files in bits (2_23, 2_33) */
unsigned long long kat_hash_big_bits(kat_hash_file f);

/* the text helpers (unit-tested in test_kat_text.c) */
/* the file's DRNG seed: the first 8 chars of its name, 8 times (64 bytes) */
void kat_hash_file_seed(kat_hash_file f, unsigned char seed[64]);
/* a full message's hex (the Msg value): floor(n/8) bytes, then the partial
 * byte masked to its top n % 8 bits; out holds 2 * ceil(n/8) + 1 chars */
size_t kat_hash_msg_hex(char *out, const unsigned char *msg, unsigned long long n);
/* Msg_Exp value: "<first 8 bytes> .... <last 8 bytes>" */
void kat_hash_exp_hex(char out[39], const unsigned char *msg, size_t bytes);

typedef struct {
    const char *lib;
    kat_hash_file file;
    int text_only; /* no '#' lines */
} kat_hash_args;

int kat_replay_hash_child(void *args, int wfd);

#endif
