#define _GNU_SOURCE
#include "perf_measure.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ngcc_counter.h"
#include "ngcc_loader.h"
#include "ngcc_verdict.h"
#include "perf_child.h"
#include "perf_ops.h"
#include "perf_pin.h"
#include "perf_record.h"
#include "perf_stats.h"

/* one call shorter than this many counter overheads/steps is timed in batches */
#define PER_CALL_MIN_FACTOR 1000.0
#define MIN_TRIALS 3
/* same-run A/B: at most this many trial pairs (bootstrap cost) */
#define AB_MAX_PAIRS 4000

typedef struct {
    const perf_measure_opts *o;
    FILE *out;
    ngcc_counter ctr;
    perf_pin_info pin;
    perf_ctx ctx;
    const char *mode;
    int trials, iterations;
    double *samples;
    size_t nsamples;
    uint64_t total_ticks, wall_ns, calls;
    uint64_t first_ticks, first_ns;
    uint64_t last_prepare_ns, first_prepare_ns; /* untimed preparation of a call */
    uint64_t warmup_calls, warmup_ns;
    uint64_t trials_switched;         /* trials during which the thread was switched out at least once */
    double warm_fastest, warm_each_s; /* the warm-up's fastest call (ticks) and mean cost (s) */
    double *trial_samples;            /* one per trial */
    int bad;                          /* verdict of a failed check (perf_op_check) */
    char err[400];
} measure;

/* context switches of the calling thread so far (voluntary + involuntary).
 * A system call: read at trial boundaries only, because with page-table
 * isolation one right before a timed call makes that call ~1% slower
 * (measured on XKEM dec against the minimal loop). */
static long switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru))
        return 0;
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* one timed call on record r, after its untimed preparation; 0, or the
 * verdict of a failed preparation or check */
static int timed_call(measure *m, int r, uint64_t *ticks, uint64_t *ns)
{
    uint64_t p0 = ngcc_wall_ns();
    m->bad = perf_op_prepare(&m->ctx, r, m->err, sizeof m->err);
    m->last_prepare_ns = ngcc_wall_ns() - p0;
    if (m->bad)
        return m->bad;
    uint64_t w0 = ngcc_wall_ns();
    uint64_t c0 = ngcc_counter_read(&m->ctr);
    int rc = perf_op_run(&m->ctx, r);
    uint64_t c1 = ngcc_counter_read(&m->ctr);
    uint64_t w1 = ngcc_wall_ns();
    *ticks = c1 - c0;
    *ns = w1 - w0;
    m->bad = perf_op_check(&m->ctx, r, rc, m->err, sizeof m->err);
    return m->bad;
}

/* iterations calls on one record between two counter reads; the sample is
 * their mean (only the first call repeats the KAT's exactly: the DRNG and
 * outputs carry on between the others) */
static int timed_batch(measure *m, int r, int iterations, uint64_t *ticks, uint64_t *ns)
{
    int bad = 0;
    m->bad = perf_op_prepare(&m->ctx, r, m->err, sizeof m->err);
    if (m->bad)
        return m->bad;
    uint64_t w0 = ngcc_wall_ns();
    uint64_t c0 = ngcc_counter_read(&m->ctr);
    for (int i = 0; i < iterations; i++)
        bad |= perf_op_run(&m->ctx, r);
    uint64_t c1 = ngcc_counter_read(&m->ctr);
    uint64_t w1 = ngcc_wall_ns();
    *ticks = c1 - c0;
    *ns = w1 - w0;
    m->bad = perf_op_check(&m->ctx, r, bad, m->err, sizeof m->err);
    return m->bad;
}

/* Trials and iterations for calls of call_ticks that cost each_s of wall
 * time with their untimed preparation: the budget is the wall time of the
 * trials (sign's and enc's keygen can cost more than the call itself). */
static void plan(measure *m, double call_ticks, double each_s)
{
    const perf_measure_opts *o = m->o;
    double floor_ticks =
        PER_CALL_MIN_FACTOR *
        (m->ctr.overhead_ticks > m->ctr.resolution_ticks ? m->ctr.overhead_ticks : m->ctr.resolution_ticks);
    m->mode = call_ticks >= floor_ticks ? "per-call" : "per-trial-mean";
    m->trials = o->trials;
    if (each_s > 0 && each_s * m->trials > o->budget_s) { /* slow: fewer trials, but some */
        int t = (int)(o->budget_s / each_s), floor = o->trials < MIN_TRIALS ? o->trials : MIN_TRIALS;
        m->trials = t < floor ? floor : t;
    }
    double it = each_s > 0 ? o->budget_s / (each_s * m->trials) : o->iter_max;
    m->iterations = it < o->iter_min ? o->iter_min : it > o->iter_max ? o->iter_max : (int)it;
}

/* Warm-up calls for warmup_s (at least one). The first call can carry
 * one-time costs (a library's lazy initialisation): the plan is made from the
 * warm-up's fastest call and mean cost (kept in the measure for A/B). */
static int warm_up_only(measure *m)
{
    uint64_t start = ngcc_wall_ns(), ticks, ns, fastest = UINT64_MAX;
    uint64_t until = start + (uint64_t)(m->o->warmup_s * 1e9);
    do {
        if (timed_call(m, (int)(m->warmup_calls % (uint64_t)m->ctx.records), &ticks, &ns))
            return -1;
        fastest = ticks < fastest ? ticks : fastest;
        m->warmup_calls++;
    } while (ngcc_wall_ns() < until);
    m->warmup_ns = ngcc_wall_ns() - start;
    m->warm_fastest = (double)fastest;
    m->warm_each_s = (double)m->warmup_ns / 1e9 / (double)m->warmup_calls;
    return 0;
}

static int warm_up(measure *m)
{
    if (warm_up_only(m))
        return -1;
    plan(m, m->warm_fastest, m->warm_each_s);
    return 0;
}

static int alloc_samples(measure *m)
{
    int per_call = strcmp(m->mode, "per-call") == 0;
    size_t n = per_call ? (size_t)m->trials * (size_t)m->iterations : (size_t)m->trials;
    m->samples = malloc(n * sizeof *m->samples);
    m->trial_samples = malloc((size_t)m->trials * sizeof *m->trial_samples);
    if (!m->samples || !m->trial_samples) {
        snprintf(m->err, sizeof m->err, "cannot allocate %zu samples", n);
        return -1; /* m->bad stays 0: an ERROR, not the instance's fault */
    }
    return 0;
}

/* trial t: its samples appended, its trial sample (median of its calls in
 * per-call mode, their mean otherwise) in m->trial_samples[t] */
static int one_trial(measure *m, int t)
{
    int per_call = strcmp(m->mode, "per-call") == 0;
    uint64_t ticks, ns;
    long s0 = switches();
    size_t first = m->nsamples;
    for (int i = 0; per_call && i < m->iterations; i++) {
        if (timed_call(m, (int)(m->nsamples % (size_t)m->ctx.records), &ticks, &ns))
            return -1;
        m->samples[m->nsamples++] = (double)ticks;
        m->total_ticks += ticks;
        m->wall_ns += ns;
    }
    if (per_call)
        m->trial_samples[t] = perf_median_of(m->samples + first, m->nsamples - first);
    if (!per_call) {
        if (timed_batch(m, t % m->ctx.records, m->iterations, &ticks, &ns))
            return -1;
        m->samples[m->nsamples++] = (double)ticks / m->iterations;
        m->trial_samples[t] = (double)ticks / m->iterations;
        m->total_ticks += ticks;
        m->wall_ns += ns;
    }
    m->trials_switched += switches() != s0;
    m->calls += (uint64_t)m->iterations;
    return 0;
}

static int run_trials(measure *m)
{
    if (alloc_samples(m))
        return -1;
    for (int t = 0; t < m->trials; t++) {
        perf_child_phase(m->out, "in trial %d of %d (%d iterations, %s)", t + 1, m->trials, m->iterations, m->mode);
        if (one_trial(m, t))
            return -1;
    }
    return 0;
}

static cJSON *counter_json(const ngcc_counter *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", c->name);
    cJSON_AddNumberToObject(o, "freq_hz", c->freq_hz);
    cJSON_AddStringToObject(o, "freq_source", c->freq_source);
    cJSON_AddBoolToObject(o, "counts_cycles", c->counts_cycles);
    cJSON_AddNumberToObject(o, "overhead_ticks", c->overhead_ticks);
    cJSON_AddNumberToObject(o, "resolution_ticks", c->resolution_ticks);
    cJSON_AddStringToObject(o, "fallback", c->fallback);
    return o;
}

static cJSON *result_json(const measure *m, const ngcc_instance *in)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "counter", counter_json(&m->ctr));
    cJSON_AddItemToObject(r, "cpu", perf_pin_json(&m->pin));
    cJSON_AddItemToObject(r, "meta", perf_meta_json(in->meta));
    cJSON_AddStringToObject(r, "mode", m->mode);
    cJSON_AddNumberToObject(r, "trials", m->trials);
    cJSON_AddNumberToObject(r, "iterations", m->iterations);
    cJSON_AddNumberToObject(r, "calls", (double)m->calls);
    cJSON_AddNumberToObject(r, "total_ticks", (double)m->total_ticks);
    cJSON_AddNumberToObject(r, "wall_ns_total", (double)m->wall_ns);
    cJSON_AddNumberToObject(r, "first_call_ticks", (double)m->first_ticks);
    cJSON_AddNumberToObject(r, "first_call_ns", (double)m->first_ns);
    cJSON_AddNumberToObject(r, "first_prepare_ns", (double)m->first_prepare_ns);
    cJSON_AddNumberToObject(r, "warmup_calls", (double)m->warmup_calls);
    cJSON_AddNumberToObject(r, "warmup_ns", (double)m->warmup_ns);
    cJSON_AddNumberToObject(r, "records", m->ctx.records);
    cJSON_AddNumberToObject(r, "trials_switched_out", (double)m->trials_switched);
    cJSON_AddNumberToObject(r, "out_min", (double)m->ctx.out_min);
    cJSON_AddNumberToObject(r, "out_max", (double)m->ctx.out_max);
    cJSON_AddNumberToObject(r, "claimed_out", (double)(in->is_kem ? m->ctx.claimed_ct : m->ctx.claimed_sn));
    cJSON_AddItemToObject(r, "samples", cJSON_CreateDoubleArray(m->samples, (int)m->nsamples));
    cJSON_AddItemToObject(r, "trial_samples", cJSON_CreateDoubleArray(m->trial_samples, m->trials));
    if (in->type == NGCC_TYPE_HASH) {
        cJSON_AddNumberToObject(r, "msg_bytes", (double)m->ctx.hash.bytes);
        cJSON_AddNumberToObject(r, "digest_bits", in->hash.digest_bits);
    }
    if (in->type == NGCC_TYPE_KEX)
        cJSON_AddNumberToObject(r, "passes", (double)m->ctx.kex.passes);
    return r;
}

static cJSON *ab_json(const measure *a, const ngcc_instance *in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "ref_lib", a->o->ref_lib);
    cJSON_AddStringToObject(o, "order", "ABBA (A = reference, B = instance; pair t: A first for even t)");
    cJSON_AddItemToObject(o, "ref_meta", perf_meta_json(in->meta));
    cJSON_AddNumberToObject(o, "ref_first_call_ticks", (double)a->first_ticks);
    cJSON_AddNumberToObject(o, "ref_warmup_calls", (double)a->warmup_calls);
    cJSON_AddNumberToObject(o, "ref_total_ticks", (double)a->total_ticks);
    cJSON_AddNumberToObject(o, "ref_wall_ns_total", (double)a->wall_ns);
    cJSON_AddNumberToObject(o, "ref_calls", (double)a->calls);
    cJSON_AddNumberToObject(o, "ref_trials_switched_out", (double)a->trials_switched);
    cJSON_AddItemToObject(o, "ref_trial_samples", cJSON_CreateDoubleArray(a->trial_samples, a->trials));
    cJSON_AddItemToObject(o, "ref_samples", cJSON_CreateDoubleArray(a->samples, (int)a->nsamples));
    return o;
}

/* the first timed call; 1 when it alone is the measurement (1 x 1) */
static int first_call(measure *m)
{
    if (timed_call(m, 0, &m->first_ticks, &m->first_ns))
        return -1;
    m->first_prepare_ns = m->last_prepare_ns;
    return (double)m->first_ns / 1e9 >= m->o->one_shot_s;
}

static int one_by_one(measure *m)
{
    m->mode = "1x1";
    m->trials = m->iterations = 1;
    m->samples = malloc(sizeof *m->samples);
    m->trial_samples = malloc(sizeof *m->trial_samples);
    if (!m->samples || !m->trial_samples)
        return -1; /* an ERROR (m->bad is 0) */
    m->samples[m->nsamples++] = (double)m->first_ticks;
    m->trial_samples[0] = (double)m->first_ticks;
    m->total_ticks = m->first_ticks;
    m->wall_ns = m->first_ns;
    m->calls = 1;
    return 0;
}

static int measure_all(measure *m)
{
    perf_child_phase(m->out, "making the first timed call");
    int one = first_call(m);
    if (one < 0)
        return -1;
    if (one)
        return one_by_one(m);
    perf_child_phase(m->out, "warming up");
    if (warm_up(m))
        return -1;
    return run_trials(m);
}

/* Same-run A/B: b is the instance, a its reference (same counter, same
 * CPU); trials alternate ABBA with one plan for both. A failure of the
 * reference is reported as such (its own library named). */
static int measure_ab(measure *b, measure *a, const char **who)
{
    *who = "";
    perf_child_phase(b->out, "making the first timed calls (reference, instance)");
    *who = "reference: ";
    int one_a = first_call(a);
    if (one_a < 0)
        return -1;
    *who = "";
    int one_b = first_call(b);
    if (one_b < 0)
        return -1;
    if (one_a || one_b) { /* one call each: a ratio without an interval */
        if (one_by_one(b))
            return -1;
        *who = "reference: ";
        return one_by_one(a);
    }
    perf_child_phase(b->out, "warming up (reference, instance)");
    *who = "reference: ";
    if (warm_up_only(a))
        return -1;
    *who = "";
    if (warm_up_only(b))
        return -1;
    double fastest = a->warm_fastest < b->warm_fastest ? a->warm_fastest : b->warm_fastest;
    double each = a->warm_each_s > b->warm_each_s ? a->warm_each_s : b->warm_each_s;
    plan(b, fastest, each);
    /* per-call: every call its own trial pair, so the two calls compared lie
     * one call apart (the host's speed here shifts by 30% within a second);
     * the same calls in all, the same plan for both */
    if (strcmp(b->mode, "per-call") == 0) {
        long planned = (long)b->trials * b->iterations; /* a slow operation's plan stays as it is */
        long t = each > 0 ? (long)(b->o->budget_s / each) : planned;
        t = t < planned ? planned : t;
        b->trials = (int)(t > AB_MAX_PAIRS ? AB_MAX_PAIRS : t);
        b->iterations = 1;
    }
    a->mode = b->mode;
    a->trials = b->trials;
    a->iterations = b->iterations;
    if (alloc_samples(b))
        return -1;
    *who = "reference: ";
    if (alloc_samples(a))
        return -1;
    for (int t = 0; t < b->trials; t++) {
        perf_child_phase(b->out, "in A/B trial pair %d of %d (%d iterations, %s)", t + 1, b->trials, b->iterations,
                         b->mode);
        measure *first = t % 2 == 0 ? a : b, *second = t % 2 == 0 ? b : a;
        *who = first == a ? "reference: " : "";
        if (one_trial(first, t))
            return -1;
        *who = second == a ? "reference: " : "";
        if (one_trial(second, t))
            return -1;
    }
    *who = "";
    return 0;
}

int perf_measure_child(void *vopts, FILE *out)
{
    measure m;
    memset(&m, 0, sizeof m);
    m.o = vopts;
    m.out = out;
    ngcc_instance in;
    char err[600];
    perf_child_phase(out, "loading the instance library");
    if (ngcc_instance_open(m.o->lib, &in, err, sizeof err)) {
        perf_child_error(out, NGCC_LOADFAIL, "%s", err);
        return 1;
    }
    ull hash_bytes = 0;
    if (perf_op_parse_inst(m.o->op, &in, &hash_bytes) < 0) {
        perf_child_error(out, NGCC_ERROR, "--op %s is not an operation of a %s instance (%s)", m.o->op, in.meta->type,
                         perf_op_list(&in));
        return 1;
    }
    perf_child_phase(out, "choosing the CPU (--pin %s)", m.o->pin);
    if (perf_pin(m.o->pin, &m.pin, err, sizeof err)) {
        perf_child_error(out, NGCC_ERROR, "%s", err);
        return 1;
    }
    perf_child_phase(out, "opening the counter");
    if (ngcc_counter_open(&m.ctr, m.o->counter)) {
        perf_child_error(out, NGCC_ERROR, "counter '%s' unavailable: %s", m.o->counter, m.ctr.fallback);
        return 1;
    }
    perf_child_phase(out, "preparing the inputs of %d KAT records", m.o->records);
    int verdict;
    if (perf_ctx_setup_op(&m.ctx, &in, m.o->op, m.o->records, &verdict, m.err, sizeof m.err)) {
        perf_child_error(out, verdict, "%s", m.err);
        return 1;
    }
    measure ref;
    ngcc_instance rin;
    memset(&ref, 0, sizeof ref);
    const char *who = "";
    if (m.o->ref_lib) {
        ref.o = m.o;
        ref.out = out;
        ref.ctr = m.ctr;
        perf_child_phase(out, "loading the reference library");
        if (ngcc_instance_open(m.o->ref_lib, &rin, err, sizeof err)) {
            perf_child_error(out, NGCC_ERROR, "reference %s", err);
            return 1;
        }
        if (rin.type != in.type) {
            perf_child_error(out, NGCC_ERROR, "reference %s is a %s instance, not %s", m.o->ref_lib, rin.meta->type,
                             in.meta->type);
            return 1;
        }
        perf_child_phase(out, "preparing the reference's inputs of %d KAT records", m.o->records);
        if (perf_ctx_setup_op(&ref.ctx, &rin, m.o->op, m.o->records, &verdict, ref.err, sizeof ref.err)) {
            perf_child_error(out, NGCC_ERROR, "reference %s: %s: %s", m.o->ref_lib, ngcc_verdict_name(verdict),
                             ref.err);
            return 1;
        }
        if (measure_ab(&m, &ref, &who)) {
            if (who[0]) /* the reference failed: not this instance's verdict */
                perf_child_error(out, NGCC_ERROR, "reference %s: %s%s%s", m.o->ref_lib,
                                 ref.bad ? ngcc_verdict_name(ref.bad) : "", ref.bad ? ": " : "", ref.err);
            else
                perf_child_error(out, m.bad ? m.bad : NGCC_ERROR, "%s", m.err);
            return 1;
        }
    } else if (measure_all(&m)) {
        perf_child_error(out, m.bad ? m.bad : NGCC_ERROR, "%s", m.err);
        return 1;
    }
    cJSON *r = result_json(&m, &in);
    if (m.o->ref_lib) {
        cJSON_AddItemToObject(r, "ab", ab_json(&ref, &rin));
        free(ref.samples);
        free(ref.trial_samples);
        perf_ctx_free(&ref.ctx);
    }
    perf_child_result(out, r);
    cJSON_Delete(r);
    free(m.samples);
    free(m.trial_samples);
    perf_ctx_free(&m.ctx);
    ngcc_counter_close(&m.ctr);
    return 0;
}
