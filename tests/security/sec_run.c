/* ngcc-security: the parent's steps. Every call into the submission happens
 * in a child; the parent only plans, waits and merges what children found. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "ngcc_child.h"
#include "sec_bounds.h"
#include "sec_child.h"
#include "sec_state.h"

int sec_verdict_rank(ngcc_verdict v)
{
    switch (v) {
    case NGCC_CRYPTOFAIL:
        return 100;
    case NGCC_MALLEABLE:
        return 90;
    case NGCC_OVERFLOW:
        return 80;
    case NGCC_UNDEFINED:
        return 75;
    case NGCC_CRASH:
        return 70;
    case NGCC_TIMEOUT:
        return 69;
    case NGCC_MEMLIMIT:
        return 60;
    default:
        return (int)v; /* the rest, in the enum's order (all below NGCC_VERDICT_COUNT < 60) */
    }
}

/* a failing verdict's rank; -1 for the passing ones (PASS, FINDING) */
static int problem_rank(ngcc_verdict v)
{
    return ngcc_verdict_passing(v) ? -1 : sec_verdict_rank(v);
}

void sec_outcome_add(sec_outcome *o, ngcc_verdict v, const char *detail)
{
    int r = problem_rank(v);
    if (r < 0)
        return;
    o->notrun = 0; /* a problem found is never "not run" */
    if (o->problems++ == 0 || r > problem_rank(o->verdict)) {
        o->verdict = v;
        snprintf(o->detail, sizeof o->detail, "%s", detail);
    }
}

/* the outcome's failing verdict, or PASS (a FINDING passes) */
static ngcc_verdict outcome_verdict(const sec_outcome *o)
{
    return ngcc_verdict_passing(o->verdict) ? NGCC_PASS : o->verdict;
}

/* The MEMLIMIT rule of ngcc_child.h: a problem of a child in which an
 * allocation failed under the memory limit was caused by the limit. */
static void apply_memlimit(sec_outcome *o, const sec_end *end)
{
    if (!end->memlimit || !o->problems)
        return;
    if (end->alloc_fail_bytes >= SEC_ABSURD_ALLOC) { /* no instance needs it: the input's failure */
        size_t l = strlen(o->detail);
        if (!strstr(o->detail, "absurd allocation"))
            snprintf(o->detail + l, sizeof o->detail - l,
                     " (an allocation of %llu bytes failed: an absurd size, not the memory limit's doing)",
                     end->alloc_fail_bytes);
        return;
    }
    char was[sizeof o->detail];
    snprintf(was, sizeof was, "%s", o->detail);
    snprintf(o->detail, sizeof o->detail, "%s (it then looked like %s: %.400s)", end->memlimit_detail,
             ngcc_verdict_name(outcome_verdict(o)), was);
    o->verdict = NGCC_MEMLIMIT;
}

static void child_opts(const sec_state *s, const char *log_name, sec_child_opts *o, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s.log", s->log_dir, log_name);
    o->call_timeout = s->call_timeout;
    o->deadline = s->deadline;
    o->mem_mb = s->opt.mem_mb; /* on top of what is mapped, so ASan's reserved shadow does not count */
    o->log_path = path;
    o->sanitizer = s->opt.sanitizer;
}

/* the first sanitizer report of the run is kept for the test output */
static void keep_report(sec_state *s, sec_end *end)
{
    if (end->memerr.found && !s->report.found) {
        s->report = end->memerr;
        memset(&end->memerr, 0, sizeof end->memerr);
    }
    sec_memerr_free(&end->memerr);
}

static void merge_observations(sec_result *all, const sec_result *r)
{
    sec_issue_merge(&all->buffer, &r->buffer);
    sec_issue_merge(&all->length, &r->length);
    sec_issue_merge(&all->odd_rc, &r->odd_rc);
    sec_rc_merge(&all->rc, &r->rc);
    all->calls_checked += r->calls_checked;
    sec_issue_merge(&all->unwritten, &r->unwritten);
    all->unwritten_checked += r->unwritten_checked;
}

/* ---- probe ---- */

typedef struct {
    const char *lib;
    sec_probe *p;
    sec_result *res;
} probe_job;

static int probe_child(void *arg, int unused_fd)
{
    (void)unused_fd;
    probe_job *pj = arg;
    sec_probe *p = pj->p;
    ngcc_instance in;
    if (ngcc_instance_open(pj->lib, &in, p->error, sizeof p->error) == 0) {
        const ngcc_meta *m = in.meta;
        p->is_kem = in.is_kem;
        p->ntype = (int)in.type;
        p->blank = m->blank;
        snprintf(p->type, sizeof p->type, "%s", m->type);
        snprintf(p->algorithm_instance, sizeof p->algorithm_instance, "%s", m->algorithm_instance);
        snprintf(p->impl_variant, sizeof p->impl_variant, "%s", m->impl_variant);
        snprintf(p->build_variant, sizeof p->build_variant, "%s", m->build_variant);
        snprintf(p->flagset, sizeof p->flagset, "%s", m->flagset);
        snprintf(p->compiler, sizeof p->compiler, "%s", m->compiler);
        snprintf(p->flags, sizeof p->flags, "%s", m->flags);
        snprintf(pj->res->where, sizeof pj->res->where, "the length getters");
        sec_claims_read(&in, &p->claims);
        p->loaded = 1;
    }
    pj->res->finished = 1;
    return 0;
}

int sec_run_probe(sec_state *s)
{
    sec_probe *p = mmap(NULL, sizeof *p, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    sec_result *r = sec_result_map();
    if (p == MAP_FAILED || !r) {
        s->verdict = NGCC_ERROR;
        snprintf(s->detail, sizeof s->detail, "cannot map shared memory");
        return -1;
    }
    memset(p, 0, sizeof *p);
    probe_job pj = {s->opt.lib, p, r};
    sec_child_opts o;
    char path[1100];
    sec_end end;
    child_opts(s, "probe", &o, path, sizeof path);
    sec_child_run(probe_child, &pj, r, &o, &end);
    sec_collect_reports(s, path, "probe", &s->making);
    s->probe = *p;
    snprintf(s->sandbox, sizeof s->sandbox, "%s", end.sandbox);
    s->mem_limit_mb = end.mem_limit_mb;
    munmap(p, sizeof *p);
    sec_result_unmap(r);
    if (end.verdict != NGCC_PASS) {
        s->verdict = end.verdict == NGCC_TIMEOUT ? NGCC_TIMEOUT : NGCC_CRASH;
        snprintf(s->detail, sizeof s->detail, "%s", end.detail);
        keep_report(s, &end);
        return -1;
    }
    if (!s->probe.loaded) {
        s->verdict = NGCC_LOADFAIL;
        snprintf(s->detail, sizeof s->detail, "cannot load the instance library: %s", s->probe.error);
        return -1;
    }
    return 0;
}

/* ---- material ---- */

/* after this many children in a row that failed on their first item, the
 * instance fails every time: the remaining items are left unmade */
#define MATERIAL_GIVE_UP 3

/* the problems of one material child: its failed calls and how it ended */
static void record_making(sec_state *s, const sec_result *r, const sec_end *end)
{
    sec_outcome run = {0};
    if (r->failure.count)
        sec_outcome_add(&run, NGCC_CRYPTOFAIL, r->failure.first);
    sec_outcome_add(&run, end->verdict, end->detail);
    apply_memlimit(&run, end);
    if (!run.problems)
        return;
    sec_outcome_add(&s->making, run.verdict, run.detail);
    s->making.problems += r->failure.count + (end->verdict != NGCC_PASS) - 1; /* each one counts */
}

/* one child making the items from job->start on. Returns 1 if it got to the
 * end; else 0, with the item it failed at, whether no call returned at all
 * and whether a sanitizer report ended it */
static int make_from(sec_state *s, sec_job *job, int *failed_at, int *stuck, int *by_report)
{
    sec_result *r = sec_result_map();
    char name[32], path[1100];
    sec_child_opts o;
    sec_end end;
    snprintf(name, sizeof name, "material-%d", job->start);
    child_opts(s, name, &o, path, sizeof path);
    r->step = job->start;
    job->res = r;
    sec_child_run(sec_material_child, job, r, &o, &end);
    merge_observations(&s->obs, r);
    record_making(s, r, &end);
    sec_collect_reports(s, path, "material", &s->making);
    *failed_at = r->step;
    *stuck = end.verdict != NGCC_PASS && r->progress == 0;
    *by_report = end.memerr.fatal;
    memcpy(s->first_op_seconds, r->op_seconds, sizeof s->first_op_seconds);
    sec_result_unmap(r);
    keep_report(s, &end);
    return end.verdict == NGCC_PASS;
}

/* the budget's fallback: make the first item alone, timing its calls */
int sec_run_time_first(sec_state *s)
{
    sec_job job = {&s->opt, &s->plan, s->mat, s->probe.claims, NULL, NULL, 0, 1, 1};
    int failed_at, stuck, by_report;
    int ok = make_from(s, &job, &failed_at, &stuck, &by_report);
    s->material_from = 1; /* made or left out, as sec_run_material would */
    return ok && s->mat->item_ok[0];
}

void sec_run_material(sec_state *s)
{
    sec_job job = {&s->opt, &s->plan, s->mat, s->probe.claims, NULL, NULL, s->material_from, 0, 0};
    int streak = 0, failed_at, stuck, by_report;
    while (job.start < s->plan.nitems && !make_from(s, &job, &failed_at, &stuck, &by_report)) {
        /* a child an ASan report ended stopped at a reported error, not a
         * hang or crash of its own: the next item is still tried (each one
         * may reach other reports), within the deadline */
        streak = by_report ? 0 : failed_at == job.start ? streak + 1 : 1;
        if (stuck || streak == MATERIAL_GIVE_UP || ngcc_now() > s->deadline) {
            size_t l = strlen(s->making.detail);
            if (failed_at + 1 < s->plan.nitems)
                snprintf(s->making.detail + l, sizeof s->making.detail - l, "; the last %d of %d items were not tried",
                         s->plan.nitems - failed_at - 1, s->plan.nitems);
            return;
        }
        job.start = failed_at + 1; /* left out; the next child goes on */
    }
}

/* ---- checks ---- */

static void judge_run_check(sec_outcome *out, const sec_result *r, const sec_end *end, int claims_euf)
{
    char text[2 * SEC_DETAIL];
    out->tried = r->tried;
    out->implicit_rejections = r->implicit_rejections;
    out->error_returns = r->error_returns;
    if (end->verdict != NGCC_PASS)
        sec_outcome_add(out, end->verdict, end->detail);
    if (r->failure.count) {
        snprintf(text, sizeof text, "%s (%lu of %lu cases)", r->failure.first, r->failure.count, r->tried);
        sec_outcome_add(out, r->fail_verdict, text);
        out->problems += r->failure.count - 1;
    }
    if (r->malleable.count && !claims_euf) {
        if (out->problems && problem_rank(out->verdict) > sec_verdict_rank(NGCC_MALLEABLE)) {
            size_t l = strlen(out->detail); /* a forgery outranks it: named after it */
            snprintf(out->detail + l, sizeof out->detail - l, "; also MALLEABLE: %s", r->malleable.first);
            out->problems += r->malleable.count;
        } else {
            sec_outcome_add(out, NGCC_MALLEABLE, r->malleable.first); /* counts one */
            out->problems += r->malleable.count - 1;
        }
    }
    if (out->problems)
        return;
    if (r->malleable.count) { /* "claims": "euf-cma": malleability is not a break of the claim */
        out->verdict = NGCC_FINDING;
        snprintf(out->detail, sizeof out->detail, "%s (tolerated: \"claims\": \"euf-cma\"; SUF-CMA does not hold)",
                 r->malleable.first);
    } else if (r->finding.count) {
        out->verdict = NGCC_FINDING;
        snprintf(out->detail, sizeof out->detail, "%s (%lu of %lu cases)", r->finding.first, r->finding.count,
                 r->tried);
    } else if (r->notrun || r->tried == 0) {
        out->notrun = 1;
        snprintf(out->detail, sizeof out->detail, "%s",
                 r->notrun ? r->note
                           : "nothing to check: no usable key or "
                             "signature/ciphertext was made");
    } else {
        out->verdict = NGCC_PASS;
        snprintf(out->detail, sizeof out->detail, "%s", r->note);
    }
}

/* An ASan report in a verify/dec call ended the child of a negative-case
 * check: the check runs again in a new child that skips that call (and the
 * ones skipped before; the calls are deterministic), so its other cases
 * still run. The ended child's report is the outcome's; the last child's
 * result is judged. At most SEC_SKIP_MAX reruns per check, within a time
 * cap, and none once a rerun returned from no more verify/dec calls than
 * the child before it (every call dies: reruns would only repeat the
 * report). */
/* checks whose every verify/dec call is a negative case: a skipped call
 * (-1, a rejection) is what they expect, never a finding of their own */
static int rerunnable(const sec_check *c)
{
    static const char *const negative[] = {"modified_message",    "modified_signature", "wrong_public_key",
                                           "truncated_signature", "extended_signature", "zero_ff_signature",
                                           "modified_ciphertext", "wrong_secret_key"};
    for (size_t i = 0; i < sizeof negative / sizeof negative[0]; i++)
        if (!strcmp(c->name, negative[i]))
            return 1;
    return 0;
}

/* verify/dec calls that returned */
static unsigned long rc_total(const sec_result *r)
{
    unsigned long n = r->rc.other;
    for (int i = 0; i < r->rc.n; i++)
        n += r->rc.count[i];
    return n;
}

static sec_result *sec_rerun_check(sec_state *s, sec_outcome *out, sec_job *job, sec_result *r, sec_end *end,
                                   char *path, size_t cap)
{
    long returned = -1; /* verify/dec calls that returned in the previous child */
    /* reruns repeat the cases before the skipped calls: at most 4 times the
     * first child's time (at least 20 s) in all */
    double stop = ngcc_now() + (end->seconds > 5 ? 4 * end->seconds : 20);
    if (stop > s->deadline)
        stop = s->deadline;
    while (end->memerr.fatal && r->nskip < SEC_SKIP_MAX && ngcc_now() < stop && rerunnable(out->check) &&
           (!strncmp(r->where, "sig_verify ", 11) || !strncmp(r->where, "kem_dec ", 8))) {
        if ((long)rc_total(r) <= returned)
            break; /* the rerun got no further: every such call ends the child */
        returned = (long)rc_total(r);
        sec_outcome_add(out, end->verdict, end->detail);
        sec_collect_reports(s, path, out->check->name, out);
        out->seconds += end->seconds;
        keep_report(s, end);
        sec_result *next = sec_result_map();
        if (!next)
            break;
        memcpy(next->skip_call, r->skip_call, sizeof next->skip_call);
        next->nskip = r->nskip;
        next->skip_call[next->nskip++] = r->progress;
        sec_result_unmap(r);
        r = next;
        job->res = r;
        char name[48];
        sec_child_opts o;
        snprintf(name, sizeof name, "%s-rerun%d", out->check->name, r->nskip);
        child_opts(s, name, &o, path, cap);
        sec_child_run(sec_check_child, job, r, &o, end);
    }
    return r;
}

static void run_check(sec_state *s, sec_outcome *out)
{
    if (ngcc_now() > s->deadline) {
        out->verdict = NGCC_TIMEOUT;
        snprintf(out->detail, sizeof out->detail, "not run: the test's time budget ran out before it");
        return;
    }
    sec_result *r = sec_result_map();
    sec_job job = {&s->opt, &s->plan, s->mat, s->probe.claims, r, out->check, 0, 0, 0};
    char path[1100];
    sec_child_opts o;
    sec_end end;
    child_opts(s, out->check->name, &o, path, sizeof path);
    sec_child_run(sec_check_child, &job, r, &o, &end);
    r = sec_rerun_check(s, out, &job, r, &end, path, sizeof path);
    out->seconds += end.seconds;
    merge_observations(&s->obs, r);
    judge_run_check(out, r, &end, s->opt.claims_euf);
    sec_collect_reports(s, path, out->check->name, out); /* after the report that ended the child */
    apply_memlimit(out, &end);
    keep_report(s, &end);
    sec_result_unmap(r);
}

/* unwritten_output, from the determinism child's two pattern runs */
static void judge_unwritten(const sec_state *s, sec_outcome *out)
{
    const sec_result *a = &s->obs;
    out->tried = a->unwritten_checked;
    if (a->unwritten_checked == 0) {
        out->notrun = 1;
        snprintf(out->detail, sizeof out->detail, "record 0's two pattern runs (determinism) could not be made");
    } else if (a->unwritten.count) {
        out->verdict = out->check->fail_verdict;
        out->problems = a->unwritten.count;
        snprintf(out->detail, sizeof out->detail, "%s (%lu of %lu outputs)", a->unwritten.first, a->unwritten.count,
                 a->unwritten_checked);
    } else {
        out->verdict = NGCC_PASS;
        snprintf(out->detail, sizeof out->detail,
                 "%lu outputs of record 0, called twice with two fill patterns: every byte inside the returned "
                 "lengths written",
                 a->unwritten_checked);
    }
}

/* the checks judged from every call's observations */
static void judge_observed(sec_state *s, sec_outcome *out)
{
    const sec_result *a = &s->obs;
    const char *name = out->check->name;
    if (!strcmp(name, "unwritten_output")) {
        judge_unwritten(s, out);
        return;
    }
    const sec_issue *i = !strcmp(name, "buffer_safety")     ? &a->buffer
                         : !strcmp(name, "claimed_lengths") ? &a->length
                                                            : &a->odd_rc;
    char codes[300];
    out->tried = a->calls_checked;
    if (a->calls_checked == 0 || (i == &a->odd_rc && a->rc.n == 0 && !a->rc.other)) {
        out->notrun = 1;
        snprintf(out->detail, sizeof out->detail, "no call of the instance%s returned",
                 i != &a->odd_rc                   ? ""
                 : s->probe.ntype == NGCC_TYPE_KEX ? " to a KEX init, pass or derive"
                 : s->probe.is_kem                 ? " to kem_dec"
                                                   : " to sig_verify");
    } else if (i->count) {
        out->verdict = i == &a->odd_rc ? NGCC_FINDING : out->check->fail_verdict;
        out->problems = i->count;
        snprintf(out->detail, sizeof out->detail, "%s (%lu of %lu calls)", i->first, i->count, a->calls_checked);
    } else if (i == &a->odd_rc) {
        sec_rc_format(&a->rc, codes, sizeof codes);
        out->verdict = NGCC_PASS;
        snprintf(out->detail, sizeof out->detail, "%s return codes: %s",
                 s->probe.ntype == NGCC_TYPE_KEX ? "KEX init, pass and derive"
                 : s->probe.is_kem               ? "kem_dec"
                                                 : "sig_verify",
                 codes);
    } else {
        out->verdict = NGCC_PASS;
        snprintf(out->detail, sizeof out->detail, "%lu calls: %s", a->calls_checked,
                 i == &a->buffer ? (s->opt.sanitizer ? "inputs unchanged, nothing written past returned lengths "
                                                       "(out-of-bounds writes: AddressSanitizer)"
                                                     : "guards intact, inputs unchanged, nothing written past "
                                                       "returned lengths")
                                 : "no length above the claimed one");
    }
}

void sec_run_checks(sec_state *s)
{
    for (int c = 0; c < s->nchecks; c++)
        if (s->checks[c].run)
            run_check(s, &s->out[c]);
    for (int c = 0; c < s->nchecks; c++)
        if (!s->checks[c].run)
            judge_observed(s, &s->out[c]);
    sec_bounds_explain(s);
    /* the honest check also answers for the keys and signatures that could not be made */
    if (s->making.problems) {
        sec_outcome *h = &s->out[0];
        sec_outcome_add(h, s->making.verdict, s->making.detail);
        h->problems += s->making.problems - 1;
    }
}

/* ---- verdict ---- */

/* SIG: every negative case of the forgery checks was accepted */
static void name_always_accept(sec_state *s)
{
    static const char *const forge[] = {"modified_message", "modified_signature", "wrong_public_key",
                                        "zero_ff_signature"};
    unsigned long accepted = 0;
    if (s->probe.ntype != NGCC_TYPE_SIG)
        return;
    for (size_t f = 0; f < sizeof forge / sizeof forge[0]; f++) {
        const sec_outcome *o = NULL;
        for (int c = 0; c < s->nchecks; c++)
            if (!strcmp(s->out[c].check->name, forge[f]))
                o = &s->out[c];
        if (!o || ngcc_verdict_passing(o->verdict) || o->tried == 0 || o->problems < o->tried)
            return;
        accepted += o->tried;
    }
    size_t l = strlen(s->detail);
    snprintf(s->detail + l, sizeof s->detail - l,
             " [always-accept verify: all %lu modified messages, modified signatures, other keys' and all-0x00/0xFF "
             "signatures were accepted]",
             accepted);
}

/* The instance's verdict is its gravest check (sec_verdict_rank: a forgery
 * first, then malleability, memory errors, a crash or hang of one input, the
 * rest); the detail names the other failed checks ("; also: OVERFLOW
 * (buffer_safety), TIMEOUT (honest)"). */
void sec_judge(sec_state *s)
{
    int worst = -1, failed = 0, notrun = -1, findings = 0;
    for (int c = 0; c < s->nchecks; c++) {
        ngcc_verdict v = outcome_verdict(&s->out[c]);
        failed += v != NGCC_PASS;
        findings += s->out[c].verdict == NGCC_FINDING;
        if (v != NGCC_PASS && (worst < 0 || sec_verdict_rank(v) > sec_verdict_rank(outcome_verdict(&s->out[worst]))))
            worst = c;
        if (s->out[c].notrun && notrun < 0)
            notrun = c;
    }
    if (worst >= 0) {
        s->verdict = outcome_verdict(&s->out[worst]);
        snprintf(s->detail, sizeof s->detail, "%s", s->out[worst].detail);
        /* the others, gravest first, in check order within one verdict */
        int listed[SEC_MAX_CHECKS] = {0}, n = 0;
        listed[worst] = 1;
        while (n < failed - 1) {
            int next = -1;
            for (int c = 0; c < s->nchecks; c++)
                if (!listed[c] && outcome_verdict(&s->out[c]) != NGCC_PASS &&
                    (next < 0 ||
                     sec_verdict_rank(outcome_verdict(&s->out[c])) > sec_verdict_rank(outcome_verdict(&s->out[next]))))
                    next = c;
            listed[next] = 1;
            size_t l = strlen(s->detail);
            snprintf(s->detail + l, sizeof s->detail - l, "%s%s (%s)",
                     n++ ? ", " : "; also: ", ngcc_verdict_name(outcome_verdict(&s->out[next])),
                     s->out[next].check->name);
        }
        name_always_accept(s);
    } else if (notrun >= 0) {
        /* a check that could not run is never a pass */
        s->verdict = NGCC_ERROR;
        snprintf(s->detail, sizeof s->detail, "check %s could not run: %s", s->out[notrun].check->name,
                 s->out[notrun].detail);
    } else {
        s->verdict = NGCC_PASS;
        snprintf(s->detail, sizeof s->detail, "%d checks passed", s->nchecks - findings);
        if (findings) {
            size_t l = strlen(s->detail);
            snprintf(s->detail + l, sizeof s->detail - l, ", %d reported a finding", findings);
        }
    }
}
