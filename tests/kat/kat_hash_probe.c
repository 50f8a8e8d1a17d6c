/* ngcc-kat-hash: the CryptHash speed probe (kat_hash_probe.h). The child
 * writes one line, "#P <small calls> <small s> <bulk bytes> <bulk calls>
 * <bulk s> <drng bytes> <drng s>"; the digests are not checked here (the
 * KAT files do that). */
#include "kat_hash_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drng.h"
#include "ngcc_child.h"
#include "ngcc_loader.h"

#define SMALL_BYTES 1024       /* KAT_Loop's message */
#define BULK_MAX (1024 * 1024) /* KAT_2_23's message */
#define PHASE_S 0.2            /* seconds of each timed phase */
#define SIZING_S 0.1           /* the bulk message: what the 1 KiB speed hashes in this time */
#define DRNG_BYTES (1024 * 1024)

typedef struct {
    const char *lib;
} probe_args;

/* calls CryptHash on msg until PHASE_S has passed (at least once) */
static int timed_calls(const ngcc_instance *in, const unsigned char *msg, size_t bytes, unsigned char *digest,
                       double *calls, double *seconds)
{
    double t0 = ngcc_now(), t = 0;
    *calls = 0;
    do {
        if (in->hash.hash(in->hash.digest_bits, msg, 8ull * bytes, digest) != 0)
            return -1;
        *calls += 1;
        t = ngcc_now() - t0;
    } while (t < PHASE_S);
    *seconds = t;
    return 0;
}

static int probe_child(void *vargs, int wfd)
{
    probe_args *a = vargs;
    FILE *out = fdopen(wfd, "w");
    ngcc_instance in;
    char err[512];
    if (!out)
        return 2;
    if (ngcc_instance_open(a->lib, &in, err, sizeof err) || in.type != NGCC_TYPE_HASH || !in.hash.hash ||
        in.hash.digest_bits <= 0) {
        fprintf(out, "#LOADFAIL %s\n", err);
        fclose(out);
        return 1;
    }
    unsigned char *msg = calloc(BULK_MAX, 1), *digest = calloc((size_t)in.hash.digest_bits / 8 + 64, 1);
    if (!msg || !digest)
        return 2;
    DRNG_ctx g;
    unsigned char seed[64];
    memset(seed, 0x5A, sizeof seed);
    init_random_number(&g, seed, sizeof seed);
    double t0 = ngcc_now();
    get_random_number(&g, msg, 8ull * DRNG_BYTES);
    double drng_s = ngcc_now() - t0, sc, ss, bc, bs;
    if (timed_calls(&in, msg, SMALL_BYTES, digest, &sc, &ss)) {
        fprintf(out, "#ERR CryptHash returned non-zero on a %d-byte message\n", SMALL_BYTES);
        fclose(out);
        return 1;
    }
    double fit = SIZING_S * SMALL_BYTES * sc / ss;
    size_t bulk = fit > BULK_MAX ? BULK_MAX : fit < SMALL_BYTES ? SMALL_BYTES : (size_t)fit;
    if (timed_calls(&in, msg, bulk, digest, &bc, &bs)) {
        fprintf(out, "#ERR CryptHash returned non-zero on a %zu-byte message\n", bulk);
        fclose(out);
        return 1;
    }
    fprintf(out, "#P %.0f %.6f %zu %.0f %.6f %d %.6f\n", sc, ss, bulk, bc, bs, DRNG_BYTES, drng_s);
    fclose(out);
    free(msg);
    free(digest);
    return 0;
}

typedef struct {
    kat_hash_probe_result *r;
    int got;
    char note[400];
} probe_read;

static int probe_line(char *line, size_t len, void *ctx)
{
    probe_read *p = ctx;
    (void)len;
    kat_hash_probe_result *r = p->r;
    if (strncmp(line, "#P ", 3) == 0)
        p->got = sscanf(line + 3, "%lf %lf %lf %lf %lf %lf %lf", &r->small_calls, &r->small_seconds, &r->bulk_bytes,
                        &r->bulk_calls, &r->bulk_seconds, &r->drng_bytes, &r->drng_seconds) == 7;
    else if (line[0] == '#')
        snprintf(p->note, sizeof p->note, "%s", line + 1);
    return 0;
}

int kat_hash_probe(const char *lib, double timeout, kat_hash_probe_result *r, char *why, size_t why_cap)
{
    memset(r, 0, sizeof *r);
    probe_args a = {lib};
    probe_read p = {r, 0, ""};
    ngcc_child_opts opts = {timeout, 0, NULL};
    int rfd = -1;
    double deadline = ngcc_now() + timeout;
    pid_t pid = ngcc_child_start(probe_child, &a, &opts, &rfd);
    if (pid < 0) {
        snprintf(why, why_cap, "the speed probe could not fork");
        return -1;
    }
    int timed_out = ngcc_child_read_lines(rfd, deadline, probe_line, &p) == NGCC_LINES_TIMEOUT;
    close(rfd);
    ngcc_child_result res;
    ngcc_child_wait(pid, timed_out ? ngcc_now() : 0, &res);
    if (p.got && r->small_seconds > 0 && r->bulk_seconds > 0)
        return 0;
    if (timed_out || res.end == NGCC_CHILD_TIMEDOUT)
        snprintf(why, why_cap, "the speed probe (CryptHash of 1 KiB messages) had no result after %.0f s", timeout);
    else if (res.end == NGCC_CHILD_SIGNALED)
        snprintf(why, why_cap, "the speed probe was killed by signal %d", res.code);
    else
        snprintf(why, why_cap, "the speed probe gave no result (%s)", p.note[0] ? p.note : "no output");
    return -1;
}
