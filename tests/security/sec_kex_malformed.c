/* ngcc-security: malformed_input for KEX. Record 0's honest session is run
 * once (the official call order, sec_kex_trace.c); then every call that
 * takes a peer message (passes 2 and 3, both derives) is repeated with that
 * message malformed, and pass 1 and 2 with the peer's public key malformed,
 * each input in a child of its own from the honest state before that call:
 * all-0x00 and all-0xFF of the honest length, empty, the last byte cut, a
 * zero byte appended (keys: all-0x00 and all-0xFF).
 *
 * The message is passed as it is (sec_call_kex_direct), its last byte the
 * last readable one before an unreadable page: a read past the declared
 * length is a fault there, OVERFLOW naming the call, the input and how far
 * past it read (inventory kex-01-3, kex-04-2: incoming lengths ignored
 * before fixed-size reads). A crash or abort is CRASH naming the call and
 * the input (kex-08-4 and the honest parties that die on a malformed peer
 * key); under ASan/UBSan the report's verdict. A hang is the check's
 * TIMEOUT, named by the call in progress. A wrong length accepted (the call
 * returned 0 or 1) is a FINDING. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sec_check.h"
#include "sec_kex_trace.h"
#include "sec_state.h"

enum { ALL_00, ALL_FF, EMPTY, CUT_LAST, APPEND_ZERO, NKINDS };

typedef struct {
    int done, rc;
    long overread; /* > 0: the first byte read past the declared length, + 1 */
} kmal_out;

/* one malformed input: call (KEX_CALL_*), pass k for passes, peer key or message, kind */
typedef struct {
    int call, key, kind;
    char api[40], input[160];
} kmal_case;

static struct {
    unsigned char *lo, *hi; /* the unreadable page */
    const unsigned char *msg;
    kmal_out *out;
} G;

/* in the input's child: a fault in the unreadable page is an over-read */
static void guard_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    unsigned char *a = si->si_addr;
    if (a >= G.lo && a < G.hi) {
        G.out->overread = (long)(a - G.lo) + 1;
        _exit(0);
    }
    signal(sig, SIG_DFL); /* another fault: a crash of its own */
    raise(sig);
}

static void name_case(kmal_case *c, const char *what, ull len)
{
    switch (c->kind) {
    case ALL_00:
        snprintf(c->input, sizeof c->input, "an all-zero %s of %llu bytes", what, len);
        break;
    case ALL_FF:
        snprintf(c->input, sizeof c->input, "an all-0xFF %s of %llu bytes", what, len);
        break;
    case EMPTY:
        snprintf(c->input, sizeof c->input, "an empty %s (length 0)", what);
        break;
    case CUT_LAST:
        snprintf(c->input, sizeof c->input, "%s with its last byte cut (length %llu)", what, len - 1);
        break;
    default:
        snprintf(c->input, sizeof c->input, "%s with a zero byte appended (length %llu)", what, len + 1);
    }
}

static ull kind_len(int kind, ull len)
{
    return kind == EMPTY ? 0 : kind == CUT_LAST ? len - 1 : kind == APPEND_ZERO ? len + 1 : len;
}

/* the malformed bytes of kind from the honest ones (room for len + 1) */
static void malform(int kind, unsigned char *p, const unsigned char *honest, ull len)
{
    memcpy(p, honest, (size_t)len);
    p[len] = 0;
    if (kind == ALL_00 || kind == ALL_FF)
        memset(p, kind == ALL_00 ? 0x00 : 0xFF, (size_t)len);
}

/* runs in the input's child: the one call, with the message at the page's end */
static void call_case(sec_job *j, const sec_kex_trace *t, const kmal_case *c, unsigned char *page_end, kmal_out *o)
{
    char what[300];
    snprintf(what, sizeof what, "record 0, malformed: %s", c->input);
    int k = c->call; /* 1..SEC_KEX_MAXP passes, then SEC_KEX_DERIVE_A, SEC_KEX_DERIVE_B */
    int side = k <= SEC_KEX_MAXP ? k % 2 == 0 : k == SEC_KEX_DERIVE_B;
    ull in_len = 0, pk_len = t->pk_len[!side];
    const unsigned char *in_honest = NULL;
    unsigned char *pk = malloc((size_t)pk_len + 1), *in = NULL;
    memcpy(pk, t->pk[!side], (size_t)pk_len);
    if (k >= 2 && k <= SEC_KEX_MAXP)
        in_honest = t->m[k - 1], in_len = t->m_len[k - 1];
    else if (k == SEC_KEX_DERIVE_A && t->last_b)
        in_honest = t->m[t->last_b], in_len = t->m_len[t->last_b];
    else if (k == SEC_KEX_DERIVE_B)
        in_honest = t->m[t->last_a], in_len = t->m_len[t->last_a];
    if (c->key) {
        if (c->kind == ALL_00 || c->kind == ALL_FF)
            memset(pk, c->kind == ALL_00 ? 0x00 : 0xFF, (size_t)pk_len);
        if (in_honest) {
            in = malloc((size_t)in_len + 1);
            memcpy(in, in_honest, (size_t)in_len);
        }
    } else {
        ull n = kind_len(c->kind, in_len);
        in = page_end - n; /* its last byte the last readable one */
        unsigned char *tmp = malloc((size_t)in_len + 2);
        malform(c->kind, tmp, in_honest, in_len);
        memcpy(in, tmp, (size_t)n);
        free(tmp);
        in_len = n;
        sec_call_kex_direct(1);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = guard_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    const sec_claims *cl = &j->claims;
    unsigned char *st = calloc(1, (size_t)(cl->sta > cl->stb ? cl->sta : cl->stb) + 1);
    unsigned char *out = calloc(1, (size_t)(cl->msg > cl->ss ? cl->msg : cl->ss) + 1);
    ull out_len = 0;
    o->rc = sec_kex_trace_repeat(t, k, what, pk, pk_len, in, in_len, st, out, &out_len);
    o->done = 1;
}

/* one input in a child of its own; its outcome into the check's result */
static void run_case(sec_job *j, const sec_kex_trace *t, const kmal_case *c, unsigned char *page_end, kmal_out *o,
                     unsigned long *errors, unsigned long *accepted)
{
    memset(o, 0, sizeof *o);
    int fd = memfd_create("ngcc-kex-malformed", 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        G.out = o;
        call_case(j, t, c, page_end, o);
        fflush(NULL);
        _exit(0);
    }
    int st = 0;
    char ended[300] = "";
    ngcc_verdict v = NGCC_CRASH;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        snprintf(ended, sizeof ended, "could not be tried (no child process)");
    else if (WIFSIGNALED(st))
        snprintf(ended, sizeof ended, "crashed (%s, signal %d)",
                 sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?", WTERMSIG(st));
    else if (!o->done && !o->overread)
        snprintf(ended, sizeof ended, "ended the process (exit code %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    char *text = sec_child_take_output(fd);
    sec_memerr me;
    if (ended[0] && j->opt->sanitizer && text && sec_memerr_sanitizer_text(text, &me) == 1) {
        v = me.verdict;
        snprintf(ended, sizeof ended, "%.*s", (int)sizeof ended - 1, me.summary);
        sec_memerr_free(&me);
        sec_fail_as(j, v, "%s on %s (%s at record 0)", ended, c->input, c->api);
    } else if (ended[0]) {
        sec_fail_as(j, v, "%s %s on %s (record 0)", c->api, ended, c->input);
    } else if (o->overread) {
        sec_fail_as(j, NGCC_OVERFLOW,
                    "%s read past the end of %s: %ld byte(s) past the declared length (the message ended at an "
                    "unreadable page; record 0)",
                    c->api, c->input, o->overread);
    } else if (!c->key && (c->kind == EMPTY || c->kind == CUT_LAST || c->kind == APPEND_ZERO) && o->rc >= 0) {
        sec_finding(j, "%s returned %d for %s at record 0: the declared length is not checked", c->api, o->rc,
                    c->input);
    }
    free(text);
    if (fd >= 0)
        close(fd);
    *errors += o->done && o->rc < 0;
    *accepted += o->done && o->rc >= 0;
}

void sec_kex_malformed_input(sec_job *j)
{
    sec_kex_trace t;
    sec_kex_trace_run(&j->claims, &t, j->plan->key_seed[0], "record 0");
    if (t.passes == 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "record 0's honest session did not get past pass 1: %.400s",
                 t.error);
        sec_kex_trace_free(&t);
        return;
    }
    long page = sysconf(_SC_PAGESIZE);
    size_t span = ((size_t)j->claims.msg + 2 + (size_t)page - 1) / (size_t)page * (size_t)page;
    unsigned char *base = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    kmal_out *o = mmap(NULL, sizeof *o, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || o == MAP_FAILED || mprotect(base + span, (size_t)page, PROT_NONE)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map a guard page");
        sec_kex_trace_free(&t);
        return;
    }
    G.lo = base + span;
    G.hi = base + span + page;
    unsigned long errors = 0, accepted = 0;
    for (int call = 1; call <= SEC_KEX_DERIVE_B; call++) {
        if (t.rc[call] < 0)
            continue; /* its honest call failed or was not made: nothing to compare with */
        int side = call <= SEC_KEX_MAXP ? call % 2 == 0 : call == SEC_KEX_DERIVE_B;
        int in_pass = call <= SEC_KEX_MAXP       ? call - 1
                      : call == SEC_KEX_DERIVE_A ? t.last_b
                                                 : t.last_a; /* the peer message's pass, 0: none */
        for (int key = 0; key < 2; key++) {
            if ((key && call > 2) || (!key && in_pass == 0))
                continue; /* peer keys: passes 1 and 2; messages: calls that take one */
            ull len = key ? t.pk_len[!side] : t.m_len[in_pass];
            for (int kind = 0; kind < NKINDS; kind++) {
                if ((key && kind > ALL_FF) || (kind == CUT_LAST && len < 2))
                    continue;
                kmal_case c = {call, key, kind, "", ""};
                char what[80];
                snprintf(c.api, sizeof c.api, "%s",
                         call <= SEC_KEX_MAXP       ? ngcc_kex_pass_symbol(call)
                         : call == SEC_KEX_DERIVE_A ? "kex_derive_ss_a"
                                                    : "kex_derive_ss_b");
                if (key)
                    snprintf(what, sizeof what, "%s (the peer's public key)", side ? "pka" : "pkb");
                else
                    snprintf(what, sizeof what, "%s", ngcc_kex_msg_name(in_pass));
                name_case(&c, what, len);
                j->res->tried++;
                run_case(j, &t, &c, base + span, o, &errors, &accepted);
            }
        }
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu malformed peer messages and keys (all-0x00, all-0xFF, empty, last byte cut, a byte appended; "
             "messages before an unreadable page) to passes 2..%d and the derives that succeeded, keys to passes 1 and "
             "2: %lu "
             "error returns, %lu accepted, no crash or read past a declared length",
             j->res->tried, t.passes, errors, accepted);
    munmap(o, sizeof *o);
    munmap(base, span + (size_t)page);
    sec_kex_trace_free(&t);
}
