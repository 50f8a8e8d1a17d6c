#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_bounds.h"
#include "sec_check.h"
#include "sec_scale.h"

static const sec_check sig_checks[] = {
    {"honest", sec_sig_honest, NGCC_CRYPTOFAIL},
    /* keys (and randomized signatures) from two seeds must differ: else
     * publicly reproducible, CRYPTOFAIL */
    {"seed_dependence", sec_seed_dependence, NGCC_CRYPTOFAIL},
    {"modified_message", sec_sig_modified_message, NGCC_CRYPTOFAIL},
    /* a changed valid signature that verifies: malleability (sec_malleable),
     * MALLEABLE, or a FINDING with "claims": "euf-cma" */
    {"modified_signature", sec_sig_modified_signature, NGCC_MALLEABLE},
    {"wrong_public_key", sec_sig_wrong_public_key, NGCC_CRYPTOFAIL},
    /* empty or one byte: a forgery; the last byte cut: malleability */
    {"truncated_signature", sec_sig_truncated, NGCC_CRYPTOFAIL},
    {"extended_signature", sec_sig_extended, NGCC_MALLEABLE},
    {"zero_ff_signature", sec_sig_zero_ff, NGCC_CRYPTOFAIL},
    /* short inputs ending at an unreadable page: a read past the declared
     * length (it explains a stale_state failure on them) */
    {"input_bounds", sec_input_bounds, NGCC_OVERFLOW},
    /* one case per negative class under two stack/heap fill patterns, in
     * separate children: a verdict that changes read uninitialised memory */
    {"stale_state", sec_stale_state, NGCC_CRYPTOFAIL},
    /* all-0x00/0xFF, lengths 0, 1, len-1, len+1, huge: a crash (or an absurd
     * allocation it caused) is CRASH naming the input */
    {"malformed_input", sec_malformed_input, NGCC_CRASH},
    {"buffer_safety", NULL, NGCC_OVERFLOW},
    {"claimed_lengths", NULL, NGCC_OVERFLOW},
    /* the same seed must give the same output: otherwise the KAT cannot be
     * reproduced, hence MISMATCH */
    {"determinism", sec_sig_determinism, NGCC_MISMATCH},
    /* bytes inside a returned length that the call never wrote: the output
     * is not defined by the API call (whatever the caller's buffer held);
     * judged from the determinism child's two pattern runs */
    {"unwritten_output", NULL, NGCC_CRYPTOFAIL},
    {"return_codes", NULL, NGCC_PASS},
    /* many honest sign/verify rounds (--scale s): a rejection rate above 1e-3 */
    {"honest_scale", sec_honest_scale, NGCC_CRYPTOFAIL},
    /* heap blocks lost with every call (sec_leaks.c): LEAK naming bytes per call and the site */
    {"memory_leaks", sec_memory_leaks, NGCC_LEAK},
    /* the k-th allocation failed: rc 0 with a wrong output is CRYPTOFAIL (sec_allocfail.c) */
    {"alloc_failure", sec_alloc_failure, NGCC_CRYPTOFAIL},
};

static const sec_check kem_checks[] = {
    {"honest", sec_kem_honest, NGCC_CRYPTOFAIL},
    {"seed_dependence", sec_seed_dependence, NGCC_CRYPTOFAIL},
    {"modified_ciphertext", sec_kem_modified_ciphertext, NGCC_CRYPTOFAIL},
    {"wrong_secret_key", sec_kem_wrong_secret_key, NGCC_CRYPTOFAIL},
    /* implicit rejection: outputs distinct per ciphertext, changed by the key,
     * no more or fewer bits of the honest secret than chance */
    {"rejection_quality", sec_kem_rejection_quality, NGCC_CRYPTOFAIL},
    {"input_bounds", sec_input_bounds, NGCC_OVERFLOW},
    {"stale_state", sec_stale_state, NGCC_CRYPTOFAIL},
    /* all-0x00/0xFF, lengths 0, 1, len-1, len+1, huge: a crash (or an absurd
     * allocation it caused) is CRASH naming the input */
    {"malformed_input", sec_malformed_input, NGCC_CRASH},
    {"buffer_safety", NULL, NGCC_OVERFLOW},
    {"claimed_lengths", NULL, NGCC_OVERFLOW},
    {"determinism", sec_kem_determinism, NGCC_MISMATCH},
    {"unwritten_output", NULL, NGCC_CRYPTOFAIL},
    {"return_codes", NULL, NGCC_PASS},
    /* many honest enc/dec rounds (--scale s): a failure rate above "dfr" or 1e-3 */
    {"honest_scale", sec_honest_scale, NGCC_CRYPTOFAIL},
    {"memory_leaks", sec_memory_leaks, NGCC_LEAK},
    {"alloc_failure", sec_alloc_failure, NGCC_CRYPTOFAIL},
};

/* KEX: unwritten_output is judged from determinism's two pattern runs,
 * return_codes from every init, pass and derive */
static const sec_check kex_checks[] = {
    /* the official call order on one DRNG stream, per KAT record seed: both
     * derive succeed and agree; pass-return conventions */
    {"honest", sec_kex_honest, NGCC_CRYPTOFAIL},
    {"seed_dependence", sec_kex_seed_dependence, NGCC_CRYPTOFAIL},
    /* a bit of m_k flipped in transit must not end in agreement on the honest secret */
    {"modified_message", sec_kex_modified_message, NGCC_CRYPTOFAIL},
    /* ephemeral values repeating across sessions under other seeds */
    {"ephemeral_reuse", sec_kex_ephemeral_reuse, NGCC_CRYPTOFAIL},
    /* the passes and derives on honest and negative inputs under two stack
     * and heap fill patterns: a result that changes read uninitialised memory */
    {"stale_state", sec_kex_stale_state, NGCC_CRYPTOFAIL},
    /* malformed peer messages (before an unreadable page) and keys to every
     * pass and derive that takes one: CRASH or OVERFLOW naming the call */
    {"malformed_input", sec_kex_malformed_input, NGCC_CRASH},
    {"buffer_safety", NULL, NGCC_OVERFLOW},
    {"claimed_lengths", NULL, NGCC_OVERFLOW},
    {"determinism", sec_kex_determinism, NGCC_MISMATCH},
    {"unwritten_output", NULL, NGCC_CRYPTOFAIL},
    {"return_codes", NULL, NGCC_PASS},
    /* many honest sessions (--scale s): disagreement or abort rate above "dfr" or 1e-3 */
    {"honest_scale", sec_kex_honest_scale, NGCC_CRYPTOFAIL},
    {"memory_leaks", sec_memory_leaks, NGCC_LEAK},
    {"alloc_failure", sec_alloc_failure, NGCC_CRYPTOFAIL},
};

static const sec_check hash_checks[] = {
    /* the same message twice (two output fill patterns): the same digest */
    {"determinism", sec_hash_determinism, NGCC_MISMATCH},
    /* nothing written past ceil(d'/8) bytes, for d and other digest lengths */
    {"digest_length", sec_hash_digest_length, NGCC_OVERFLOW},
    /* the message ends at an unreadable page: no read past ceil(n/8) bytes */
    {"message_bounds", sec_hash_message_bounds, NGCC_OVERFLOW},
    /* m vs m || 0...0 and length-only differences at padding/rate boundaries */
    {"collision_probes", sec_hash_collision_probes, NGCC_CRYPTOFAIL},
    /* n not a multiple of 8: other lengths and other partial bytes, other digests */
    {"bit_lengths", sec_hash_bit_lengths, NGCC_CRYPTOFAIL},
    /* junk in the unused bits of the last byte changes nothing (a FINDING if it does) */
    {"unused_bits", sec_hash_unused_bits, NGCC_CRYPTOFAIL},
    {"buffer_safety", NULL, NGCC_OVERFLOW},
    {"memory_leaks", sec_memory_leaks, NGCC_LEAK},
    {"alloc_failure", sec_alloc_failure, NGCC_CRYPTOFAIL},
};

const sec_check *sec_checks_for(int type, int *n)
{
    if (type == NGCC_TYPE_KEX) {
        *n = (int)(sizeof kex_checks / sizeof kex_checks[0]);
        return kex_checks;
    }
    if (type == NGCC_TYPE_HASH) {
        *n = (int)(sizeof hash_checks / sizeof hash_checks[0]);
        return hash_checks;
    }
    return sec_checks(type == NGCC_TYPE_KEM, n);
}

const sec_check *sec_checks(int is_kem, int *n)
{
    *n = is_kem ? (int)(sizeof kem_checks / sizeof kem_checks[0]) : (int)(sizeof sig_checks / sizeof sig_checks[0]);
    return is_kem ? kem_checks : sig_checks;
}

void sec_fail(sec_job *j, const char *fmt, ...)
{
    sec_result *r = j->res;
    if (r->failure.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->failure.first, sizeof r->failure.first, fmt, ap);
        va_end(ap);
    }
    r->fail_verdict = j->check->fail_verdict;
}

void sec_fail_as(sec_job *j, ngcc_verdict v, const char *fmt, ...)
{
    sec_result *r = j->res;
    if (r->failure.count++ == 0 || sec_verdict_rank(v) > sec_verdict_rank(r->fail_verdict)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->failure.first, sizeof r->failure.first, fmt, ap);
        va_end(ap);
        r->fail_verdict = v;
    }
}

void sec_finding(sec_job *j, const char *fmt, ...)
{
    sec_result *r = j->res;
    if (r->finding.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->finding.first, sizeof r->finding.first, fmt, ap);
        va_end(ap);
    }
}

void sec_malleable(sec_job *j, const char *fmt, ...)
{
    sec_result *r = j->res;
    if (r->malleable.count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->malleable.first, sizeof r->malleable.first, fmt, ap);
        va_end(ap);
    }
}

void sec_malleable_summary(sec_job *j, const char *fmt, ...)
{
    sec_result *r = j->res;
    if (r->malleable.count == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->malleable.first, sizeof r->malleable.first, fmt, ap);
    va_end(ap);
}

static int has(const unsigned long long *v, int n, unsigned long long x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static int ascending(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

int sec_sample(unsigned long long n, int max, int tail, unsigned long long *out)
{
    int k = 0;
    if (n == 0 || max <= 0)
        return 0;
    if (n <= (unsigned long long)max) {
        for (unsigned long long i = 0; i < n; i++)
            out[k++] = i;
        return k;
    }
    for (int t = 0; t < tail && t < max; t++)
        out[k++] = n - 1 - (unsigned long long)t;
    int spread = max - k;
    for (int s = 0; s < spread; s++) {
        unsigned long long pos = spread > 1 ? (unsigned long long)s * (n - 1) / (unsigned long long)(spread - 1) : 0;
        if (!has(out, k, pos))
            out[k++] = pos;
    }
    qsort(out, (size_t)k, sizeof *out, ascending); /* failures are reported at their lowest position */
    return k;
}

int sec_check_child(void *arg, int unused_fd)
{
    (void)unused_fd;
    sec_job *j = arg;
    ngcc_instance in;
    char err[512];
    if (ngcc_instance_open(j->opt->lib, &in, err, sizeof err)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot load %.460s", err);
    } else {
        sec_call_begin(&in, j->res, &j->claims);
        j->check->run(j);
    }
    j->res->finished = 1;
    return 0;
}
