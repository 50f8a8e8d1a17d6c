/* ngcc-security: stale_state for KEX. Record 0's honest session is run once
 * (sec_kex_trace); then every pass and derive that takes a peer message is
 * called again from the honest state before it, with the honest message, a
 * bit flipped, an empty and an all-0xFF message, and with an all-0xFF peer
 * public key, in two separate children with the stack below the call and
 * fresh heap blocks pre-filled with 0x00, then 0xA5 (sec_call_stale), and a
 * third child with 0x00 again as the control. A return code or output (the
 * message or the shared secret) that differs between the patterns but not
 * under the same one was read from memory the call never initialised:
 * CRYPTOFAIL naming the call and the case, as for SIG/KEM (sec_stale.c). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sec_check.h"
#include "sec_kex_trace.h"

#define KSTALE_MAX (5 * (SEC_KEX_MAXP + 1)) /* NKINDS inputs to each pass from 2 and each derive */
#define KSTALE_OUT 64                       /* output bytes compared */

enum { HONEST, FLIP, EMPTY, ALL_FF, KEY_FF, NKINDS };

typedef struct {
    int done, rc;
    ull out_len;
    unsigned char out[KSTALE_OUT];
} kstale_out;

typedef struct {
    int n;
    int call[KSTALE_MAX], kind[KSTALE_MAX];
    char what[KSTALE_MAX][160];
    kstale_out out[3][KSTALE_MAX]; /* pattern 1, pattern 2, pattern 1 again (the control) */
} kstale_shared;

/* the API function of call c (sec_kex_trace.h numbering) */
static const char *api_of(int c)
{
    return c <= SEC_KEX_MAXP ? ngcc_kex_pass_symbol(c) : c == SEC_KEX_DERIVE_A ? "kex_derive_ss_a" : "kex_derive_ss_b";
}

/* the pass whose message call c takes (0: none) */
static int peer_pass(const sec_kex_trace *t, int c)
{
    return c <= SEC_KEX_MAXP ? (c <= t->passes ? c - 1 : 0) : c == SEC_KEX_DERIVE_A ? t->last_b : t->last_a;
}

static void run_case(const sec_job *j, const sec_kex_trace *t, int c, int kind, const char *what, kstale_out *o)
{
    const sec_claims *cl = &j->claims;
    int side = c <= SEC_KEX_MAXP ? c % 2 == 0 : c == SEC_KEX_DERIVE_B, from = peer_pass(t, c);
    ull len = t->m_len[from], pk_len = t->pk_len[!side];
    unsigned char *in = malloc((size_t)len + 1), *pk = malloc((size_t)pk_len + 1);
    unsigned char *st = calloc(1, (size_t)(cl->sta > cl->stb ? cl->sta : cl->stb) + 1);
    unsigned char *out = calloc(1, (size_t)(cl->msg > cl->ss ? cl->msg : cl->ss) + 1);
    memcpy(in, t->m[from], (size_t)len);
    memcpy(pk, t->pk[!side], (size_t)pk_len);
    if (kind == FLIP)
        in[0] ^= 0x80;
    else if (kind == EMPTY)
        len = 0;
    else if (kind == ALL_FF)
        memset(in, 0xFF, (size_t)len);
    else if (kind == KEY_FF)
        memset(pk, 0xFF, (size_t)pk_len);
    ull out_len = 0;
    o->rc = sec_kex_trace_repeat(t, c, what, pk, pk_len, in, len, st, out, &out_len);
    o->out_len = o->rc >= 0 ? out_len : 0; /* an error's output is not compared */
    memcpy(o->out, out, (size_t)(o->out_len < KSTALE_OUT ? o->out_len : KSTALE_OUT));
    o->done = 1;
    free(in);
    free(pk);
    free(st);
    free(out);
}

static void run_pattern(const sec_job *j, const sec_kex_trace *t, kstale_shared *sh, int run)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        sec_call_stale(run == 1 ? 2 : 1);
        for (int k = 0; k < sh->n; k++)
            run_case(j, t, sh->call[k], sh->kind[k], sh->what[k], &sh->out[run][k]);
        sec_call_stale(0);
        fflush(NULL);
        _exit(0);
    }
    int st;
    if (pid > 0)
        waitpid(pid, &st, 0);
}

static int same(const kstale_out *a, const kstale_out *b)
{
    if (a->done != b->done)
        return 0;
    if (!a->done)
        return 1;
    ull n = a->out_len < KSTALE_OUT ? a->out_len : KSTALE_OUT;
    return a->rc == b->rc && a->out_len == b->out_len && memcmp(a->out, b->out, (size_t)n) == 0;
}

static void describe(const kstale_out *o, char *out, size_t cap)
{
    if (!o->done) {
        snprintf(out, cap, "crashed");
        return;
    }
    int l = snprintf(out, cap, o->rc >= 0 ? "returned %d, output " : "returned %d", o->rc);
    if (o->rc < 0)
        return;
    for (ull i = 0; i < o->out_len && i < 8 && l > 0 && (size_t)l + 3 < cap; i++)
        l += snprintf(out + l, cap - (size_t)l, "%02x", o->out[i]);
    if (o->out_len == 0 && l > 0 && (size_t)l + 8 < cap)
        snprintf(out + l, cap - (size_t)l, "(empty)");
}

void sec_kex_stale_state(sec_job *j)
{
    static const char *const kind_name[NKINDS] = {"the honest %s", "%s with bit 0 flipped", "an empty %s",
                                                  "an all-0xFF %s", "an all-0xFF %s (the peer's public key)"};
    sec_kex_trace t;
    sec_kex_trace_run(&j->claims, &t, j->plan->key_seed[0], "record 0");
    if (t.passes == 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "record 0's honest session did not get past pass 1: %.400s",
                 t.error);
        sec_kex_trace_free(&t);
        return;
    }
    kstale_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map shared memory for the pattern children");
        sec_kex_trace_free(&t);
        return;
    }
    memset(sh, 0, sizeof *sh);
    for (int c = 2; c <= SEC_KEX_DERIVE_B; c++) {
        int from = peer_pass(&t, c), side = c <= SEC_KEX_MAXP ? c % 2 == 0 : c == SEC_KEX_DERIVE_B;
        if (!from || t.rc[c] < 0)
            continue; /* no message, or its honest call failed */
        for (int k = 0; k < NKINDS && sh->n < KSTALE_MAX; k++) {
            char input[80];
            snprintf(input, sizeof input, kind_name[k], k == KEY_FF ? (side ? "pka" : "pkb") : ngcc_kex_msg_name(from));
            sh->call[sh->n] = c;
            sh->kind[sh->n] = k;
            snprintf(sh->what[sh->n], sizeof sh->what[sh->n], "record 0, %s given %s", api_of(c), input);
            sh->n++;
        }
    }
    for (int run = 0; run < 3; run++)
        run_pattern(j, &t, sh, run);
    unsigned long unsteady = 0;
    for (int k = 0; k < sh->n; k++) {
        const kstale_out *o1 = &sh->out[0][k], *o2 = &sh->out[1][k];
        j->res->tried++;
        if (same(o1, o2))
            continue;
        if (!same(o1, &sh->out[2][k])) { /* differs under the same pattern too: not the memory's */
            unsteady++;
            continue;
        }
        char a[160], b[160];
        describe(o1, a, sizeof a);
        describe(o2, b, sizeof b);
        sec_fail(j,
                 "%s's result depends on uninitialised memory: at %s it %s with stack and fresh heap pre-filled with "
                 "0x00, %s with 0xA5",
                 api_of(sh->call[k]), sh->what[k], a, b);
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu calls of passes 2..%d and the derives that succeeded (honest, flipped, empty and all-0xFF peer "
             "messages, all-0xFF "
             "peer keys) gave the same return code and output with stack and fresh heap pre-filled with 0x00 and "
             "with 0xA5, in separate children%s",
             j->res->tried - unsteady, t.passes,
             unsteady ? "; cases that differ under one pattern too (not repeatable) not judged" : "");
    munmap(sh, sizeof *sh);
    sec_kex_trace_free(&t);
}
