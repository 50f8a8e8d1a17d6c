/* ngcc-prof-handcount: an independent check of the prof counts. The expected
 * ICCS calls of the fixtures are derived here from their algorithm
 * descriptions (fixtures/<tree>/README.txt and the comments of the sources),
 * not from any run, and compared with the per-record counts and bit-length
 * histograms of the prof records (prof-<op>.json).
 *
 * fx-wots (L = 2^h leaves, 67 chains of w = 16, n = 32 bytes):
 *   keygen  drng 2 x 256 bits; pseudoXOF 67 L (640 bits in, 256 out);
 *           sm3hash 1007 L - 1 = 1005 L chain steps (640 bits in)
 *           + L leaves (8 (48 + 67*32) = 17536 bits) + L - 1 nodes (896 bits)
 *   sign    drng 1 x 256; pseudohash(512) 1 over R||pk||m (8 (96 + m_len)
 *           bits); pseudoXOF and sm3hash as keygen (the tree is regenerated)
 *   verify  pseudohash 1; sm3hash sum(15 - d_i) chain steps + 1 leaf + h
 *           nodes, d = the 67 WOTS digits of D = pseudohash(512, R||pk||m),
 *           recomputed here from the KAT file with our own pseudohash
 * fx-xkem: keygen drng 2 x 256; enc drng 1 x 256, sm3hash 1 (768 bits in);
 *          dec sm3hash 1 (768) + pseudoXOF 1 (512 in, 256 out).
 * fx-kex (common/fxkex.c; draw_exponent = 1 x 64 bits, kdf = 1 sm3hash over
 *   label(2) || Z1 Z2 Z3 (24) || m1 (24) || Y (8) = 58 bytes = 464 bits, or
 *   720 bits with tagB appended for tA):
 *   init_a, init_b  drng 1 x 64 (the long-term exponent)
 *   pass1           drng 2: x (64) and the nonce nA (128)
 *   pass2           drng 1 x 64 (y); sm3hash 1: tagB (464)
 *   pass3 (3-pass)  sm3hash 2: tagB check (464), tagA (720)
 *   derive_a        3-pass: sm3hash 1 (ss, 464); 2-pass: 2 (tagB check, ss: 464 each)
 *   derive_b        3-pass: sm3hash 3 (tagB 464, tagA 720, ss 464); 2-pass: 1 (ss, 464)
 *   init_random_number: never (the driver seeds before each record).
 * fx-template, fx-hash: nothing (FXH-256 hashes with OpenSSL's SHA-512; a
 *   CryptHash must use no DRNG).
 * --offset op:symbol:k expects k more calls of symbol in op (the extra-xof
 * zoo variant: exactly one more pseudoXOF in sign; its histogram is then not
 * checked for that symbol). */
#define _GNU_SOURCE
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "auxfunc.h"
#include "ngcc_control.h"
#include "ngcc_record.h"
#include "ngcc_util.h"

#define RECORDS 10
#define MAX_BINS 8
#define MAX_OFFSETS 4

static const char *const sym_names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;

typedef struct {
    int sym;
    long long bits, calls;
} hbin;

/* the expected profile of one operation in one record */
typedef struct {
    long long calls[NGCC_PROF_NSYM];
    hbin in[MAX_BINS], out[MAX_BINS];
    int nin, nout;
} expect_op;

static struct {
    const char *scheme, *kat, *records_dir, *type;
    int h, passes;
    struct {
        char op[16];
        int sym;
        long long k;
    } off[MAX_OFFSETS];
    int noff;
    unsigned char pk[RECORDS][64], r[RECORDS][32], m[RECORDS][128];
    int mlen[RECORDS], kat_ok;
} H;

/* the fixture author's hand counts of verify's sm3hash calls (h = 4, 5) */
static const long long author_verify_sm3[2][RECORDS] = {{485, 530, 530, 500, 500, 485, 485, 590, 515, 455},
                                                        {531, 531, 471, 516, 486, 501, 471, 561, 501, 471}};

static void add_bin(hbin *b, int *n, int sym, long long bits, long long calls)
{
    if (calls > 0 && *n < MAX_BINS)
        b[(*n)++] = (hbin){sym, bits, calls};
}

/* sum over the 67 WOTS digits of D of (15 - d): the chain steps verify does */
static long long wots_verify_steps(int rec)
{
    unsigned char in[32 + 64 + 128], D[64];
    memcpy(in, H.r[rec], 32);
    memcpy(in + 32, H.pk[rec], 64);
    memcpy(in + 96, H.m[rec], (size_t)H.mlen[rec]);
    pseudohash(512, in, 8ull * (96 + (unsigned long long)H.mlen[rec]), D);
    long long steps = 0, csum = 0;
    for (int i = 0; i < 64; i++) {
        int d = (D[i / 2] >> (i % 2 ? 0 : 4)) & 15;
        csum += 15 - d;
    }
    steps += csum;
    int cs[3] = {(int)(csum >> 8) & 15, (int)(csum >> 4) & 15, (int)csum & 15};
    for (int i = 0; i < 3; i++)
        steps += 15 - cs[i];
    return steps;
}

static void wots_tree(expect_op *e, long long L)
{
    e->calls[NGCC_PROF_PSEUDOXOF] = 67 * L;
    e->calls[NGCC_PROF_SM3HASH] = 1007 * L - 1;
    add_bin(e->in, &e->nin, NGCC_PROF_PSEUDOXOF, 640, 67 * L);
    add_bin(e->out, &e->nout, NGCC_PROF_PSEUDOXOF, 256, 67 * L);
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 640, 1005 * L);
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 17536, L);
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 896, L - 1);
    add_bin(e->out, &e->nout, NGCC_PROF_SM3HASH, 256, 1007 * L - 1);
}

static void digest_call(expect_op *e, int rec)
{
    e->calls[NGCC_PROF_PSEUDOHASH] = 1;
    add_bin(e->in, &e->nin, NGCC_PROF_PSEUDOHASH, 8 * (96 + H.mlen[rec]), 1);
    add_bin(e->out, &e->nout, NGCC_PROF_PSEUDOHASH, 512, 1);
}

static void drng_calls(expect_op *e, long long n)
{
    e->calls[NGCC_PROF_GET_RANDOM] = n;
    add_bin(e->in, &e->nin, NGCC_PROF_GET_RANDOM, 0, n);
    add_bin(e->out, &e->nout, NGCC_PROF_GET_RANDOM, 256, n);
}

static void expect_wots(const char *op, int rec, expect_op *e)
{
    long long L = 1ll << H.h;
    if (!strcmp(op, "keygen")) {
        drng_calls(e, 2);
        wots_tree(e, L);
    } else if (!strcmp(op, "sign")) {
        drng_calls(e, 1);
        digest_call(e, rec);
        wots_tree(e, L);
    } else {
        long long steps = wots_verify_steps(rec);
        digest_call(e, rec);
        e->calls[NGCC_PROF_SM3HASH] = steps + 1 + H.h;
        add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 640, steps);
        add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 17536, 1);
        add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 896, H.h);
        add_bin(e->out, &e->nout, NGCC_PROF_SM3HASH, 256, steps + 1 + H.h);
    }
}

static void expect_xkem(const char *op, expect_op *e)
{
    if (!strcmp(op, "keygen")) {
        drng_calls(e, 2);
        return;
    }
    if (!strcmp(op, "enc"))
        drng_calls(e, 1);
    e->calls[NGCC_PROF_SM3HASH] = 1;
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 768, 1);
    add_bin(e->out, &e->nout, NGCC_PROF_SM3HASH, 256, 1);
    if (!strcmp(op, "dec")) {
        e->calls[NGCC_PROF_PSEUDOXOF] = 1;
        add_bin(e->in, &e->nin, NGCC_PROF_PSEUDOXOF, 512, 1);
        add_bin(e->out, &e->nout, NGCC_PROF_PSEUDOXOF, 256, 1);
    }
}

static void kex_draws(expect_op *e, long long n, const long long *bits)
{
    e->calls[NGCC_PROF_GET_RANDOM] = n;
    add_bin(e->in, &e->nin, NGCC_PROF_GET_RANDOM, 0, n);
    for (int i = 0; i < n; i++)
        add_bin(e->out, &e->nout, NGCC_PROF_GET_RANDOM, bits[i], 1);
}

/* n464 sm3hash calls over 464 bits and n720 over 720 */
static void kex_sm3(expect_op *e, long long n464, long long n720)
{
    e->calls[NGCC_PROF_SM3HASH] = n464 + n720;
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 464, n464);
    add_bin(e->in, &e->nin, NGCC_PROF_SM3HASH, 720, n720);
    add_bin(e->out, &e->nout, NGCC_PROF_SM3HASH, 256, n464 + n720);
}

static void expect_kex(const char *op, expect_op *e)
{
    static const long long one[] = {64}, pass1[] = {64, 128};
    int three = H.passes == 3;
    if (!strcmp(op, "init_a") || !strcmp(op, "init_b")) {
        kex_draws(e, 1, one);
    } else if (!strcmp(op, "pass1")) {
        kex_draws(e, 2, pass1);
    } else if (!strcmp(op, "pass2")) {
        kex_draws(e, 1, one);
        kex_sm3(e, 1, 0);
    } else if (!strcmp(op, "pass3")) {
        kex_sm3(e, 1, 1);
    } else if (!strcmp(op, "derive_a")) {
        kex_sm3(e, three ? 1 : 2, 0);
    } else if (!strcmp(op, "derive_b")) {
        kex_sm3(e, three ? 2 : 1, three ? 1 : 0);
    }
}

static void expected(const char *op, int rec, expect_op *e)
{
    memset(e, 0, sizeof *e);
    if (!strcmp(H.scheme, "wots"))
        expect_wots(op, rec, e);
    else if (!strcmp(H.scheme, "xkem"))
        expect_xkem(op, e);
    else if (!strcmp(H.scheme, "kex"))
        expect_kex(op, e);
}

static long long offset_of(const char *op, int sym)
{
    for (int i = 0; i < H.noff; i++)
        if (!strcmp(H.off[i].op, op) && H.off[i].sym == sym)
            return H.off[i].k;
    return 0;
}

static int offset_set(const char *op, int sym)
{
    for (int i = 0; i < H.noff; i++)
        if (!strcmp(H.off[i].op, op) && H.off[i].sym == sym)
            return 1;
    return 0;
}

/* ---- the KAT file: PK, M and R (the first 32 bytes of Sn) per record ---- */

static int read_kat(void)
{
    FILE *f = H.kat ? fopen(H.kat, "r") : NULL;
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int rec = -1, got = 0;
    static unsigned char buf[4096];
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        char *eq = strstr(line, " = ");
        if (!eq)
            continue;
        *eq = 0;
        const char *val = eq + 3;
        if (!strcmp(line, "Count")) {
            rec = atoi(val);
            continue;
        }
        if (rec < 0 || rec >= RECORDS)
            continue;
        long n = ngcc_hex_parse(buf, sizeof buf, val);
        if (!strcmp(line, "PK") && n == 64)
            memcpy(H.pk[rec], buf, 64), got++;
        else if (!strcmp(line, "M") && n >= 0 && n <= 128)
            memcpy(H.m[rec], buf, (size_t)n), H.mlen[rec] = (int)n, got++;
        else if (!strcmp(line, "Sn") && n >= 32)
            memcpy(H.r[rec], buf, 32), got++;
    }
    free(line);
    fclose(f);
    return got == 3 * RECORDS ? 0 : -1;
}

/* ---- cases ---- */

static cJSON *load_op(const char *op)
{
    char *path;
    if (asprintf(&path, "%s/prof-%s.json", H.records_dir, op) < 0)
        return NULL;
    cJSON *r = ngcc_record_load(path);
    free(path);
    return r;
}

static const cJSON *per_record(const cJSON *rec, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(rec, "per_record"), i);
}

static void case_calls(void **state)
{
    const char *op = *state;
    cJSON *rec = load_op(op);
    assert_non_null(rec);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(rec, "per_record"));
    if (n < 1)
        fail_msg("%s: no per-record figures in the prof record (verdict %s)", op,
                 cJSON_GetStringValue(cJSON_GetObjectItem(rec, "verdict")));
    int bad = 0;
    for (int i = 0; i < n && i < RECORDS; i++) {
        expect_op e;
        expected(op, i, &e);
        const cJSON *calls = cJSON_GetObjectItem(per_record(rec, i), "calls");
        for (int s = 0; s < NGCC_PROF_NSYM; s++) {
            long long want = e.calls[s] + offset_of(op, s);
            long long got = (long long)cJSON_GetNumberValue(cJSON_GetObjectItem(calls, sym_names[s]));
            if (want != got) {
                print_error("%s record %d: %s hand count %lld, measured %lld\n", op, i, sym_names[s], want, got);
                bad++;
            }
        }
    }
    cJSON_Delete(rec);
    if (bad)
        fail_msg("%s: %d counts differ from the hand count", op, bad);
}

/* the measured histogram of one symbol equals the expected bins exactly */
static int check_hist(const char *op, int rec, const char *dir, const cJSON *h, const hbin *b, int nb)
{
    int bad = 0;
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        if (offset_set(op, s))
            continue;
        const cJSON *got = cJSON_GetObjectItem(h, sym_names[s]);
        int want_bins = 0;
        for (int i = 0; i < nb; i++) {
            if (b[i].sym != s)
                continue;
            want_bins++;
            char key[32];
            snprintf(key, sizeof key, "%lld", b[i].bits);
            double g = cJSON_GetNumberValue(cJSON_GetObjectItem(got, key));
            if (g != (double)b[i].calls) {
                print_error("%s record %d: %s %s %lld bits: %lld calls expected, %.0f measured\n", op, rec,
                            sym_names[s], dir, b[i].bits, b[i].calls, g != g ? 0 : g);
                bad++;
            }
        }
        if (cJSON_GetArraySize(got) != want_bins) {
            print_error("%s record %d: %s %s has %d lengths, expected %d\n", op, rec, sym_names[s], dir,
                        cJSON_GetArraySize(got), want_bins);
            bad++;
        }
    }
    return bad;
}

static void case_bits(void **state)
{
    const char *op = *state;
    cJSON *rec = load_op(op);
    assert_non_null(rec);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(rec, "per_record"));
    int bad = n < 1;
    for (int i = 0; i < n && i < RECORDS; i++) {
        expect_op e;
        expected(op, i, &e);
        const cJSON *pr = per_record(rec, i);
        bad += check_hist(op, i, "bits_in", cJSON_GetObjectItem(pr, "bits_in"), e.in, e.nin);
        bad += check_hist(op, i, "bits_out", cJSON_GetObjectItem(pr, "bits_out"), e.out, e.nout);
    }
    cJSON_Delete(rec);
    if (bad)
        fail_msg("%s: %d bit-length histogram entries differ from the hand count", op, bad);
}

/* our formula for verify reproduces the fixture author's list */
static void case_author_list(void **state)
{
    (void)state;
    if (H.h != 4 && H.h != 5)
        skip();
    for (int i = 0; i < RECORDS; i++)
        assert_int_equal(wots_verify_steps(i) + 1 + H.h, author_verify_sm3[H.h - 4][i]);
}

static int parse_offset(const char *arg)
{
    char sym[64];
    if (H.noff >= MAX_OFFSETS || sscanf(arg, "%15[^:]:%63[^:]:%lld", H.off[H.noff].op, sym, &H.off[H.noff].k) != 3)
        return -1;
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        if (!strcmp(sym, sym_names[s])) {
            H.off[H.noff++].sym = s;
            return 0;
        }
    return -1;
}

static int parse_args(int argc, char **argv)
{
    static const struct option lo[] = {{"scheme", 1, 0, 's'},      {"h", 1, 0, 'h'},      {"kat", 1, 0, 'k'},
                                       {"records-dir", 1, 0, 'r'}, {"offset", 1, 0, 'o'}, {"type", 1, 0, 't'},
                                       {"passes", 1, 0, 'p'},      {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 's':
            H.scheme = optarg;
            break;
        case 'h':
            H.h = atoi(optarg);
            break;
        case 'k':
            H.kat = optarg;
            break;
        case 'r':
            H.records_dir = optarg;
            break;
        case 't':
            H.type = optarg;
            break;
        case 'p':
            H.passes = atoi(optarg);
            break;
        case 'o':
            if (parse_offset(optarg)) {
                fprintf(stderr, "ngcc-prof-handcount: --offset %s: expected <op>:<symbol>:<calls>\n", optarg);
                return -1;
            }
            break;
        default:
            return -1;
        }
    }
    if (!H.scheme || !H.records_dir)
        return -1;
    if (!strcmp(H.scheme, "kex") && H.passes != 2 && H.passes != 3) {
        fprintf(stderr, "ngcc-prof-handcount: kex needs --passes 2 or 3\n");
        return -1;
    }
    if (!strcmp(H.scheme, "wots") && (H.h < 1 || H.h > 10 || read_kat() != 0)) {
        fprintf(stderr, "ngcc-prof-handcount: wots needs --h 1..10 and --kat <KAT file with 10 records>: %s\n",
                H.kat ? H.kat : "(none)");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv)) {
        fprintf(stderr,
                "usage: ngcc-prof-handcount --scheme wots|xkem|kex|zero --records-dir <dir> [--h H --kat <file>]\n"
                "       [--passes 2|3] [--type SIG|KEM|KEX|HASH] [--offset <op>:<symbol>:<calls>]...\n");
        return 2;
    }
    int kem = !strcmp(H.scheme, "xkem") || (H.type && !strcmp(H.type, "KEM"));
    int kex = !strcmp(H.scheme, "kex") || (H.type && !strcmp(H.type, "KEX"));
    int hash = H.type && !strcmp(H.type, "HASH");
    static const char *sig_ops[] = {"keygen", "sign", "verify"}, *kem_ops[] = {"keygen", "enc", "dec"};
    static const char *kex3_ops[] = {"init_a", "init_b", "pass1", "pass2", "pass3", "derive_a", "derive_b"};
    static const char *kex2_ops[] = {"init_a", "init_b", "pass1", "pass2", "derive_a", "derive_b"};
    static const char *hash_ops[] = {"hash"};
    const char **ops = kem ? kem_ops : sig_ops;
    int nops = 3;
    if (kex) {
        ops = H.passes == 2 ? kex2_ops : kex3_ops;
        nops = H.passes == 2 ? 6 : 7;
    } else if (hash) {
        ops = hash_ops;
        nops = 1;
    }
    struct CMUnitTest tests[16];
    char names[16][48];
    int n = 0;
    for (int i = 0; i < nops; i++) {
        snprintf(names[n], 48, "%s_calls", ops[i]);
        tests[n] = (struct CMUnitTest){names[n], case_calls, NULL, NULL, (void *)ops[i]};
        n++;
        snprintf(names[n], 48, "%s_bits", ops[i]);
        tests[n] = (struct CMUnitTest){names[n], case_bits, NULL, NULL, (void *)ops[i]};
        n++;
    }
    if (!strcmp(H.scheme, "wots"))
        tests[n++] = (struct CMUnitTest){"verify_formula_is_the_author_count", case_author_list, NULL, NULL, NULL};
    return _cmocka_run_group_tests(H.records_dir, tests, (size_t)n, NULL, NULL);
}
