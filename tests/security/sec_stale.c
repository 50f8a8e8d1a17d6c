/* ngcc-security: stale_state. One case of every negative class of verify
 * (SIG) or dec (KEM) runs in two separate children, one with the stack below
 * the call and fresh heap blocks pre-filled with 0x00, one with 0xA5
 * (sec_call_stale), and a third child with 0x00 again as the control. Each
 * child runs the cases from the same state, so a return code (or, KEM, an
 * output key) that differs between the patterns but not under the same one
 * was read from memory the call never initialised: CRYPTOFAIL "verdict depends
 * on uninitialised memory" naming the case. A case that crashes in both
 * children is left to the other checks; in one only, it is this check's. */
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

#define STALE_CASES 12
#define STALE_SS 64 /* output key bytes compared (KEM) */

typedef struct {
    int done, rc;
    ull ss_len;
    unsigned char ss[STALE_SS];
} stale_out;

typedef struct {
    int n;
    char what[STALE_CASES][120];
    stale_out out[3][STALE_CASES]; /* pattern 1, pattern 2, pattern 1 again (the control) */
} stale_shared;

typedef struct {
    const unsigned char *key; /* pk (SIG) or sk (KEM) */
    ull key_len;
    const unsigned char *in; /* signature or ciphertext */
    ull in_len;
    const unsigned char *m; /* SIG */
    ull m_len;
    const unsigned char *other_key; /* another record's key, or NULL */
    ull other_len;
} stale_base;

/* the first item that was made, with its key; 0 if none */
static int base_of(const sec_job *j, stale_base *b, int *item)
{
    const sec_material *m = j->mat;
    for (int i = 0; i < j->plan->nitems; i++) {
        if (!m->item_ok[i] || m->out_len[i] == 0)
            continue;
        const sec_item *it = &j->plan->item[i];
        int other = (it->key + 1) % j->plan->nkeys;
        int kem = j->plan->is_kem;
        memset(b, 0, sizeof *b);
        b->key = kem ? m->sk[it->key] : m->pk[it->key];
        b->key_len = kem ? m->sk_len[it->key] : m->pk_len[it->key];
        b->in = m->out[i];
        b->in_len = m->out_len[i];
        b->m = it->m;
        b->m_len = it->mlen;
        if (other != it->key && m->key_ok[other]) {
            b->other_key = kem ? m->sk[other] : m->pk[other];
            b->other_len = kem ? m->sk_len[other] : m->pk_len[other];
        }
        *item = i;
        return 1;
    }
    return 0;
}

enum { FLIP_FIRST, FLIP_LAST, OTHER_KEY, EMPTY, ONE_BYTE, CUT_LAST, APPEND_ZERO, ALL_00, ALL_FF, MSG_FLIP, NKINDS };

/* the negative cases, one per class: kinds[k] and the case's words */
static int case_list(int kem, const stale_base *b, int *kinds, char (*what)[120], const char *label)
{
    const char *in = kem ? "ciphertext" : "signature";
    int n = 0;
#define ADD(kind, ...)                                                                                                 \
    do {                                                                                                               \
        kinds[n] = (kind);                                                                                             \
        snprintf(what[n], sizeof what[n], __VA_ARGS__);                                                                \
        n++;                                                                                                           \
    } while (0)
    if (!kem)
        ADD(MSG_FLIP, "%s, modified message (bit 0 flipped)", label);
    ADD(FLIP_FIRST, "%s, %s bit 0 flipped", label, in);
    ADD(FLIP_LAST, "%s, %s's last bit flipped", label, in);
    if (b->other_key)
        ADD(OTHER_KEY, "%s, %s key of another record", label, kem ? "secret" : "public");
    ADD(EMPTY, "%s, empty %s", label, in);
    ADD(ONE_BYTE, "%s, %s truncated to 1 byte", label, in);
    if (b->in_len > 2)
        ADD(CUT_LAST, "%s, %s with its last byte cut", label, in);
    ADD(APPEND_ZERO, "%s, %s with one zero byte appended", label, in);
    ADD(ALL_00, "%s, all-0x00 %s of %llu bytes", label, in, b->in_len);
    ADD(ALL_FF, "%s, all-0xFF %s of %llu bytes", label, in, b->in_len);
#undef ADD
    return n;
}

static void run_case(int kem, const stale_base *b, int kind, const char *what, stale_out *o, ull ss_cap)
{
    ull len = b->in_len, key_len = b->key_len, m_len = b->m_len;
    const unsigned char *key = b->key;
    unsigned char *in = malloc(len + 2), *m = malloc(m_len + 1);
    memcpy(in, b->in, len);
    in[len] = 0;
    if (m_len)
        memcpy(m, b->m, m_len);
    switch (kind) {
    case FLIP_FIRST:
        in[0] ^= 0x80;
        break;
    case FLIP_LAST:
        in[len - 1] ^= 0x01;
        break;
    case OTHER_KEY:
        key = b->other_key, key_len = b->other_len;
        break;
    case EMPTY:
        len = 0;
        break;
    case ONE_BYTE:
        len = 1;
        break;
    case CUT_LAST:
        len--;
        break;
    case APPEND_ZERO:
        len++;
        break;
    case ALL_00:
    case ALL_FF:
        memset(in, kind == ALL_00 ? 0x00 : 0xFF, len);
        break;
    case MSG_FLIP:
        if (m_len)
            m[0] ^= 0x80;
        else
            m_len = 1, m[0] = 0;
        break;
    }
    if (kem) {
        unsigned char *ss = calloc(1, (size_t)ss_cap + 1);
        ull ss_len = 0;
        o->rc = sec_dec(what, key, key_len, in, len, ss, &ss_len);
        o->ss_len = ss_len;
        memcpy(o->ss, ss, ss_len < STALE_SS ? (size_t)ss_len : STALE_SS);
        free(ss);
    } else {
        o->rc = sec_verify(what, key, key_len, in, len, m, m_len);
    }
    o->done = 1;
    free(in);
    free(m);
}

/* the child of one pattern: every case, from the check child's state */
static void pattern_child(sec_job *j, const stale_base *b, const int *kinds, stale_shared *sh, int run)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    sec_call_stale(run == 1 ? 2 : 1);
    for (int k = 0; k < sh->n; k++)
        run_case(j->plan->is_kem, b, kinds[k], sh->what[k], &sh->out[run][k], j->claims.ss);
    sec_call_stale(0);
    fflush(NULL);
    _exit(0);
}

/* how a pattern child ended: "" when it finished, else the signal */
static void run_pattern(sec_job *j, const stale_base *b, const int *kinds, stale_shared *sh, int run, char *ended,
                        size_t cap)
{
    ended[0] = 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        pattern_child(j, b, kinds, sh, run);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        snprintf(ended, cap, "could not start pattern child %d", run);
    else if (WIFSIGNALED(st))
        snprintf(ended, cap, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        snprintf(ended, cap, "exited with code %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static void describe(const stale_out *o, int kem, char *out, size_t cap)
{
    if (!o->done) {
        snprintf(out, cap, "crashed");
        return;
    }
    int l = snprintf(out, cap, "returned %d", o->rc);
    if (kem && l > 0 && (size_t)l < cap) {
        l += snprintf(out + l, cap - (size_t)l, ", key ");
        for (ull i = 0; i < o->ss_len && i < 8 && (size_t)l + 3 < cap; i++)
            l += snprintf(out + l, cap - (size_t)l, "%02x", o->ss[i]);
        if (o->ss_len > 8 && (size_t)l + 4 < cap)
            snprintf(out + l, cap - (size_t)l, "...");
    }
}

static int same(const stale_out *a, const stale_out *b, int kem)
{
    if (a->done != b->done)
        return 0;
    if (!a->done)
        return 1;
    if (a->rc != b->rc)
        return 0;
    if (!kem)
        return 1;
    ull n = a->ss_len < STALE_SS ? a->ss_len : STALE_SS;
    return a->ss_len == b->ss_len && memcmp(a->ss, b->ss, (size_t)n) == 0;
}

void sec_stale_state(sec_job *j)
{
    stale_base b;
    int item, kinds[STALE_CASES], kem = j->plan->is_kem;
    const char *api = kem ? "kem_dec" : "sig_verify";
    if (!base_of(j, &b, &item)) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no %s was made to derive negative cases from",
                 kem ? "ciphertext" : "signature");
        return;
    }
    stale_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map shared memory for the pattern children");
        return;
    }
    memset(sh, 0, sizeof *sh);
    sh->n = case_list(kem, &b, kinds, sh->what, j->plan->item[item].label);
    char ended[3][120], a[160], c[160];
    for (int run = 0; run < 3; run++)
        run_pattern(j, &b, kinds, sh, run, ended[run], sizeof ended[run]);
    int both_crashed = -1;
    unsigned long unsteady = 0;
    for (int k = 0; k < sh->n; k++) {
        const stale_out *o1 = &sh->out[0][k], *o2 = &sh->out[1][k];
        j->res->tried++;
        if (!o1->done && !o2->done) { /* the same crash in both: not a matter of the patterns */
            both_crashed = k;
            break;
        }
        if (same(o1, o2, kem))
            continue;
        if (!same(o1, &sh->out[2][k], kem)) { /* differs under the same pattern too: not the memory's */
            unsteady++;
            continue;
        }
        describe(o1, kem, a, sizeof a);
        describe(o2, kem, c, sizeof c);
        sec_fail(j,
                 "%s's verdict depends on uninitialised memory: at %s it %s with stack and fresh heap pre-filled "
                 "with 0x00, %s with 0xA5",
                 api, sh->what[k], a, c);
        if (!o1->done || !o2->done)
            break; /* the rest was not run in one of the children */
    }
    if (both_crashed >= 0)
        snprintf(j->res->note, sizeof j->res->note,
                 "%lu negative cases gave the same verdict under both fill patterns; %s crashed at %s under "
                 "both (%s), the remaining %d not compared",
                 j->res->tried - 1 - unsteady, api, sh->what[both_crashed], ended[0], sh->n - both_crashed - 1);
    else
        snprintf(j->res->note, sizeof j->res->note,
                 "%lu negative cases of %s (one per class) gave the same %s with stack and fresh heap pre-filled "
                 "with 0x00 and with 0xA5, in separate children%s",
                 j->res->tried - unsteady, api, kem ? "return code and key" : "return code",
                 unsteady ? "; cases whose result differs under one pattern too (not repeatable: see determinism) "
                            "not judged"
                          : "");
    munmap(sh, sizeof *sh);
}
