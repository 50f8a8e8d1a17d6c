/* ngcc-ctest: KAT_CryptHash.c's four generators replayed (see
 * kat_replay_hash.h). Each has its own DRNG seeded with the first 8 chars of
 * its file name, repeated 8 times; every CryptHash call gets the header's
 * DIGEST_BIT_LENGTH. Blank mode calls CryptHash everywhere and hides only
 * the Dst value. */
#include "kat_replay_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drng.h"
#include "ngcc_child.h"
#include "ngcc_loader.h"
#include "ngcc_util.h"

const char *const kat_hash_file_ids[KAT_HASH_NFILES] = {"2_12", "2_23", "2_33", "loop"};
const char *const kat_hash_file_prefixes[KAT_HASH_NFILES] = {"KAT_2_12_", "KAT_2_23_", "KAT_2_33_", "KAT_Loop_"};

#define SEED_BYTES 64
#define BITS_2_12 4096ull
#define LOOP_MSG_BITS 8192ull
#define LOOP_ITERATIONS 1000000

unsigned long long kat_hash_big_bits(kat_hash_file f)
{
    return f == KAT_HASH_2_23 ? 8388608ull : f == KAT_HASH_2_33 ? 8589934592ull : 0;
}

typedef struct {
    FILE *out, *meta;
    int blank, d;
    ngcc_instance *in;
    char *hex;
    /* the speed of this run, for the predictions of the longer files (#T) */
    unsigned long long calls, bits;
    double hash_seconds;
} hw;

size_t kat_hash_msg_hex(char *out, const unsigned char *msg, unsigned long long n)
{
    size_t whole = (size_t)(n / 8);
    ngcc_hex_upper(out, msg, whole);
    size_t len = 2 * whole;
    if (n % 8) {
        unsigned char last = (unsigned char)(msg[whole] & (0xFF00u >> (n % 8)));
        ngcc_hex_upper(out + len, &last, 1);
        len += 2;
    }
    out[len] = 0;
    return len;
}

void kat_hash_exp_hex(char out[39], const unsigned char *msg, size_t bytes)
{
    ngcc_hex_upper(out, msg, 8);
    memcpy(out + 16, " .... ", 6);
    ngcc_hex_upper(out + 22, msg + bytes - 8, 8);
    out[38] = 0;
}

static void put_hex(hw *w, const unsigned char *p, size_t n)
{
    while (n > 0) {
        size_t k = n > 4096 ? 4096 : n;
        ngcc_hex_upper(w->hex, p, k);
        fwrite(w->hex, 1, 2 * k, w->out);
        p += k;
        n -= k;
    }
}

/* "Dst_Len = <d>", "Dst = <hex or nothing in blank mode>", empty line */
static void put_digest(hw *w, const unsigned char *digest)
{
    fprintf(w->out, "Dst_Len = %d\nDst = ", w->d);
    if (!w->blank)
        put_hex(w, digest, (size_t)(w->d / 8));
    fputs("\n\n", w->out);
}

static int hash_call(hw *w, int record, const unsigned char *msg, unsigned long long bits, unsigned char *digest)
{
    fprintf(w->meta, "#B %d\n", record);
    fflush(w->out);
    double t0 = ngcc_now();
    int rc = w->in->hash.hash(w->d, msg, bits, digest);
    w->hash_seconds += ngcc_now() - t0;
    w->calls++;
    w->bits += bits;
    if (rc != 0) {
        fprintf(w->meta, "#ERR -3 CryptHash returned %d in record %d (Msg_Len %llu)\n", rc, record, bits);
        return -3;
    }
    return 0;
}

static void record_done(hw *w, int record)
{
    fprintf(w->meta, "#R %d\n", record);
}

/* the file-name seed: its first 8 chars, 8 times */
void kat_hash_file_seed(kat_hash_file f, unsigned char seed[SEED_BYTES])
{
    for (int i = 0; i < 8; i++)
        memcpy(seed + 8 * i, kat_hash_file_prefixes[f], 8);
}

static void *zalloc(hw *w, size_t n, const char *what)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        ngcc_child_note_alloc_failure(what, n);
        fprintf(w->meta, "#ERR -2 cannot allocate %zu bytes for %s (the official generator returns -2)\n", n, what);
    }
    return p;
}

/* §3.4: 4097 records, n = 0..4096, one DRNG call per record */
static int gen_2_12(hw *w, DRNG_ctx *ctx)
{
    unsigned char *msg = zalloc(w, 512, "msg"), *digest = zalloc(w, (size_t)w->d / 8, "digest");
    int rc = 0;
    if (!msg || !digest) {
        rc = -2;
        goto out;
    }
    for (unsigned long long n = 0; n <= BITS_2_12; n++) {
        memset(msg, 0, 512);
        get_random_number(ctx, msg, n);
        fprintf(w->out, "Msg_Len = %llu\nMsg = ", n);
        fwrite(w->hex, 1, kat_hash_msg_hex(w->hex, msg, n), w->out);
        fputc('\n', w->out);
        if ((rc = hash_call(w, (int)n, msg, n, digest)) != 0)
            goto out;
        put_digest(w, digest);
        record_done(w, (int)n);
    }
out:
    free(msg);
    free(digest);
    return rc;
}

static void put_exp(hw *w, const unsigned char *msg, size_t bytes, const unsigned char *seed)
{
    fputs("Msg_Seed = ", w->out);
    if (seed)
        put_hex(w, seed, SEED_BYTES);
    char exp[39];
    kat_hash_exp_hex(exp, msg, bytes);
    fprintf(w->out, "\nMsg_Exp = %s\n", exp);
}

/* §3.5: all zero, all 0xFF, one n-bit DRNG draw */
static int gen_big(hw *w, DRNG_ctx *ctx, unsigned long long n, const unsigned char *seed)
{
    size_t bytes = (size_t)(n / 8);
    unsigned char *msg = zalloc(w, bytes, "the message"), *digest = zalloc(w, (size_t)w->d / 8, "digest");
    int rc = 0;
    if (!msg || !digest) {
        rc = -2;
        goto out;
    }
    for (int r = 0; r < 3; r++) {
        if (r == 1)
            memset(msg, 0xFF, bytes);
        if (r == 2) {
            memset(msg, 0, bytes);
            get_random_number(ctx, msg, n);
        }
        fprintf(w->out, "Msg_Len = %llu\n", n);
        put_exp(w, msg, bytes, r == 2 ? seed : NULL);
        if ((rc = hash_call(w, r, msg, n, digest)) != 0)
            goto out;
        put_digest(w, digest);
        record_done(w, r);
    }
out:
    free(msg);
    free(digest);
    return rc;
}

/* §3.6: h0 = H(msg), then 10^6 times rotate left by d/8, XOR the digest in
 * front, hash again (return value ignored) */
static int gen_loop(hw *w, DRNG_ctx *ctx)
{
    const size_t mb = LOOP_MSG_BITS / 8, db = (size_t)w->d / 8;
    unsigned char *msg = zalloc(w, mb, "msg"), *buffer = zalloc(w, db, "buffer"), *digest = zalloc(w, db, "digest");
    int rc = 0;
    if (!msg || !buffer || !digest) {
        rc = -2;
        goto out;
    }
    get_random_number(ctx, msg, LOOP_MSG_BITS);
    fprintf(w->out, "Msg_Len = %llu\nMsg = ", LOOP_MSG_BITS);
    put_hex(w, msg, mb);
    fputc('\n', w->out);
    if ((rc = hash_call(w, 0, msg, LOOP_MSG_BITS, digest)) != 0)
        goto out;
    for (long i = 0; i < LOOP_ITERATIONS; i++) {
        memcpy(buffer, msg, db);
        memmove(msg, msg + db, mb - db);
        memcpy(msg + mb - db, buffer, db);
        for (size_t j = 0; j < db; j++)
            msg[j] ^= digest[j];
        (void)w->in->hash.hash(w->d, msg, LOOP_MSG_BITS, digest);
    }
    put_digest(w, digest);
    record_done(w, 0);
out:
    free(msg);
    free(buffer);
    free(digest);
    return rc;
}

int kat_replay_hash_child(void *vargs, int wfd)
{
    kat_hash_args *args = vargs;
    hw w = {0};
    w.out = fdopen(wfd, "w");
    if (!w.out)
        return 2;
    setvbuf(w.out, NULL, _IOFBF, 1 << 20);
    w.meta = args->text_only ? fopen("/dev/null", "w") : w.out;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(args->lib, &in, err, sizeof err)) {
        fprintf(w.meta, "#LOADFAIL %s\n", err);
        fclose(w.out);
        return 1;
    }
    if (in.type != NGCC_TYPE_HASH || !in.hash.hash) {
        fprintf(w.meta, "#LOADFAIL %s is a %s instance, not a hash instance (no CryptHash)\n", args->lib,
                ngcc_type_name(in.type));
        fclose(w.out);
        return 1;
    }
    w.in = &in;
    w.d = in.hash.digest_bits;
    w.blank = in.meta->blank;
    w.hex = malloc(2 * 4096 + 1);
    fprintf(w.meta, "#META type HASH\n#META algorithm_instance %s\n#META blank %d\n#META digest_bits %d\n",
            in.meta->algorithm_instance, w.blank, w.d);
    fprintf(w.meta, "#META impl_variant %s\n#META flagset %s\n#META compiler %s\n#META flags %s\n",
            in.meta->impl_variant, in.meta->flagset, in.meta->compiler, in.meta->flags);
    if (w.d <= 0 || w.d % 8 || w.d > (int)LOOP_MSG_BITS) {
        fprintf(w.meta,
                "#ERR -3 DIGEST_BIT_LENGTH %d: the official driver needs a positive multiple of 8 up to 8192 (d/8 "
                "digest bytes, KAT_Loop rotates by d/8 bytes)\n",
                w.d);
        fclose(w.out);
        return 0;
    }
    unsigned char seed[SEED_BYTES];
    kat_hash_file_seed(args->file, seed);
    DRNG_ctx ctx;
    init_random_number(&ctx, seed, SEED_BYTES);
    clock_t c0 = clock();
    double work0 = ngcc_now();
    int rc;
    switch (args->file) {
    case KAT_HASH_2_12:
        rc = gen_2_12(&w, &ctx);
        break;
    case KAT_HASH_LOOP:
        rc = gen_loop(&w, &ctx);
        break;
    default:
        rc = gen_big(&w, &ctx, kat_hash_big_bits(args->file), seed);
        break;
    }
    fprintf(w.meta, "#META cpu_seconds %.3f\n", (double)(clock() - c0) / CLOCKS_PER_SEC);
    fprintf(w.meta, "#T %llu %llu %.6f %.6f\n", w.calls, w.bits, w.hash_seconds, ngcc_now() - work0);
    if (rc == 0)
        fprintf(w.meta, "#DONE\n");
    free(w.hex);
    if (w.meta != w.out)
        fclose(w.meta);
    fclose(w.out);
    return 0;
}
