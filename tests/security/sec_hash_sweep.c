/* ngcc-security: collision_probes, the CryptHash padding sweep. Trivial
 * collisions of a padding or length encoding sit where a message nearly fills
 * a block: a 120-byte-rate candidate collides the 958-bit m with the 959-bit
 * m || 1 (the two bits of its pad10*1 land on one bit), at no byte length a
 * fixed list names. So every length from 0 to two blocks of the largest rate
 * of the NGCC hash candidates (168-byte Keccak rate: 336 bytes) is probed:
 *   - every bit length n, and the same n with its last bit flipped (so both
 *     m || 0 and m || 1 are there for every m),
 *   - at every byte length, m || 0^k and m || 1 0^(k-1) for k = 2..8,
 * all prefixes of one message stream, about 30 hashes a byte length. The
 * digests are sorted: two distinct messages with one digest are a collision,
 * whatever their lengths. A slow hash sweeps fewer lengths (sec_budget.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_child.h"
#include "sec_budget.h"
#include "sec_hash_util.h"

#define SWEEP_BYTES 336 /* two blocks of the 168-byte rate */
#define SWEEP_LEAST 32  /* never fewer byte lengths, whatever the budget */
#define PER_LEN 30      /* probes a byte length: 8 bit lengths twice, 7 zero- and 7 one-padded */
#define STREAM 0x300u   /* sec_hash_message's stream of these probes */
#define CHANCE_BITS 64  /* shorter digests collide by chance among the probes (birthday bound) */

typedef struct {
    ull n;     /* message bits */
    ull base;  /* 'Z', 'O': the byte-length message padded */
    char kind; /* 'P' prefix, 'Q' prefix with its last bit flipped, 'Z' base || 0^k, 'O' base || 1 0^(k-1) */
} probe;

static void build(const probe *p, unsigned char *m)
{
    sec_hash_message(m, p->kind == 'Z' || p->kind == 'O' ? p->base : p->n, STREAM);
    if (p->kind == 'Q')
        m[(p->n - 1) / 8] ^= (unsigned char)(0x80u >> ((p->n - 1) % 8));
    if (p->kind == 'O')
        m[p->base / 8] |= (unsigned char)(0x80u >> (p->base % 8));
}

static int bit(const unsigned char *m, ull i)
{
    return (m[i / 8] >> (7 - i % 8)) & 1;
}

static const unsigned char *sort_digests;
static size_t sort_len;

static int by_digest(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = memcmp(sort_digests + x * sort_len, sort_digests + y * sort_len, sort_len);
    return c ? c : (x > y) - (x < y);
}

/* seconds a CryptHash call takes on the longest probe */
static double time_longest(sec_job *j, unsigned char *d)
{
    unsigned char m[SEC_HASH_MAX_MSG];
    probe p = {8 * SWEEP_BYTES + 7, 0, 'P'};
    build(&p, m);
    double t0 = ngcc_now();
    for (int i = 0; i < 4; i++)
        if (sec_hash_digest_of(j, m, p.n, d, "the longest probe, timed"))
            return -1;
    return (ngcc_now() - t0) / 4;
}

/* "the 959-bit message made of the same bits followed by the bit 1", or the
 * message's bytes when it is not an extension of the other */
static void describe(char *out, size_t cap, const unsigned char *a, ull na, const unsigned char *b, ull nb)
{
    ull same = 0;
    while (same < na && same < nb && bit(a, same) == bit(b, same))
        same++;
    if (same == na && nb > na && nb - na <= 16) {
        char bits[17];
        for (ull i = na; i < nb; i++)
            bits[i - na] = (char)('0' + bit(b, i));
        bits[nb - na] = 0;
        snprintf(out, cap, "the %llu-bit message made of the same bits followed by the bit%s %s", nb,
                 nb - na > 1 ? "s" : "", bits);
        return;
    }
    char h[64];
    sec_hash_hex(h, sizeof h, b, (nb + 7) / 8, SEC_HASH_HEX_MAX);
    ull diff = same + 1;
    while (na == nb && diff < na && bit(a, diff) == bit(b, diff))
        diff++;
    if (na == nb && diff == na)
        snprintf(out, cap, "the %llu-bit message %s (the same bits but for bit %llu)", nb, h, same);
    else
        snprintf(out, cap, "the %llu-bit message %s (first differing bit %llu)", nb, h, same);
}

void sec_hash_collision_probes(sec_job *j)
{
    if (sec_hash_no_digest(j))
        return;
    size_t dl = (size_t)sec_hash_dbytes(j);
    unsigned char *d = calloc(1, dl + 1);
    double per_call = time_longest(j, d);
    if (per_call < 0) {
        free(d);
        return;
    }
    double budget = j->opt->budget;
    if (j->opt->timeout > 0 && budget > 0.8 * j->opt->timeout)
        budget = 0.8 * j->opt->timeout;
    char reduced[200];
    int lmax = sec_budget_hash_sweep(per_call, budget / 4, PER_LEN, SWEEP_BYTES, SWEEP_LEAST, reduced, sizeof reduced);
    size_t cap = (size_t)(lmax + 1) * PER_LEN, np = 0;
    probe *p = calloc(cap, sizeof *p);
    for (ull L = 0; L <= (ull)lmax; L++) {
        for (ull r = 0; r < 8; r++) {
            p[np++] = (probe){8 * L + r, 0, 'P'};
            if (8 * L + r > 0)
                p[np++] = (probe){8 * L + r, 0, 'Q'};
        }
        for (ull k = 2; k <= 8; k++) {
            p[np++] = (probe){8 * L + k, 8 * L, 'Z'};
            p[np++] = (probe){8 * L + k, 8 * L, 'O'};
        }
    }
    unsigned char *dg = calloc(np, dl), m[SEC_HASH_MAX_MSG], o[SEC_HASH_MAX_MSG];
    size_t *order = calloc(np, sizeof *order);
    int ok = 1;
    for (size_t i = 0; i < np && ok; i++) {
        char what[96];
        build(&p[i], m);
        snprintf(what, sizeof what, "%llu-bit probe (%c)", p[i].n, p[i].kind);
        j->res->tried++;
        ok = sec_hash_digest_of(j, m, p[i].n, dg + i * dl, what) == 0;
        order[i] = i;
    }
    unsigned long pairs = 0;
    size_t best_a = 0, best_b = 0;
    if (ok) {
        sort_digests = dg;
        sort_len = dl;
        qsort(order, np, sizeof *order, by_digest);
        for (size_t s = 0, e; s < np; s = e) {
            for (e = s + 1; e < np && !memcmp(dg + order[s] * dl, dg + order[e] * dl, dl);)
                e++;
            for (size_t x = s; x < e; x++)
                for (size_t y = x + 1; y < e; y++) {
                    size_t a = order[x], b = order[y];
                    if (p[a].n > p[b].n || (p[a].n == p[b].n && a > b)) {
                        size_t t = a;
                        a = b;
                        b = t;
                    }
                    build(&p[a], m);
                    build(&p[b], o);
                    if (p[a].n == p[b].n && !memcmp(m, o, (size_t)(p[a].n + 7) / 8))
                        continue; /* the same message built twice (a stream bit equal to the padding's) */
                    /* the shortest pair, of the closest lengths, is the clearest to report */
                    if (pairs++ == 0 || p[b].n < p[best_b].n || (p[b].n == p[best_b].n && p[a].n > p[best_a].n)) {
                        best_a = a;
                        best_b = b;
                    }
                }
        }
    }
    if (pairs) {
        char mh[64], dh[80], other[200];
        build(&p[best_a], m);
        build(&p[best_b], o);
        sec_hash_hex(mh, sizeof mh, m, (p[best_a].n + 7) / 8, SEC_HASH_HEX_MAX);
        sec_hash_hex(dh, sizeof dh, dg + best_a * dl, dl, 32);
        describe(other, sizeof other, m, p[best_a].n, o, p[best_b].n);
        if (j->claims.digest_bits >= CHANCE_BITS)
            sec_fail(j,
                     "CryptHash collision: the %llu-bit message %s and %s both give digest %s (a padding or "
                     "length-encoding collision; %lu colliding pairs among %zu probes of 0 to %llu bits%s%s)",
                     p[best_a].n, mh, other, dh, pairs, np, 8ull * (ull)lmax + 8, reduced[0] ? "; " : "", reduced);
        else /* a birthday collision is likely among ~10 000 short digests: not a flaw by itself */
            sec_finding(j,
                        "CryptHash collision: the %llu-bit message %s and %s both give digest %s (%lu colliding "
                        "pairs among %zu probes; with a %d-bit digest chance collisions are expected)",
                        p[best_a].n, mh, other, dh, pairs, np, j->claims.digest_bits);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%zu probes (every bit length 0..%llu, each also with its last bit flipped; m || 0^k and m || 1 0^(k-1), "
             "k = 2..8, at every byte length 0..%d): no two distinct messages share a digest%s%s",
             np, 8ull * (ull)lmax + 8, lmax, reduced[0] ? "; " : "", reduced);
    free(order);
    free(dg);
    free(p);
    free(d);
}
