/* ngcc-security: the CryptHash checks (iccs-kex-hash.md §3.1). The message
 * length is in bits, a partial last byte MSB-first; the unused low bits of
 * that byte are not part of the message. Messages are our own deterministic
 * bytes (sec_plan_bytes); every call goes through sec_hash (guarded copies:
 * buffer_safety), except message_bounds, which puts the message right before
 * an unreadable page. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sec_hash_util.h"

#define MAX_MSG SEC_HASH_MAX_MSG
#define HEX_MAX SEC_HASH_HEX_MAX

/* ---- determinism ---- */

static const ull det_bits[] = {0, 1, 7, 8, 9, 255, 256, 257, 512, 1003, 4096};

void sec_hash_determinism(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    unsigned char m[MAX_MSG], *d[2];
    ull dl = sec_hash_dbytes(j);
    d[0] = calloc(1, dl + 1);
    d[1] = calloc(1, dl + 1);
    enum { NDET = sizeof det_bits / sizeof det_bits[0] };
    unsigned char *kept = calloc(NDET, dl);
    int ok[NDET] = {0};
    for (size_t i = 0; i < NDET; i++) {
        ull n = det_bits[i];
        char what[96];
        sec_hash_message(m, n, (unsigned)i);
        int rc[2];
        for (int t = 0; t < 2; t++) {
            snprintf(what, sizeof what, "%llu-bit message, run %d", n, t + 1);
            sec_call_pattern(t + 1);
            rc[t] = sec_hash(what, j->claims.digest_bits, m, n, d[t], 0);
        }
        sec_call_pattern(0);
        j->res->tried++;
        if (rc[0] != 0 || rc[1] != 0) {
            sec_fail(j, "CryptHash returned %d, then %d for a %llu-bit message", rc[0], rc[1], n);
        } else if (!sec_hash_same(j, d[0], d[1])) {
            ull b = 0;
            while (d[0][b] == d[1][b])
                b++;
            sec_fail(j,
                     "two calls on the same %llu-bit message gave different digests (byte %llu of %llu differs; "
                     "the two calls fill the digest buffer with different patterns, so a byte never written shows "
                     "as a difference too)",
                     n, b, dl);
        } else {
            memcpy(kept + i * dl, d[0], (size_t)dl);
            ok[i] = 1;
        }
    }
    sec_hash_widths_write(j, det_bits, kept, ok, NDET);
    free(kept);
    free(d[0]);
    free(d[1]);
    snprintf(j->res->note, sizeof j->res->note,
             "%lu messages (0 to 4096 bits) hashed twice under two fill patterns: the same %d-bit digest",
             j->res->tried, j->claims.digest_bits);
}

/* ---- digest_length ---- */

void sec_hash_digest_length(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    int D = j->claims.digest_bits;
    int other[] = {D - 8, D + 8, D / 2, 8, 0, D - 1};
    unsigned char m[MAX_MSG];
    unsigned char *d = calloc(1, sec_hash_dbytes(j) + 64);
    unsigned long rejected = 0, handled = 0;
    sec_hash_message(m, 256, 77);
    char what[96];
    snprintf(what, sizeof what, "digest_len_bits %d (the header's)", D);
    unsigned long before = j->res->buffer.count;
    j->res->tried++;
    int rc = sec_hash(what, D, m, 256, d, 0);
    if (j->res->buffer.count > before)
        sec_fail(j, "CryptHash wrote outside the %llu-byte digest buffer (digest_len_bits %d, the header's): %s",
                 sec_hash_dbytes(j), D, j->res->buffer.first);
    else if (rc != 0)
        sec_fail(j, "CryptHash returned %d for digest_len_bits %d, the header's DIGEST_BIT_LENGTH", rc, D);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        int dd = other[i];
        int dup = dd < 0 || dd == D;
        for (size_t k = 0; k < i; k++)
            dup |= other[k] == dd;
        if (dup)
            continue;
        /* judged here, not by buffer_safety: the official driver never
         * passes another length */
        sec_issue saved = j->res->buffer;
        memset(&j->res->buffer, 0, sizeof j->res->buffer);
        snprintf(what, sizeof what, "digest_len_bits %d (the header says %d)", dd, D);
        j->res->tried++;
        rc = sec_hash(what, dd, m, 256, d, 0);
        int wrote = j->res->buffer.count > 0;
        char first[SEC_DETAIL];
        snprintf(first, sizeof first, "%s", j->res->buffer.first);
        j->res->buffer = saved;
        if (wrote && rc == 0)
            sec_fail(j,
                     "CryptHash accepted digest_len_bits %d (returned 0) but wrote past its %d-byte digest: %s (it "
                     "must reject another length or write ceil(d/8) bytes)",
                     dd, (dd + 7) / 8, first);
        else if (wrote)
            sec_finding(j, "CryptHash rejected digest_len_bits %d (returned %d) but still wrote past its %d bytes: %s",
                        dd, rc, (dd + 7) / 8, first);
        else if (rc != 0)
            rejected++;
        else
            handled++;
    }
    free(d);
    snprintf(j->res->note, sizeof j->res->note,
             "digest_len_bits %d: nothing written past %llu bytes; %lu other lengths rejected, %lu handled within "
             "ceil(d/8) bytes",
             D, sec_hash_dbytes(j), rejected, handled);
}

/* ---- message_bounds ---- */

static sigjmp_buf bounds_env;
static volatile unsigned char *bounds_lo, *bounds_hi; /* the unreadable page */
static volatile long bounds_at;

static void bounds_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    unsigned char *a = si->si_addr;
    if (a >= bounds_lo && a < bounds_hi) {
        bounds_at = (long)(a - bounds_lo);
        siglongjmp(bounds_env, 1);
    }
    signal(sig, SIG_DFL); /* another fault: a crash of its own */
    raise(sig);
}

static const ull bounds_bits[] = {0,          1,          2,       3,           4,    5,      6,      7,
                                  8,          9,          15,      16,          17,   8 * 55, 8 * 56, 8 * 64,
                                  8 * 64 + 1, 8 * 72 - 3, 8 * 136, 8 * 136 + 7, 4096, 8192};

void sec_hash_message_bounds(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    long page = sysconf(_SC_PAGESIZE);
    size_t span = (8192 / 8 + (size_t)page - 1) / (size_t)page * (size_t)page;
    unsigned char *base = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base + span, (size_t)page, PROT_NONE)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map a guard page");
        return;
    }
    bounds_lo = base + span;
    bounds_hi = base + span + page;
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = bounds_handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    unsigned char m[MAX_MSG * 2 + 1024], *d = calloc(1, sec_hash_dbytes(j) + 1);
    for (size_t i = 0; i < sizeof bounds_bits / sizeof bounds_bits[0]; i++) {
        ull n = bounds_bits[i], nb = (n + 7) / 8;
        sec_plan_bytes(m, nb, 0xB0B0u + (unsigned)i);
        if (n % 8)
            m[nb - 1] &= (unsigned char)(0xFF00u >> (n % 8));
        unsigned char *msg = base + span - nb; /* its last byte is the last readable one */
        memcpy(msg, m, (size_t)nb);
        char what[96];
        snprintf(what, sizeof what, "%llu-bit message before an unreadable page", n);
        j->res->tried++;
        if (sigsetjmp(bounds_env, 1) == 0) {
            int rc = sec_hash(what, j->claims.digest_bits, msg, n, d, 1);
            if (rc != 0)
                sec_fail(j, "CryptHash returned %d for a %llu-bit message", rc, n);
        } else {
            sec_fail(j,
                     "CryptHash read past the end of a %llu-bit message (%llu bytes): byte %llu of the buffer, %ld "
                     "past its end (an out-of-bounds read for a caller whose buffer holds exactly ceil(n/8) bytes)",
                     n, nb, nb + (ull)bounds_at, bounds_at);
        }
    }
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    munmap(base, span + (size_t)page);
    free(d);
    snprintf(j->res->note, sizeof j->res->note,
             "%lu messages (0 to 8192 bits) ending at an unreadable page: no byte past ceil(n/8) read", j->res->tried);
}

/* ---- bit_lengths ---- */

static const ull block_bytes[] = {55, 56, 63, 64, 72, 104, 128, 136, 144, 168};

void sec_hash_bit_lengths(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    ull n[17 + 9 * (sizeof block_bytes / sizeof block_bytes[0])];
    int nn = 0;
    for (ull i = 0; i <= 16; i++)
        n[nn++] = i;
    for (size_t b = 0; b < sizeof block_bytes / sizeof block_bytes[0]; b++)
        for (int r = -1; r <= 7; r++) {
            ull v = 8 * block_bytes[b] + (ull)(long long)r;
            int dup = 0;
            for (int i = 0; i < nn; i++)
                dup |= n[i] == v;
            if (!dup)
                n[nn++] = v;
        }
    ull dl = sec_hash_dbytes(j);
    unsigned char *dg = calloc((size_t)nn, dl + 1), m[MAX_MSG], f[MAX_MSG], *d = calloc(1, dl + 1);
    char mh[64], dh[80], what[96];
    int ok = 1;
    /* (a) prefixes of one message, n bits each: all digests differ */
    for (int i = 0; i < nn && ok; i++) {
        sec_hash_message(m, n[i], 1); /* stream 1: every n is a prefix of the same bits */
        snprintf(what, sizeof what, "the %llu-bit prefix", n[i]);
        if (sec_hash_digest_of(j, m, n[i], dg + (size_t)i * (dl + 1), what))
            ok = 0;
    }
    for (int a = 0; a < nn && ok; a++)
        for (int b = a + 1; b < nn; b++) {
            j->res->tried++;
            if (sec_hash_same(j, dg + (size_t)a * (dl + 1), dg + (size_t)b * (dl + 1))) {
                sec_hash_message(m, n[b], 1);
                sec_hash_hex(mh, sizeof mh, m, (n[b] + 7) / 8, HEX_MAX);
                sec_hash_hex(dh, sizeof dh, dg + (size_t)a * (dl + 1), dl, 32);
                sec_fail(j,
                         "CryptHash collision: the %llu-bit and the %llu-bit prefixes of one message (%s, %llu bits) "
                         "both give digest %s",
                         n[a], n[b], mh, n[b], dh);
            }
        }
    /* (b) the same n, one used bit of the partial last byte flipped */
    for (int i = 0; i < nn && ok; i++) {
        ull r = n[i] % 8, nb = (n[i] + 7) / 8;
        if (!r)
            continue;
        sec_hash_message(m, n[i], 1);
        for (ull u = 0; u < r; u++) {
            memcpy(f, m, MAX_MSG);
            f[nb - 1] ^= (unsigned char)(0x80u >> u);
            snprintf(what, sizeof what, "%llu-bit message, bit %llu of its last byte flipped", n[i], u);
            j->res->tried++;
            if (sec_hash_digest_of(j, f, n[i], d, what))
                break;
            if (sec_hash_same(j, d, dg + (size_t)i * (dl + 1))) {
                sec_hash_hex(mh, sizeof mh, m, nb, HEX_MAX);
                sec_hash_hex(dh, sizeof dh, d, dl, 32);
                sec_fail(j,
                         "CryptHash collision: two %llu-bit messages that differ only in used bit %llu of the partial "
                         "last byte (%02X vs %02X; message %s) both give digest %s: the last %llu bits are not "
                         "hashed",
                         n[i], u, m[nb - 1], f[nb - 1], mh, dh, r);
            }
        }
    }
    free(dg);
    free(d);
    snprintf(j->res->note, sizeof j->res->note,
             "%d lengths (0-16 bits and 8k-1..8k+7 around 55..168-byte blocks): distinct digests, and every used bit "
             "of a partial last byte changes the digest (%lu comparisons)",
             nn, j->res->tried);
}

/* ---- unused_bits ----
 * The same n-bit message with junk in the unused low bits of its last byte
 * must give the same digest. KAT_CryptHash.c always clears them, so KATs
 * cannot show it. A difference alone is a FINDING, not a failure: the digest
 * is still a function of the bytes handed over; but a caller whose buffer
 * holds junk there (the API does not ask it to clear them) gets a digest
 * nobody else can reproduce. When that other digest is the digest of another
 * real message (a shorter prefix: junk that cancels a padding bit; or the
 * message with the junk as real message bits), two messages collide:
 * CRYPTOFAIL. */

/* the junk digest dj of f (the n-bit message m with junk in its last byte)
 * against the digests of m's prefixes of n-1..n-16 bits and of f's bits read
 * as an (n+1)..(8 ceil(n/8))-bit message; 1 (and sec_fail) on a collision */
static int junk_collision(sec_job *j, const unsigned char *m, const unsigned char *f, ull n, const unsigned char *dj)
{
    ull nb = (n + 7) / 8, dl = sec_hash_dbytes(j);
    unsigned char o[MAX_MSG], *d = calloc(1, dl + 1);
    char rel[120], what[96];
    int hit = 0;
    ull on = 0;
    for (ull k = 1; k <= 16 && k <= n; k++) {
        on = n - k;
        memcpy(o, m, MAX_MSG);
        if (on % 8)
            o[on / 8] &= (unsigned char)(0xFF00u >> (on % 8));
        memset(o + (on + 7) / 8, 0, MAX_MSG - (size_t)(on + 7) / 8);
        snprintf(what, sizeof what, "the %llu-bit prefix of a %llu-bit message", on, n);
        if (sec_hash_digest_of(j, o, on, d, what))
            break;
        snprintf(rel, sizeof rel, "its own %llu-bit prefix", on);
        if ((hit = sec_hash_same(j, d, dj)))
            break;
    }
    for (ull u = 1; !hit && u <= 8 * nb - n; u++) {
        on = n + u;
        memcpy(o, f, MAX_MSG);
        if (on % 8)
            o[on / 8] &= (unsigned char)(0xFF00u >> (on % 8));
        snprintf(what, sizeof what, "a %llu-bit message with the junk as message bits", on);
        if (sec_hash_digest_of(j, o, on, d, what))
            break;
        snprintf(rel, sizeof rel, "the same bits followed by the junk's first %llu bit%s as message bits", u,
                 u > 1 ? "s" : "");
        if ((hit = sec_hash_same(j, d, dj)))
            break;
    }
    if (hit) {
        char mh[64], oh[64], dh[80];
        sec_hash_hex(mh, sizeof mh, m, nb, HEX_MAX);
        sec_hash_hex(oh, sizeof oh, o, (on + 7) / 8, HEX_MAX);
        sec_hash_hex(dh, sizeof dh, dj, dl, 32);
        sec_fail(j,
                 "CryptHash collision through the unused bits of a partial last byte: the %llu-bit message %s with its "
                 "last byte %02X instead of %02X (junk %02X in the %llu unused low bits) gives digest %s, the digest "
                 "of the %llu-bit message %s (%s): a caller's junk there makes two messages collide",
                 n, mh, f[nb - 1], m[nb - 1], (unsigned)(f[nb - 1] ^ m[nb - 1]), 8 * nb - n, dh, on, oh, rel);
    }
    free(d);
    return hit;
}

static const ull unused_bits_n[] = {1, 2, 3, 5, 7, 9, 15, 8 * 64 + 3, 8 * 136 + 5};

void sec_hash_unused_bits(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    ull dl = sec_hash_dbytes(j);
    unsigned char m[MAX_MSG], f[MAX_MSG], *d0 = calloc(1, dl + 1), *d1 = calloc(1, dl + 1);
    unsigned long rejected = 0, nondet = 0;
    for (size_t i = 0; i < sizeof unused_bits_n / sizeof unused_bits_n[0]; i++) {
        ull n = unused_bits_n[i], nb = (n + 7) / 8, r = n % 8;
        unsigned char unused = (unsigned char)(0xFFu >> r);
        char what[96];
        sec_hash_message(m, n, 3 + (unsigned)i);
        snprintf(what, sizeof what, "%llu-bit message, unused bits clear", n);
        if (sec_hash_digest_of(j, m, n, d0, what) || sec_hash_digest_of(j, m, n, d1, what))
            break;
        if (!sec_hash_same(j, d0, d1)) {
            nondet++; /* another digest for the same input: determinism's, not this check's */
            continue;
        }
        /* all unused bits, every other one, and the first alone (where a
         * 10* padding bit goes) */
        const unsigned char junk[3] = {0xFF, 0x55, (unsigned char)(0x80u >> r)};
        for (int t = 0; t < 3; t++) {
            int seen = 0;
            for (int u = 0; u < t; u++)
                seen |= (junk[u] & unused) == (junk[t] & unused);
            if (seen)
                continue; /* the same junk as an earlier one */
            memcpy(f, m, MAX_MSG);
            f[nb - 1] |= (unsigned char)(junk[t] & unused);
            snprintf(what, sizeof what, "%llu-bit message, unused bits %02X", n, f[nb - 1] & unused);
            j->res->tried++;
            int rc = sec_hash(what, j->claims.digest_bits, f, n, d1, 0);
            if (rc != 0) {
                rejected++;
                continue;
            }
            if (!sec_hash_same(j, d0, d1) && !junk_collision(j, m, f, n, d1)) {
                char mh[64];
                sec_hash_hex(mh, sizeof mh, m, nb, HEX_MAX);
                sec_finding(j,
                            "CryptHash hashes the unused bits of a partial last byte: the %llu-bit message %s gives "
                            "another digest when its last byte is %02X instead of %02X (the %llu unused low bits "
                            "set). Same message, other digest: not a collision of two messages, but a caller that "
                            "does not clear those bits cannot reproduce the digest; KAT_CryptHash.c always clears "
                            "them, so the KATs cannot show it",
                            n, mh, f[nb - 1], m[nb - 1], 8 - r);
            }
        }
    }
    free(d0);
    free(d1);
    if (nondet && !j->res->tried) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note,
                 "the same message hashed twice gave two digests (determinism): unused bits cannot be judged");
    } else {
        snprintf(j->res->note, sizeof j->res->note,
                 "%lu messages with junk in the unused bits of the last byte: the same digest as with them clear (%lu "
                 "rejected by an error return%s)",
                 j->res->tried, rejected, nondet ? "; some lengths skipped: not deterministic" : "");
    }
}
