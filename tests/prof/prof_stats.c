#include "prof_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_control.h"

#define MAX_RATIOS 256

static const char *const sym_names[NGCC_PROF_NSYM] = NGCC_PROF_SYM_NAMES;
static const char *const other_keys[NGCC_PROF_NSYM] = {NULL, NULL, NULL, "get_random_number@other_ctx",
                                                       "init_random_number@other_ctx"};

static int is_hash(int s)
{
    return s <= NGCC_PROF_PSEUDOXOF;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const cJSON *counter(const cJSON *rec, int s)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "counters"), sym_names[s]);
}

/* one record's times: wrapper-corrected and raw, per symbol and in total */
typedef struct {
    double in_raw[NGCC_PROF_NSYM], in_corr[NGCC_PROF_NSYM];
    double total_raw, total_corr, plain;
    double calls_all;
} rec_times;

static void record_times(const cJSON *rec, const prof_calib *cal, rec_times *t)
{
    memset(t, 0, sizeof *t);
    t->total_raw = num(rec, "prof_ticks");
    t->plain = num(rec, "plain_ticks");
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        const cJSON *c = counter(rec, s);
        double calls = num(c, "calls") + num(c, "other_ctx");
        double outer = calls - num(c, "nested");
        t->calls_all += calls;
        t->in_raw[s] = num(c, "outer_ticks");
        t->in_corr[s] = fmax(0, t->in_raw[s] - outer * cal->inside);
    }
    t->total_corr = fmax(0, t->total_raw - t->calls_all * cal->total);
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

/* a share of the operation time: the correction of a few ticks per call can
 * push a measured 100% slightly over; a share is never above 1 */
static double share(double inside, double total)
{
    return fmin(1, ratio(inside, total));
}

static double part(const double *in, int hash)
{
    double sum = 0;
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        if (is_hash(s) == hash)
            sum += in[s];
    return sum;
}

/* {"<bits>": calls} from the child's [[bits, calls], ...] */
static cJSON *hist_object(const cJSON *pairs)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *p;
    cJSON_ArrayForEach(p, pairs)
    {
        char key[32];
        snprintf(key, sizeof key, "%.0f", cJSON_GetArrayItem(p, 0)->valuedouble);
        cJSON_AddNumberToObject(o, key, cJSON_GetArrayItem(p, 1)->valuedouble);
    }
    return o;
}

/* adds the histogram of one record into the running total */
static void hist_sum(cJSON *total, const cJSON *pairs, const char *sym)
{
    cJSON *t = cJSON_GetObjectItemCaseSensitive(total, sym);
    if (!t)
        t = cJSON_AddObjectToObject(total, sym);
    const cJSON *p;
    cJSON_ArrayForEach(p, pairs)
    {
        char key[32];
        snprintf(key, sizeof key, "%.0f", cJSON_GetArrayItem(p, 0)->valuedouble);
        double add = cJSON_GetArrayItem(p, 1)->valuedouble;
        cJSON *cur = cJSON_GetObjectItemCaseSensitive(t, key);
        if (cur)
            cJSON_SetNumberValue(cur, cur->valuedouble + add);
        else
            cJSON_AddNumberToObject(t, key, add);
    }
}

/* the count behind a key: calls of a symbol, or its other-context calls */
static double key_count(const cJSON *rec, int s, int other)
{
    const cJSON *c = counter(rec, s);
    return other ? num(c, "other_ctx") : num(c, "calls");
}

static int other_used(cJSON *const *recs, int n, int s)
{
    if (!other_keys[s])
        return 0;
    for (int r = 0; r < n; r++)
        if (key_count(recs[r], s, 1) > 0)
            return 1;
    return 0;
}

static cJSON *per_record_entry(const cJSON *rec, const prof_calib *cal, cJSON *const *recs, int n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "record", num(rec, "record"));
    if (cJSON_GetObjectItemCaseSensitive(rec, "m_len"))
        cJSON_AddNumberToObject(o, "m_len", num(rec, "m_len"));
    if (cJSON_GetObjectItemCaseSensitive(rec, "msg_len_bits")) /* hash records */
        cJSON_AddNumberToObject(o, "msg_len_bits", num(rec, "msg_len_bits"));
    cJSON *calls = cJSON_AddObjectToObject(o, "calls");
    cJSON *nested = cJSON_AddObjectToObject(o, "nested");
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        cJSON_AddNumberToObject(calls, sym_names[s], key_count(rec, s, 0));
        if (other_used(recs, n, s))
            cJSON_AddNumberToObject(calls, other_keys[s], key_count(rec, s, 1));
        if (num(counter(rec, s), "nested") > 0)
            cJSON_AddNumberToObject(nested, sym_names[s], num(counter(rec, s), "nested"));
    }
    static const char *const dirs[] = {"bits_in", "bits_out"};
    for (int d = 0; d < 2; d++) {
        cJSON *h = cJSON_AddObjectToObject(o, dirs[d]);
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(rec, dirs[d]))
        {
            cJSON_AddItemToObject(h, p->string, hist_object(p));
        }
    }
    rec_times t;
    record_times(rec, cal, &t);
    cJSON *sh = cJSON_AddObjectToObject(o, "share");
    cJSON_AddNumberToObject(sh, "hash", share(part(t.in_corr, 1), t.total_corr));
    cJSON_AddNumberToObject(sh, "drng", share(part(t.in_corr, 0), t.total_corr));
    cJSON_AddNumberToObject(o, "prof_ticks", t.total_raw);
    if (cJSON_GetObjectItemCaseSensitive(rec, "plain_ticks"))
        cJSON_AddNumberToObject(o, "plain_ticks", t.plain);
    cJSON_AddItemToObject(o, "prof_ticks_all",
                          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rec, "prof_ticks_all"), 1));
    cJSON *pa = cJSON_GetObjectItemCaseSensitive(rec, "plain_ticks_all");
    if (pa)
        cJSON_AddItemToObject(o, "plain_ticks_all", cJSON_Duplicate(pa, 1));
    static const char *const copied[] = {"runs", "settled", "prof_preempted", "plain_preempted"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, copied[i]);
        if (v)
            cJSON_AddItemToObject(o, copied[i], cJSON_Duplicate(v, 1));
    }
    return o;
}

/* "calls" {key: {mean,min,max}} and "gate" {"records", "calls": {key: [..]}} */
static void add_calls(cJSON *rec_out, cJSON *const *recs, int n, prof_summary_figs *figs)
{
    cJSON *calls = cJSON_AddObjectToObject(rec_out, "calls");
    cJSON *gate = cJSON_AddObjectToObject(rec_out, "gate");
    cJSON_AddNumberToObject(gate, "records", n);
    cJSON *gcalls = cJSON_AddObjectToObject(gate, "calls");
    figs->calls_per_op = 0;
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        for (int other = 0; other < 2; other++) {
            if (other && !other_used(recs, n, s))
                continue;
            double sum = 0, mn = 0, mx = 0;
            cJSON *arr = cJSON_CreateArray();
            for (int r = 0; r < n; r++) {
                double v = key_count(recs[r], s, other);
                sum += v;
                mn = r == 0 || v < mn ? v : mn;
                mx = r == 0 || v > mx ? v : mx;
                cJSON_AddItemToArray(arr, cJSON_CreateNumber(v));
            }
            const char *key = other ? other_keys[s] : sym_names[s];
            cJSON *c = cJSON_AddObjectToObject(calls, key);
            cJSON_AddNumberToObject(c, "mean", n ? sum / n : 0);
            cJSON_AddNumberToObject(c, "min", mn);
            cJSON_AddNumberToObject(c, "max", mx);
            figs->calls_per_op += n ? sum / n : 0;
            if (sum > 0)
                cJSON_AddItemToObject(gcalls, key, arr);
            else
                cJSON_Delete(arr);
        }
    }
}

static void add_hists(cJSON *rec_out, cJSON *const *recs, int n)
{
    static const char *const dirs[] = {"bits_in", "bits_out"};
    for (int d = 0; d < 2; d++) {
        cJSON *total = cJSON_AddObjectToObject(rec_out, dirs[d]);
        for (int r = 0; r < n; r++) {
            const cJSON *p;
            cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(recs[r], dirs[d]))
            {
                hist_sum(total, p, p->string);
            }
        }
    }
}

static void add_overhead(cJSON *rec_out, cJSON *const *recs, int n, const prof_calib *cal, double total_raw,
                         double total_corr, double plain, int have_plain, prof_summary_figs *f);
static double quantile(double *v, int n, double q);

static void add_shares(cJSON *rec_out, cJSON *const *recs, int n, const prof_calib *cal, prof_summary_figs *f)
{
    double in_raw[NGCC_PROF_NSYM] = {0}, in_corr[NGCC_PROF_NSYM] = {0};
    double total_raw = 0, total_corr = 0, plain = 0;
    double hash[MAX_RATIOS], drng[MAX_RATIOS], hash_raw[MAX_RATIOS], drng_raw[MAX_RATIOS];
    int have_plain = n > 0, k = 0, disturbed = 0;
    for (int r = 0; r < n; r++) {
        rec_times t;
        record_times(recs[r], cal, &t);
        for (int s = 0; s < NGCC_PROF_NSYM; s++) {
            in_raw[s] += t.in_raw[s];
            in_corr[s] += t.in_corr[s];
        }
        total_raw += t.total_raw;
        total_corr += t.total_corr;
        plain += t.plain;
        have_plain &= cJSON_GetObjectItemCaseSensitive(recs[r], "plain_ticks") != NULL;
        disturbed += num(recs[r], "prof_preempted") > 0 || num(recs[r], "plain_preempted") > 0;
        if (k < MAX_RATIOS) {
            hash[k] = share(part(t.in_corr, 1), t.total_corr);
            drng[k] = share(part(t.in_corr, 0), t.total_corr);
            hash_raw[k] = share(part(t.in_raw, 1), t.total_raw);
            drng_raw[k++] = share(part(t.in_raw, 0), t.total_raw);
        }
    }
    f->hash = k ? quantile(hash, k, 0.5) : 0;
    f->drng = k ? quantile(drng, k, 0.5) : 0;
    f->hash_raw = k ? quantile(hash_raw, k, 0.5) : 0;
    f->drng_raw = k ? quantile(drng_raw, k, 0.5) : 0;
    cJSON *sh = cJSON_AddObjectToObject(rec_out, "share");
    cJSON_AddNumberToObject(sh, "hash", f->hash);
    cJSON_AddNumberToObject(sh, "drng", f->drng);
    cJSON_AddNumberToObject(sh, "hash_uncorrected", f->hash_raw);
    cJSON_AddNumberToObject(sh, "drng_uncorrected", f->drng_raw);
    cJSON_AddNumberToObject(sh, "hash_pooled", share(part(in_corr, 1), total_corr));
    cJSON_AddNumberToObject(sh, "drng_pooled", share(part(in_corr, 0), total_corr));
    cJSON *by = cJSON_AddObjectToObject(sh, "by_symbol_pooled");
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        cJSON_AddNumberToObject(by, sym_names[s], share(in_corr[s], total_corr));
    cJSON_AddStringToObject(sh, "method",
                            "median over the records of (ticks inside the outermost wrapped calls "
                            "/ operation ticks) in the record's chosen run, both minus the calibrated wrapper "
                            "cost per call; pooled: sums over the records");
    cJSON_AddNumberToObject(rec_out, "timing_disturbed_records", disturbed);
    f->disturbed = disturbed;
    add_overhead(rec_out, recs, n, cal, total_raw, total_corr, plain, have_plain, f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* q-quantile (0..1) of v[0..n-1], sorted in place; linear interpolation */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double pos = q * (n - 1);
    int lo = (int)pos;
    return lo + 1 < n ? v[lo] + (pos - lo) * (v[lo + 1] - v[lo]) : v[lo];
}

/* Overhead = median over the records of (fastest prof run / fastest plain
 * run) - 1: the two libraries alternate within a record, so a host that
 * slows down between records cancels out. Corrected: the prof time minus
 * the calibrated wrapper cost per call. */
static void add_overhead(cJSON *rec_out, cJSON *const *recs, int n, const prof_calib *cal, double total_raw,
                         double total_corr, double plain, int have_plain, prof_summary_figs *f)
{
    cJSON *ov = cJSON_AddObjectToObject(rec_out, "overhead");
    cJSON_AddNumberToObject(ov, "wrapper_ticks_per_call", cal->total);
    cJSON_AddNumberToObject(ov, "wrapper_ticks_inside_per_call", cal->inside);
    cJSON_AddNumberToObject(ov, "prof_ticks", total_raw);
    cJSON_AddNumberToObject(ov, "prof_ticks_corrected", total_corr);
    f->overhead_raw = f->overhead_corrected = NAN;
    if (have_plain && plain > 0) {
        double raw[MAX_RATIOS], cor[MAX_RATIOS];
        int k = 0;
        for (int r = 0; r < n && k < MAX_RATIOS; r++) {
            rec_times t;
            record_times(recs[r], cal, &t);
            if (t.plain <= 0)
                continue;
            raw[k] = t.total_raw / t.plain - 1;
            cor[k++] = t.total_corr / t.plain - 1;
        }
        f->overhead_raw = quantile(raw, k, 0.5);
        f->overhead_corrected = quantile(cor, k, 0.5);
        cJSON_AddNumberToObject(ov, "plain_ticks", plain);
        cJSON_AddNumberToObject(ov, "raw", f->overhead_raw);
        cJSON_AddNumberToObject(ov, "corrected", f->overhead_corrected);
        cJSON_AddNumberToObject(ov, "raw_q1", quantile(raw, k, 0.25));
        cJSON_AddNumberToObject(ov, "raw_q3", quantile(raw, k, 0.75));
        cJSON_AddNumberToObject(ov, "corrected_q1", quantile(cor, k, 0.25));
        cJSON_AddNumberToObject(ov, "corrected_q3", quantile(cor, k, 0.75));
        cJSON_AddStringToObject(ov, "method",
                                "median over the records of fastest prof run / fastest plain run - 1 "
                                "(runs alternate); corrected: prof minus calls x wrapper_ticks_per_call");
    } else {
        cJSON_AddNullToObject(ov, "plain_ticks");
        cJSON_AddNullToObject(ov, "raw");
        cJSON_AddNullToObject(ov, "corrected");
    }
}

void prof_stats_fill(cJSON *rec, cJSON *const *recs, int n, const prof_calib *cal, prof_summary_figs *figs)
{
    memset(figs, 0, sizeof *figs);
    add_calls(rec, recs, n, figs);
    add_hists(rec, recs, n);
    add_shares(rec, recs, n, cal, figs);
    cJSON *per = cJSON_AddArrayToObject(rec, "per_record");
    for (int r = 0; r < n; r++)
        cJSON_AddItemToArray(per, per_record_entry(recs[r], cal, recs, n));
}
