/* ngcc-security: malformed_input. verify (SIG) or dec (KEM) gets malformed
 * signatures/ciphertexts, each in a child of its own so that every input is
 * tried and a crash names its input: all-0x00 and all-0xFF of the made
 * length, lengths 0, 1, len-1, len+1 and a huge one.
 *
 * The fairness rule: every length passed has a real buffer of that many
 * bytes behind it (a length larger than the buffer is a harness bug, not
 * the candidate's), so "huge" is the valid signature/ciphertext followed by
 * SEC_HUGE_EXTRA zero bytes, all of them readable.
 *
 * Verdicts: a crash or an early exit of the process is CRASH naming the
 * input (under ASan/UBSan: the report's verdict and first line, from the
 * input child's output, which a memory file keeps apart); an allocation the input made the candidate ask for that no
 * instance needs (>= SEC_ABSURD_ALLOC bytes, reported by the instance's
 * allocation wrappers) is named with its size, and is that input's failure,
 * never MEMLIMIT (sec_run.c). Such an allocation that the candidate
 * survived, and a KEM's kem_dec returning 0 for a wrong ciphertext length,
 * are FINDINGs. Whether a malformed signature is accepted is judged by the
 * forgery and malleability checks (zero_ff, truncated, extended). */
#define _GNU_SOURCE
#include <math.h>
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
#include "sec_state.h"

#define SEC_HUGE_EXTRA (1024ULL * 1024ULL)

typedef struct {
    int done, rc;
} mal_out;

enum { ALL_00, ALL_FF, EMPTY, ONE_BYTE, CUT_LAST, APPEND_ZERO, HUGE, NKINDS };

/* the words naming input k of a made input of len bytes */
static void name_input(int kem, int k, ull len, char *out, size_t cap)
{
    const char *in = kem ? "ciphertext" : "signature";
    switch (k) {
    case ALL_00:
        snprintf(out, cap, "an all-zero %s of %llu bytes", in, len);
        break;
    case ALL_FF:
        snprintf(out, cap, "an all-0xFF %s of %llu bytes", in, len);
        break;
    case EMPTY:
        snprintf(out, cap, "an empty %s (length 0)", in);
        break;
    case ONE_BYTE:
        snprintf(out, cap, "a one-byte %s", in);
        break;
    case CUT_LAST:
        snprintf(out, cap, "a %s of %llu bytes (its last byte cut)", in, len - 1);
        break;
    case APPEND_ZERO:
        snprintf(out, cap, "a %s of %llu bytes (a zero byte appended)", in, len + 1);
        break;
    default:
        snprintf(out, cap, "a %s of %llu bytes (%llu zero bytes appended)", in, len + SEC_HUGE_EXTRA, SEC_HUGE_EXTRA);
    }
}

static ull input_len(int k, ull len)
{
    return k == EMPTY         ? 0
           : k == ONE_BYTE    ? 1
           : k == CUT_LAST    ? len - 1
           : k == APPEND_ZERO ? len + 1
           : k == HUGE        ? len + SEC_HUGE_EXTRA
                              : len;
}

static void call(const sec_job *j, int item, int k, const char *what, mal_out *o)
{
    const sec_material *m = j->mat;
    const sec_item *it = &j->plan->item[item];
    ull len = m->out_len[item], n = input_len(k, len);
    unsigned char *in = calloc(1, (size_t)(n > len ? n : len) + 1);
    if (!in)
        _exit(3);
    if (k == ALL_00 || k == ALL_FF)
        memset(in, k == ALL_00 ? 0x00 : 0xFF, (size_t)len);
    else
        memcpy(in, m->out[item], (size_t)len);
    if (j->plan->is_kem) {
        unsigned char *ss = malloc((size_t)j->claims.ss + 1);
        ull ss_len = 0;
        o->rc = sec_dec(what, m->sk[it->key], m->sk_len[it->key], in, n, ss, &ss_len);
        free(ss);
    } else {
        o->rc = sec_verify(what, m->pk[it->key], m->pk_len[it->key], in, n, it->m, it->mlen);
    }
    o->done = 1;
    free(in);
}

/* the instance's allocation-failure reports (ngcc_child.c's watch file)
 * since byte from: how many and the largest request */
static unsigned long watch_allocs(off_t from, unsigned long long *largest, off_t *end)
{
    const char *e = getenv("NGCC_ALLOC_WATCH_FD");
    int fd = e && *e ? atoi(e) : -1;
    struct stat st;
    unsigned long n = 0;
    *largest = 0;
    *end = from;
    if (fd < 0 || fstat(fd, &st) != 0)
        return 0;
    *end = st.st_size;
    if (st.st_size <= from)
        return 0;
    size_t len = (size_t)(st.st_size - from);
    char *buf = malloc(len + 1);
    ssize_t got = buf ? pread(fd, buf, len, from) : -1;
    if (got > 0) {
        buf[got] = 0;
        for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            char fn[32];
            unsigned long long bytes;
            if (sscanf(l, "alloc %31s %llu", fn, &bytes) == 2) {
                n++;
                *largest = bytes > *largest ? bytes : *largest;
            }
        }
    }
    free(buf);
    return n;
}

/* how the input's child ended: "" if it returned; *v its verdict then */
static void run_input(const sec_job *j, int item, int k, const char *what, mal_out *o, char *ended, size_t cap,
                      ngcc_verdict *v)
{
    ended[0] = 0;
    *v = NGCC_CRASH;
    int out = memfd_create("ngcc-malformed-input", 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        call(j, item, k, what, o);
        fflush(NULL);
        _exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        snprintf(ended, cap, "could not be tried (no child process)");
    else if (WIFSIGNALED(st))
        snprintf(ended, cap, "crashed (%s, signal %d)", sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?",
                 WTERMSIG(st));
    else if (!o->done)
        snprintf(ended, cap, "ended the process (exit code %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    char *text = sec_child_take_output(out);
    sec_memerr me;
    if (ended[0] && j->opt->sanitizer && text && sec_memerr_sanitizer_fatal(text, &me) == 1) { /* the report names it */
        *v = me.verdict;
        snprintf(ended, cap, "%.*s", (int)cap - 1, me.summary);
        sec_memerr_free(&me);
    }
    free(text);
    if (out >= 0)
        close(out);
}

void sec_malformed_input(sec_job *j)
{
    const sec_material *m = j->mat;
    int kem = j->plan->is_kem, item = -1;
    const char *api = kem ? "kem_dec" : "sig_verify";
    for (int i = 0; i < j->plan->nitems && item < 0; i++)
        if (m->item_ok[i] && m->out_len[i] > 0)
            item = i;
    if (item < 0) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "no %s was made to derive malformed inputs from",
                 kem ? "ciphertext" : "signature");
        return;
    }
    mal_out *out = mmap(NULL, sizeof(mal_out) * NKINDS, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (out == MAP_FAILED) {
        j->res->notrun = 1;
        snprintf(j->res->note, sizeof j->res->note, "cannot map shared memory for the input children");
        return;
    }
    memset(out, 0, sizeof(mal_out) * NKINDS);
    const char *label = j->plan->item[item].label;
    ull len = m->out_len[item];
    unsigned long errors = 0, accepted = 0;
    off_t mark = 0, end;
    unsigned long long ignored;
    watch_allocs(0, &ignored, &mark); /* reports before this check are not its inputs' */
    for (int k = 0; k < NKINDS; k++) {
        if (k == CUT_LAST && len < 3)
            continue; /* the same as a one-byte or empty input */
        char input[160], what[240], ended[300], alloc[160] = "";
        ngcc_verdict v;
        name_input(kem, k, len, input, sizeof input);
        snprintf(what, sizeof what, "%s, malformed: %s", label, input);
        j->res->tried++;
        run_input(j, item, k, what, &out[k], ended, sizeof ended, &v);
        unsigned long long largest;
        unsigned long nalloc = watch_allocs(mark, &largest, &end);
        mark = end;
        if (nalloc && largest >= SEC_ABSURD_ALLOC)
            snprintf(alloc, sizeof alloc, " after asking for %llu bytes (about 2^%.0f; an absurd allocation)", largest,
                     log2((double)largest));
        if (ended[0] && v != NGCC_CRASH)
            sec_fail_as(j, v, "%s on %s at %s%s", ended, input, label, alloc); /* a sanitizer report */
        else if (ended[0])
            sec_fail_as(j, v, "%s %s on %s at %s%s", api, ended, input, label, alloc);
        else if (alloc[0])
            sec_finding(j, "%s returned %d on %s at %s%s", api, out[k].rc, input, label, alloc);
        else if (out[k].rc == 0 && kem && input_len(k, len) != len)
            sec_finding(j, "kem_dec returned 0 for %s at %s (claimed ct length %llu): the length is not checked", input,
                        label, j->claims.ct);
        errors += out[k].done && out[k].rc != 0;
        accepted += out[k].done && out[k].rc == 0;
    }
    snprintf(j->res->note, sizeof j->res->note,
             "%lu malformed %ss (all-0x00, all-0xFF, lengths 0, 1, %llu, %llu, %llu) returned: %lu with an error, "
             "%lu with 0%s",
             j->res->tried, kem ? "ciphertext" : "signature", len - 1, len + 1, len + SEC_HUGE_EXTRA, errors, accepted,
             kem ? " (implicit rejection)" : " (judged by the forgery checks)");
    munmap(out, sizeof(mal_out) * NKINDS);
}
