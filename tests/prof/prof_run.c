#define _GNU_SOURCE
#include "prof_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "ngcc_control.h"
#include "ngcc_katgen.h"
#include "ngcc_kex_pass.h"
#include "ngcc_loader.h"

const char *const prof_sig_ops[PROF_SIGKEM_OPS] = {"keygen", "sign", "verify"};
const char *const prof_kem_ops[PROF_SIGKEM_OPS] = {"keygen", "enc", "dec"};
const char *const prof_kex_ops[PROF_KEX_OPS] = {"init_a", "init_b", "pass1", "pass2", "pass3",    "pass4",
                                                "pass5",  "pass6",  "pass7", "pass8", "derive_a", "derive_b"};
/* the KEX steps (indices of prof_kex_ops): pass p is S_PASS1 + p - 1 */
enum { S_INIT_A, S_INIT_B, S_PASS1, S_DERIVE_A = S_PASS1 + NGCC_KEX_MAXP, S_DERIVE_B };
const char *const prof_hash_ops[1] = {"hash"};
/* the CryptHash profile's records: one message length (bits) each, from the
 * short end of KAT_2_12 (every partial-byte case) to KAT_Loop's 8192 */
const unsigned long long prof_hash_lengths[PROF_HASH_RECORDS] = {0, 1, 7, 8, 255, 256, 511, 512, 4096, 8192};
static const char *const sym_names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;

/* Room past every claimed length: an overflow is the KAT test's verdict;
 * here it should not turn into a crash that hides the counts. */
#define SLACK 4096
#define HIST_CAP 4096

enum { B_PK, B_SK, B_SN_SS, B_CT, B_SS1, B_N };
/* KEX buffers (KAT_KEX.c §2.2: m1, m2, m3, ... are each total_msg_len
 * bytes) and their in/out lengths, which the official driver never resets */
enum { K_PKA, K_SKA, K_STA, K_PKB, K_SKB, K_STB, K_SSA, K_SSB, K_M1, K_N = K_M1 + NGCC_KEX_MAXP };
/* KEX claims: pk sk sta stb ss total_msg, and the claimed number of passes */
enum { C_PK, C_SK, C_STA, C_STB, C_SS, C_MSG, C_N };

/* the claim that sizes KEX buffer b */
static int claim_of(int b)
{
    static const int c[K_M1] = {C_PK, C_SK, C_STA, C_PK, C_SK, C_STB, C_SS, C_SS};
    return b >= K_M1 ? C_MSG : c[b];
}
#define HASH_MSG_BYTES 1024

typedef struct {
    ngcc_instance in;
    ull claim[4]; /* pk sk sn|ss ct */
    unsigned char *buf[B_N];
    ull kclaim[C_N], passes;
    unsigned char *kbuf[K_N];
    ull klen[K_N];      /* lengths at the start of the current record */
    ull klen_next[K_N]; /* ... of the next one: the end of this record's first run */
    unsigned char *hmsg, *hdigest;
    ngcc_prof_reset_fn reset;
    ngcc_prof_read_fn read;
    ngcc_prof_hist_fn hist;
    ngcc_prof_calibrate_fn calibrate;
} lib;

typedef struct {
    long preempted;            /* involuntary context switches during the run */
    int notrun;                /* KEX: the flow ended before the target pass (fewer passes) */
    int failed_step;           /* -1: every step returned 0 */
    int rc;                    /* rc of the failed step, else of the target */
    int ssdiff;                /* KEM dec: shared secrets differ */
    ull ticks;                 /* target operation */
    unsigned long long digest; /* FNV-1a of the target's outputs */
} run_result;

static FILE *out;

static void line(const char *tag, cJSON *j)
{
    char *t = cJSON_PrintUnformatted(j);
    fprintf(out, "%s %s\n", tag, t ? t : "{}");
    fflush(out);
    free(t);
}

static unsigned long long fnv(unsigned long long h, const unsigned char *p, ull n)
{
    while (n--) {
        h ^= *p++;
        h *= 1099511628211ull;
    }
    return h;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int kex_open(lib *L, const char *path, char *err, int errlen);

static int lib_open(lib *L, const char *path, int need_prof, char *err, int errlen)
{
    memset(L, 0, sizeof *L);
    if (ngcc_instance_open(path, &L->in, err, errlen))
        return -1;
    if (L->in.type == NGCC_TYPE_KEX) {
        if (kex_open(L, path, err, errlen))
            return -1;
    } else if (L->in.type == NGCC_TYPE_HASH) {
        L->hmsg = calloc(1, HASH_MSG_BYTES);
        L->hdigest = calloc(1, (size_t)(L->in.hash.digest_bits > 0 ? L->in.hash.digest_bits : 0) / 8 + SLACK);
        if (!L->hmsg || !L->hdigest) {
            snprintf(err, (size_t)errlen, "%s: cannot allocate the message buffers", path);
            return -1;
        }
    } else if (L->in.is_kem) {
        ngcc_kem_api *a = &L->in.kem;
        ull c[4] = {a->pk_len(), a->sk_len(), a->ss_len(), a->ct_len()};
        memcpy(L->claim, c, sizeof c);
    } else {
        ngcc_sig_api *a = &L->in.sig;
        ull c[4] = {a->pk_len(), a->sk_len(), a->sn_len(), 0};
        memcpy(L->claim, c, sizeof c);
    }
    static const int claim_of[B_N] = {0, 1, 2, 3, 2};
    for (int b = 0; b < B_N && (L->in.type == NGCC_TYPE_SIG || L->in.type == NGCC_TYPE_KEM); b++) {
        L->buf[b] = calloc(1, (size_t)L->claim[claim_of[b]] + SLACK);
        if (!L->buf[b]) {
            snprintf(err, (size_t)errlen, "%s: cannot allocate the claimed buffer sizes", path);
            return -1;
        }
    }
    if (!need_prof)
        return 0;
    ngcc_prof_abi_fn abi = (ngcc_prof_abi_fn)ngcc_instance_sym(&L->in, "ngcc_prof_abi");
    *(void **)&L->reset = ngcc_instance_sym(&L->in, "ngcc_prof_reset");
    *(void **)&L->read = ngcc_instance_sym(&L->in, "ngcc_prof_read");
    *(void **)&L->hist = ngcc_instance_sym(&L->in, "ngcc_prof_hist");
    *(void **)&L->calibrate = ngcc_instance_sym(&L->in, "ngcc_prof_calibrate");
    if (!abi || !L->reset || !L->read || !L->hist || !L->calibrate) {
        snprintf(err, (size_t)errlen,
                 "%s has no profiling surface (ngcc_prof_*): not a prof build; "
                 "rebuild it with its build/<cand>/<key>/prof test",
                 path);
        return -1;
    }
    if (abi() != NGCC_PROF_ABI) {
        snprintf(err, (size_t)errlen, "%s: profiling surface ABI %d, harness expects %d (rebuild the instance)", path,
                 abi(), NGCC_PROF_ABI);
        return -1;
    }
    return 0;
}

static ull clamp(ull v, ull claim)
{
    return v > claim ? claim : v;
}

/* getters once, in the official order (§2.2 step 5); buffers sized by them */
static int kex_open(lib *L, const char *path, char *err, int errlen)
{
    ngcc_kex_api *a = &L->in.kex;
    L->passes = a->passes_num();
    ull c[C_N] = {a->pk_len(), a->sk_len(), a->sta_len(), a->stb_len(), a->ss_len(), a->total_msg_len()};
    memcpy(L->kclaim, c, sizeof c);
    for (int b = 0; b < K_N; b++) {
        if (L->kclaim[claim_of(b)] > (1ull << 30)) {
            snprintf(err, (size_t)errlen,
                     "%s: a claimed length (%llu bytes) above 1 GiB; fix the kex_get_*_len_bytes getters", path,
                     L->kclaim[claim_of(b)]);
            return -1;
        }
        L->kbuf[b] = calloc(1, (size_t)L->kclaim[claim_of(b)] + SLACK);
        if (!L->kbuf[b]) {
            snprintf(err, (size_t)errlen, "%s: cannot allocate the claimed buffer sizes", path);
            return -1;
        }
        /* pk/sk/st/ss lengths start at their getters, message lengths at 0 */
        L->klen[b] = claim_of(b) == C_MSG ? 0 : L->kclaim[claim_of(b)];
    }
    memcpy(L->klen_next, L->klen, sizeof L->klen);
    return 0;
}

/* runs the SIG flow up to step target; returns the rc of the last step run */
static int sig_step(lib *L, int k, const unsigned char *m, ull mlen, ull *len, run_result *r, int target)
{
    ngcc_sig_api *a = &L->in.sig;
    unsigned char **b = L->buf;
    int rc = 0;
    unsigned char *mm = (unsigned char *)m;
    if (k == 0) {
        rc = a->keygen(b[B_PK], &len[0], b[B_SK], &len[1]);
        len[0] = clamp(len[0], L->claim[0]);
        len[1] = clamp(len[1], L->claim[1]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_PK], len[0]), b[B_SK], len[1]);
    } else if (k == 1) {
        rc = a->sign(b[B_SK], len[1], mm, mlen, b[B_SN_SS], &len[2]);
        len[2] = clamp(len[2], L->claim[2]);
        if (k == target)
            r->digest = fnv(1469598103934665603ull, b[B_SN_SS], len[2]);
    } else {
        rc = a->verify(b[B_PK], len[0], b[B_SN_SS], len[2], mm, mlen);
        r->digest = (unsigned long long)(unsigned)rc;
    }
    return rc;
}

static int kem_step(lib *L, int k, ull *len, run_result *r, int target)
{
    ngcc_kem_api *a = &L->in.kem;
    unsigned char **b = L->buf;
    int rc;
    if (k == 0) {
        rc = a->keygen(b[B_PK], &len[0], b[B_SK], &len[1]);
        len[0] = clamp(len[0], L->claim[0]);
        len[1] = clamp(len[1], L->claim[1]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_PK], len[0]), b[B_SK], len[1]);
    } else if (k == 1) {
        rc = a->enc(b[B_PK], len[0], b[B_SN_SS], &len[2], b[B_CT], &len[3]);
        len[2] = clamp(len[2], L->claim[2]);
        len[3] = clamp(len[3], L->claim[3]);
        if (k == target)
            r->digest = fnv(fnv(1469598103934665603ull, b[B_CT], len[3]), b[B_SN_SS], len[2]);
    } else {
        ull ss1_len = L->claim[2];
        rc = a->dec(b[B_SK], len[1], b[B_CT], len[3], b[B_SS1], &ss1_len);
        ss1_len = clamp(ss1_len, L->claim[2]);
        r->ssdiff = rc == 0 && (ss1_len != len[2] || memcmp(b[B_SS1], b[B_SN_SS], (size_t)len[2]) != 0);
        r->digest = fnv(1469598103934665603ull, b[B_SS1], ss1_len);
    }
    return rc;
}

/* KAT_KEX.c's pass sequence (§2.3 step 7): 0 carry on, 1 the exchange is
 * finished, -5 a pass returned 1 with the wrong claimed number of passes */
static int kex_pass_end(const lib *L, int rc, int pass)
{
    if (rc != 1)
        return pass >= ngcc_kex_last_pass(L->passes); /* the driver stops after pass 3 (extended: the claimed one) */
    return L->passes == (ull)pass ? 1 : -5;
}

/* one step k of the KAT_KEX.c flow (k: init_a init_b pass1 .. pass8
 * derive_a derive_b); *finished is set when a pass ends the exchange.
 * Lengths are clamped to the buffers (an overflow is the kat test's verdict). */
static int kex_step(lib *L, int k, ull *len, int *finished, run_result *r, int target)
{
    ngcc_kex_api *a = &L->in.kex;
    unsigned char **b = L->kbuf;
    ull m = L->kclaim[C_MSG] + SLACK;
    int rc = 0;
    switch (k) {
    case 0:
        rc = a->init_a(b[K_PKA], &len[K_PKA], b[K_SKA], &len[K_SKA], b[K_STA], &len[K_STA]);
        break;
    case 1:
        rc = a->init_b(b[K_PKB], &len[K_PKB], b[K_SKB], &len[K_SKB], b[K_STB], &len[K_STB]);
        break;
    case S_PASS1:
        rc = a->pass1_a(b[K_SKA], len[K_SKA], b[K_PKB], len[K_PKB], b[K_STA], &len[K_STA], b[K_M1], &len[K_M1]);
        break;
    case S_DERIVE_A: { /* mb: B's last message (none after one pass) */
        int lb = *finished % 2 ? *finished - 1 : *finished;
        rc = a->derive_a(b[K_SKA], len[K_SKA], b[K_PKB], len[K_PKB], lb ? b[K_M1 + lb - 1] : NULL,
                         lb ? len[K_M1 + lb - 1] : 0, b[K_STA], len[K_STA], b[K_SSA], &len[K_SSA]);
        break;
    }
    case S_DERIVE_B: { /* ma: A's last message */
        int la = *finished % 2 ? *finished : *finished - 1;
        rc = a->derive_b(b[K_SKB], len[K_SKB], b[K_PKA], len[K_PKA], b[K_M1 + la - 1], len[K_M1 + la - 1], b[K_STB],
                         len[K_STB], b[K_SSB], &len[K_SSB]);
        break;
    }
    default: { /* pass p >= 2: B sends the even ones */
        int p = k - S_PASS1 + 1, s = p % 2 == 0, in = K_M1 + p - 2;
        if (!a->pass[p]) { /* a claim the library has no pass for */
            r->failed_step = k;
            return -1;
        }
        rc = a->pass[p](b[s ? K_SKB : K_SKA], len[s ? K_SKB : K_SKA], b[s ? K_PKA : K_PKB], len[s ? K_PKA : K_PKB],
                        b[in], len[in], b[s ? K_STB : K_STA], &len[s ? K_STB : K_STA], b[in + 1], &len[in + 1]);
        break;
    }
    }
    for (int i = 0; i < K_N; i++)
        len[i] = clamp(len[i], claim_of(i) == C_MSG ? m : L->kclaim[claim_of(i)] + SLACK);
    if (rc < 0)
        return rc; /* errors are rc < 0 only (§2.4) */
    if (k >= S_PASS1 && k < S_DERIVE_A) {
        int end = kex_pass_end(L, rc, k - 1);
        if (end < 0)
            return end;
        if (end)
            *finished = k - S_PASS1 + 1; /* the pass that ended the exchange */
    }
    if (k == target) {
        int p = k - S_PASS1 + 1, out_of[3] = {-1, -1, -1};
        if (k == S_INIT_A || k == S_INIT_B)
            out_of[0] = k ? K_PKB : K_PKA, out_of[1] = k ? K_SKB : K_SKA, out_of[2] = k ? K_STB : K_STA;
        else if (k == S_DERIVE_A || k == S_DERIVE_B)
            out_of[0] = k == S_DERIVE_A ? K_SSA : K_SSB;
        else
            out_of[0] = p % 2 ? K_STA : K_STB, out_of[1] = K_M1 + p - 1;
        unsigned long long h = 1469598103934665603ull;
        for (int i = 0; i < 3; i++)
            if (out_of[i] >= 0)
                h = fnv(h, b[out_of[i]], len[out_of[i]]);
        r->digest = h;
    }
    if (k == S_DERIVE_B)
        r->ssdiff = len[K_SSA] != len[K_SSB] || memcmp(b[K_SSA], b[K_SSB], (size_t)len[K_SSA]) != 0;
    return 0;
}

/* the whole KEX flow up to target (a pass after the exchange ended is not run:
 * notrun) */
static void kex_steps(lib *L, int target, int profile, run_result *r)
{
    ull len[K_N];
    memcpy(len, L->klen, sizeof len);
    int finished = 0;
    for (int k = 0; k <= target; k++) {
        if (k > S_PASS1 && k < S_DERIVE_A && finished) {
            if (k == target) { /* nothing of the earlier steps is this step's count */
                if (profile)
                    L->reset();
                r->notrun = 1;
                return;
            }
            continue;
        }
        if (k == target && profile)
            L->reset();
        ull t0 = ngcc_prof_ticks();
        int rc = kex_step(L, k, len, &finished, r, target);
        ull t1 = ngcc_prof_ticks();
        if (k == target) {
            r->ticks = t1 - t0;
            r->rc = rc;
        }
        if (rc != 0) {
            r->failed_step = k;
            r->rc = rc;
            return;
        }
    }
    memcpy(L->klen_next, len, sizeof len);
}

/* CryptHash of record i's message (the lengths of prof_hash_lengths) */
static int hash_step(lib *L, ull nbits, run_result *r)
{
    int d = L->in.hash.digest_bits;
    int rc = L->in.hash.hash(d, L->hmsg, nbits, L->hdigest);
    r->digest = fnv(1469598103934665603ull, L->hdigest, (ull)(d > 0 ? d : 0) / 8);
    return rc;
}

/* One pass of the KAT flow for one record: seed, then the steps up to and
 * including target. Counters are reset right before the target step, so
 * seeding and earlier steps are not in the profile. */
static void run_steps(lib *L, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int profile,
                      run_result *r)
{
    ull len[4] = {L->claim[0], L->claim[1], L->claim[2], L->claim[3]};
    memset(r, 0, sizeof *r);
    r->failed_step = -1;
    if (L->in.type == NGCC_TYPE_HASH) { /* no DRNG: CryptHash alone */
        memcpy(L->hmsg, m, HASH_MSG_BYTES);
        if (profile)
            L->reset();
        ull t0 = ngcc_prof_ticks();
        r->rc = hash_step(L, mlen, r);
        r->ticks = ngcc_prof_ticks() - t0;
        if (r->rc != 0)
            r->failed_step = 0;
        return;
    }
    L->in.seed(seed, NGCC_KAT_SEED_BYTES);
    if (L->in.type == NGCC_TYPE_KEX) {
        kex_steps(L, target, profile, r);
        return;
    }
    for (int k = 0; k <= target; k++) {
        if (k == target && profile)
            L->reset();
        ull t0 = ngcc_prof_ticks();
        int rc = L->in.is_kem ? kem_step(L, k, len, r, target) : sig_step(L, k, m, mlen, len, r, target);
        ull t1 = ngcc_prof_ticks();
        if (k == target) {
            r->ticks = t1 - t0;
            r->rc = rc;
        }
        if (rc != 0) {
            r->failed_step = k;
            r->rc = rc;
            return;
        }
    }
}

static long involuntary_switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

/* one run, and whether the scheduler took the CPU away during it */
static void run_once(lib *L, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int profile,
                     run_result *r)
{
    long before = involuntary_switches();
    run_steps(L, target, seed, m, mlen, profile, r);
    r->preempted = involuntary_switches() - before;
}

static cJSON *counters_json(const ngcc_prof_counters *c)
{
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        const ngcc_prof_sym *y = &c->sym[s];
        cJSON *j = cJSON_AddObjectToObject(o, sym_names[s]);
        cJSON_AddNumberToObject(j, "calls", (double)y->calls);
        cJSON_AddNumberToObject(j, "other_ctx", (double)y->other_ctx);
        cJSON_AddNumberToObject(j, "nested", (double)y->nested);
        cJSON_AddNumberToObject(j, "outer_ticks", (double)y->outer_ticks);
        cJSON_AddNumberToObject(j, "bits_in", (double)y->bits_in);
        cJSON_AddNumberToObject(j, "bits_out", (double)y->bits_out);
    }
    return o;
}

/* {"<sym>": [[bits, calls], ...]} for one direction */
static cJSON *hist_json(lib *L, int dir)
{
    static ngcc_prof_bin bins[HIST_CAP];
    cJSON *o = cJSON_CreateObject();
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        int n = L->hist(s, dir, bins, HIST_CAP);
        if (n > HIST_CAP)
            n = HIST_CAP;
        if (n == 0)
            continue;
        cJSON *a = cJSON_AddArrayToObject(o, sym_names[s]);
        for (int i = 0; i < n; i++) {
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)bins[i].bits));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)bins[i].calls));
            cJSON_AddItemToArray(a, pair);
        }
    }
    return o;
}

/* the deterministic part of the counters (everything but ticks) */
static int same_counts(const ngcc_prof_counters *a, const ngcc_prof_counters *b, char *why, size_t wl)
{
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        const ngcc_prof_sym *x = &a->sym[s], *y = &b->sym[s];
        if (x->calls != y->calls || x->other_ctx != y->other_ctx || x->nested != y->nested ||
            x->bits_in != y->bits_in || x->bits_out != y->bits_out) {
            snprintf(why, wl, "%s: %llu calls in the first run, %llu in a repetition", sym_names[s],
                     x->calls + x->other_ctx, y->calls + y->other_ctx);
            return 0;
        }
    }
    return 1;
}

static int op_count(const lib *L)
{
    return L->in.type == NGCC_TYPE_KEX ? PROF_KEX_OPS : L->in.type == NGCC_TYPE_HASH ? 1 : PROF_SIGKEM_OPS;
}

static const char *step_name(const lib *L, int k)
{
    switch (L->in.type) {
    case NGCC_TYPE_KEX:
        return prof_kex_ops[k];
    case NGCC_TYPE_HASH:
        return prof_hash_ops[0];
    case NGCC_TYPE_KEM:
        return prof_kem_ops[k];
    default:
        return prof_sig_ops[k];
    }
}

static void failure_text(const lib *L, const run_result *r, int target, char *buf, size_t bl)
{
    const char *what =
        r->rc == -5 && L->in.type == NGCC_TYPE_KEX && r->failed_step >= S_PASS1 && r->failed_step < S_DERIVE_A
            ? " (returned 1 = finished, but kex_get_passes_num() claims another number)"
            : "";
    if (r->failed_step >= 0 && r->failed_step < target)
        snprintf(buf, bl, "%s returned %d%s before %s could run", step_name(L, r->failed_step), r->rc, what,
                 step_name(L, target));
    else if (r->failed_step == target)
        snprintf(buf, bl, "%s returned %d%s", step_name(L, target), r->rc, what);
    else if (r->ssdiff && L->in.type == NGCC_TYPE_KEX)
        snprintf(buf, bl, "kex_derive_ss_b's shared secret differs from kex_derive_ss_a's");
    else if (r->ssdiff)
        snprintf(buf, bl, "kem_dec shared secret differs from kem_enc's");
    else
        buf[0] = 0;
}

#define MAX_REPS 64

typedef struct {
    ull prof_min, plain_min;
    long prof_pre, plain_pre; /* preemptions of the chosen runs */
    ull prof_t[MAX_REPS], plain_t[MAX_REPS];
    cJSON *prof_all, *plain_all;
    ngcc_prof_counters first, best;
    int deterministic, same_output, have_plain_digest;
    char nondet[200], fail[200];
    unsigned long long plain_digest;
} record_acc;

/* the run whose times are kept: undisturbed before disturbed, then fastest */
static int preferred(ull ticks, long pre, ull best_ticks, long best_pre)
{
    if ((pre == 0) != (best_pre == 0))
        return pre == 0;
    return ticks < best_ticks;
}

static void one_rep(lib *P, lib *Q, int target, const unsigned char *seed, const unsigned char *m, ull mlen, int rep,
                    record_acc *a, cJSON *rec)
{
    run_result rp, rq;
    if (Q) {
        run_once(Q, target, seed, m, mlen, 0, &rq);
        if (rep == 0 || preferred(rq.ticks, rq.preempted, a->plain_min, a->plain_pre)) {
            a->plain_min = rq.ticks;
            a->plain_pre = rq.preempted;
        }
        cJSON_AddItemToArray(a->plain_all, cJSON_CreateNumber((double)rq.ticks));
        a->plain_t[rep] = rq.ticks;
        a->plain_digest = rq.digest;
        a->have_plain_digest = rq.failed_step < 0 || rq.failed_step == target;
    }
    run_once(P, target, seed, m, mlen, 1, &rp);
    ngcc_prof_counters c;
    P->read(&c);
    cJSON_AddItemToArray(a->prof_all, cJSON_CreateNumber((double)rp.ticks));
    a->prof_t[rep] = rp.ticks;
    if (rep == 0) {
        a->first = c;
        a->best = c;
        a->prof_min = rp.ticks;
        a->prof_pre = rp.preempted;
        failure_text(P, &rp, target, a->fail, sizeof a->fail);
        cJSON_AddItemToObject(rec, "bits_in", hist_json(P, 0));
        cJSON_AddItemToObject(rec, "bits_out", hist_json(P, 1));
        cJSON_AddNumberToObject(rec, "hist_dropped", (double)c.hist_dropped);
        cJSON_AddNumberToObject(rec, "rc", rp.rc);
        if (rp.notrun)
            cJSON_AddBoolToObject(rec, "notrun", 1);
    } else {
        if (a->deterministic && !same_counts(&a->first, &c, a->nondet, sizeof a->nondet))
            a->deterministic = 0;
        if (preferred(rp.ticks, rp.preempted, a->prof_min, a->prof_pre)) {
            a->prof_min = rp.ticks;
            a->prof_pre = rp.preempted;
            a->best = c;
        }
    }
    if (Q && a->have_plain_digest && rq.digest != rp.digest)
        a->same_output = 0;
}

static int cmp_ull(const void *x, const void *y)
{
    ull a = *(const ull *)x, b = *(const ull *)y;
    return a < b ? -1 : a > b;
}

/* the two fastest of n runs agree within 1%: interference only adds time,
 * so two equal minima are the undisturbed duration */
static int settled(const ull *t, int n)
{
    ull s[MAX_REPS];
    memcpy(s, t, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_ull);
    return n >= 2 && (double)(s[1] - s[0]) <= 0.01 * (double)s[0];
}

static void run_record(lib *P, lib *Q, int target, int i, const unsigned char *seed, const unsigned char *m,
                       const prof_run_args *args, double deadline)
{
    ull mlen = P->in.type == NGCC_TYPE_SIG ? ngcc_katgen_mlen(i) : 0;
    if (P->in.type == NGCC_TYPE_HASH)
        mlen = prof_hash_lengths[i];
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddNumberToObject(rec, "record", i);
    if (P->in.type == NGCC_TYPE_SIG)
        cJSON_AddNumberToObject(rec, "m_len", (double)mlen);
    if (P->in.type == NGCC_TYPE_HASH)
        cJSON_AddNumberToObject(rec, "msg_len_bits", (double)mlen);
    /* KEX lengths carry over from the previous record, as in KAT_KEX.c */
    memcpy(P->klen, P->klen_next, sizeof P->klen);
    if (Q)
        memcpy(Q->klen, Q->klen_next, sizeof Q->klen);
    record_acc a;
    memset(&a, 0, sizeof a);
    a.deterministic = a.same_output = 1;
    a.prof_all = cJSON_CreateArray();
    a.plain_all = cJSON_CreateArray();
    int reps = 0, max = args->max_reps < MAX_REPS ? args->max_reps : MAX_REPS;
    while (reps < max) {
        one_rep(P, Q, target, seed, m, mlen, reps, &a, rec);
        reps++;
        if (reps < args->min_reps)
            continue;
        if (settled(a.prof_t, reps) && (!Q || settled(a.plain_t, reps)) && a.prof_pre == 0 && a.plain_pre == 0)
            break;
        if (now_ns() * 1e-9 > deadline)
            break;
    }
    cJSON_AddNumberToObject(rec, "runs", reps);
    cJSON_AddBoolToObject(rec, "settled", settled(a.prof_t, reps) && (!Q || settled(a.plain_t, reps)));
    cJSON_AddStringToObject(rec, "failure", a.fail);
    cJSON_AddBoolToObject(rec, "deterministic", a.deterministic);
    cJSON_AddStringToObject(rec, "nondeterminism", a.deterministic ? "" : a.nondet);
    if (Q)
        cJSON_AddBoolToObject(rec, "same_output_as_plain", a.same_output);
    cJSON_AddNumberToObject(rec, "prof_ticks", (double)a.prof_min);
    cJSON_AddNumberToObject(rec, "prof_preempted", (double)a.prof_pre);
    cJSON_AddItemToObject(rec, "prof_ticks_all", a.prof_all);
    if (Q) {
        cJSON_AddNumberToObject(rec, "plain_ticks", (double)a.plain_min);
        cJSON_AddNumberToObject(rec, "plain_preempted", (double)a.plain_pre);
        cJSON_AddItemToObject(rec, "plain_ticks_all", a.plain_all);
    } else {
        cJSON_Delete(a.plain_all);
    }
    /* counts from the first run, ticks from the fastest (equal counts) */
    ngcc_prof_counters c = a.first;
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        c.sym[s].outer_ticks = a.best.sym[s].outer_ticks;
    cJSON_AddItemToObject(rec, "counters", counters_json(&c));
    line("REC", rec);
    cJSON_Delete(rec);
}

static void meta_line(lib *P, lib *Q, const char *plain_err)
{
    const ngcc_meta *mt = P->in.meta;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "type", mt->type);
    cJSON_AddStringToObject(j, "algorithm_instance", mt->algorithm_instance);
    cJSON_AddStringToObject(j, "impl_variant", mt->impl_variant);
    cJSON_AddStringToObject(j, "build_variant", mt->build_variant);
    cJSON_AddStringToObject(j, "flagset", mt->flagset);
    cJSON_AddStringToObject(j, "compiler", mt->compiler);
    cJSON_AddStringToObject(j, "flags", mt->flags);
    cJSON_AddStringToObject(j, "counter", NGCC_PROF_COUNTER);
    cJSON_AddBoolToObject(j, "plain_loaded", Q != NULL);
    if (P->in.type == NGCC_TYPE_KEX) { /* the getters, for the report's basic facts */
        static const char *const names[C_N] = {"claimed_pk",  "claimed_sk", "claimed_sta",
                                               "claimed_stb", "claimed_ss", "claimed_total_msg"};
        cJSON_AddNumberToObject(j, "passes", (double)P->passes);
        for (int c = 0; c < C_N; c++)
            cJSON_AddNumberToObject(j, names[c], (double)P->kclaim[c]);
    }
    if (P->in.type == NGCC_TYPE_HASH)
        cJSON_AddNumberToObject(j, "digest_bits", P->in.hash.digest_bits);
    cJSON_AddStringToObject(j, "plain_error", plain_err);
    line("META", j);
    cJSON_Delete(j);
}

static int find_op(const lib *P, const char *op)
{
    for (int k = 0; k < op_count(P); k++)
        if (strcmp(step_name(P, k), op) == 0)
            return k;
    return -1;
}

int prof_run_child(void *vargs, int wfd)
{
    prof_run_args *args = vargs;
    out = fdopen(wfd, "w");
    if (!out)
        return 2;
    static lib P, Q;
    char err[512] = "", plain_err[512] = "";
    if (lib_open(&P, args->prof_lib, 1, err, sizeof err)) {
        fprintf(out, "LOADFAIL %s\n", err);
        fclose(out);
        return 1;
    }
    lib *q = NULL;
    if (args->plain_lib && lib_open(&Q, args->plain_lib, 0, plain_err, sizeof plain_err) == 0)
        q = &Q;
    int target = find_op(&P, args->op);
    if (target < 0) {
        static const char *const use[] = {"keygen, sign or verify", "keygen, enc or dec",
                                          "init_a, init_b, pass1 .. pass8, derive_a or derive_b", "hash"};
        fprintf(out, "BADOP %s is not an operation of a %s instance (use %s)\n", args->op, P.in.meta->type,
                use[P.in.type]);
        fclose(out);
        return 1;
    }
    meta_line(&P, q, plain_err);
    ngcc_prof_calib cal;
    P.calibrate(args->calib_iterations, &cal);
    cJSON *cj = cJSON_CreateObject();
    cJSON_AddNumberToObject(cj, "inside", cal.inside);
    cJSON_AddNumberToObject(cj, "total", cal.total);
    cJSON_AddNumberToObject(cj, "iterations", (double)cal.iterations);
    line("CALIB", cj);
    cJSON_Delete(cj);

    ngcc_katgen gen;
    ngcc_katgen_init(&gen, P.in.type != NGCC_TYPE_SIG);
    /* hash messages: KAT_2_12's DRNG ("KAT_2_12" x 8), one draw of n bits per
     * record into a zeroed buffer, as gen_KAT_2_12 does (§3.4) */
    static DRNG_ctx hash_drng;
    if (P.in.type == NGCC_TYPE_HASH) {
        unsigned char hs[64];
        for (int i = 0; i < 64; i++)
            hs[i] = (unsigned char)"KAT_2_12"[i % 8];
        init_random_number(&hash_drng, hs, sizeof hs);
    }
    unsigned char seed[NGCC_KAT_SEED_BYTES], m[HASH_MSG_BYTES > NGCC_KAT_MSG_MAX ? HASH_MSG_BYTES : NGCC_KAT_MSG_MAX];
    double ns0 = now_ns();
    ull t0 = ngcc_prof_ticks();
    double deadline = ns0 * 1e-9 + args->budget_s;
    int records = args->records;
    if (P.in.type == NGCC_TYPE_HASH && records > PROF_HASH_RECORDS)
        records = PROF_HASH_RECORDS;
    for (int i = 0; i < records; i++) {
        if (P.in.type == NGCC_TYPE_HASH) {
            memset(m, 0, sizeof m);
            get_random_number(&hash_drng, m, prof_hash_lengths[i]);
        } else {
            ngcc_katgen_next(&gen, seed, m);
        }
        fprintf(out, "BEGIN %d\n", i);
        fflush(out);
        run_record(&P, q, target, i, seed, m, args, deadline);
    }
    cJSON *dj = cJSON_CreateObject();
    cJSON_AddNumberToObject(dj, "ticks", (double)(ngcc_prof_ticks() - t0));
    cJSON_AddNumberToObject(dj, "ns", now_ns() - ns0);
    line("DONE", dj);
    cJSON_Delete(dj);
    fclose(out);
    return 0;
}
