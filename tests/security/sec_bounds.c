/* ngcc-security: input_bounds. verify (SIG) or dec (KEM) gets the first
 * made signature/ciphertext declared 1, 0, len-1 and len bytes long, every
 * input ending at the last byte of a readable page before an unreadable one
 * (sec_buf_set_page_end): a read past the declared length faults at once,
 * where guard bytes would only have been read. The fault is this check's
 * OVERFLOW naming the input and its declared length ("declared length
 * ignored" for a short one). Under ASan the buffers are exact-size
 * allocations and its report is the verdict.
 *
 * Such a read also makes the verdict depend on whatever lies past the
 * buffer, which stale_state sees as uninitialised memory: sec_bounds_explain
 * names the over-read as the cause, and the symptom no longer outranks it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sec_bounds.h"
#include "sec_buf.h"
#include "sec_check.h"

static sigjmp_buf bounds_env;
static volatile int hit_order;
static volatile size_t hit_len, hit_past;

static void bounds_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    int order;
    size_t len, past;
    if (sec_buf_page_end_hit(si->si_addr, &order, &len, &past)) {
        hit_order = order, hit_len = len, hit_past = past;
        siglongjmp(bounds_env, 1);
    }
    signal(sig, SIG_DFL); /* another fault: a crash of its own */
    raise(sig);
}

/* the inputs of verify and dec, in the order sec_call allocates them */
static const char *const sig_inputs[] = {"public key", "signature", "message"};
static const char *const kem_inputs[] = {"secret key", "ciphertext"};

void sec_input_bounds(sec_job *j)
{
    const sec_material *m = j->mat;
    int kem = j->plan->is_kem, item = -1;
    const char *api = kem ? "kem_dec" : "sig_verify", *in = kem ? "ciphertext" : "signature";
    const char *len_name = kem ? "ct_len" : "sn_len";
    for (int i = 0; i < j->plan->nitems && item < 0; i++)
        if (m->item_ok[i] && m->out_len[i] > 0)
            item = i;
    if (item < 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no %s was made to derive short inputs from", in);
        return;
    }
    const sec_item *it = &j->plan->item[item];
    ull len = m->out_len[item], lens[4] = {1, 0, len - 1, len};
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = bounds_handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (!j->opt->sanitizer) { /* ASan: exact-size buffers, its own report */
        sigaction(SIGSEGV, &sa, &old_segv);
        sigaction(SIGBUS, &sa, &old_bus);
        sec_buf_set_page_end(1);
    }
    for (int l = 0; l < 4; l++) {
        if ((l == 2 && len < 3) || (l == 3 && len == 1))
            continue; /* the same as a one-byte or empty input */
        char what[160];
        ull n = lens[l];
        snprintf(what, sizeof what, "%s, %s declared %llu bytes long, ending at an unreadable page", it->label, in, n);
        j->res->tried++;
        if (sigsetjmp(bounds_env, 1) == 0) {
            if (kem) {
                unsigned char *ss = malloc((size_t)j->claims.ss + 1);
                ull ss_len = 0;
                sec_dec(what, m->sk[it->key], m->sk_len[it->key], m->out[item], n, ss, &ss_len);
                free(ss);
            } else {
                sec_verify(what, m->pk[it->key], m->pk_len[it->key], m->out[item], n, it->m, it->mlen);
            }
            continue;
        }
        sec_buf_page_end_reset(); /* the inputs of the call that never returned */
        const char *hit = hit_order < (kem ? 2 : 3) ? (kem ? kem_inputs : sig_inputs)[hit_order] : "input";
        if (hit_order == 1 && n < len)
            sec_fail(j,
                     "%s read past the %llu-byte %s (declared length ignored: %s %llu, the %s is %llu bytes; "
                     "its byte %zu was read) at %s: an out-of-bounds read for a caller whose buffer holds exactly "
                     "%s bytes",
                     api, n, in, len_name, n, in, len, hit_len + hit_past, it->label, len_name);
        else
            sec_fail(j,
                     "%s read past the end of the %zu-byte %s (its byte %zu was read) with a %llu-byte %s at %s: "
                     "an out-of-bounds read for a caller whose buffers hold exactly the declared lengths",
                     api, hit_len, hit, hit_len + hit_past, n, in, it->label);
    }
    if (!j->opt->sanitizer) {
        sec_buf_set_page_end(0);
        sigaction(SIGSEGV, &old_segv, NULL);
        sigaction(SIGBUS, &old_bus, NULL);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%s with %ss declared 1, 0, %llu and %llu bytes long, every input ending at an unreadable page: no "
             "byte past a declared length read",
             api, in, len - 1, len);
}

static sec_outcome *outcome(sec_state *s, const char *name)
{
    for (int c = 0; c < s->nchecks; c++)
        if (!strcmp(s->out[c].check->name, name))
            return &s->out[c];
    return NULL;
}

void sec_bounds_explain(sec_state *s)
{
    sec_outcome *b = outcome(s, "input_bounds"), *st = outcome(s, "stale_state");
    if (!b || !st || b->verdict != NGCC_OVERFLOW || st->verdict != NGCC_CRYPTOFAIL)
        return;
    /* stale_state's short cases (sec_stale.c's words) read past the declared
     * length: what they read is the over-read's, not uninitialised state */
    if (!strstr(st->detail, "empty ") && !strstr(st->detail, "truncated to 1 byte") &&
        !strstr(st->detail, "last byte cut"))
        return;
    char was[sizeof st->detail];
    snprintf(was, sizeof was, "%s", st->detail);
    snprintf(st->detail, sizeof st->detail, "explained by the out-of-bounds read (input_bounds): %.800s", was);
    st->verdict = NGCC_OVERFLOW;
}
