/* ngcc-bench: benchmarks of the perf label itself (label bench, registered
 * with -DNGCC_BENCH=ON). Subcommands:
 *   counters                 overhead and resolution of every counter that opens here
 *   loop  --lib --op         an independent minimal timing loop: plain rdtsc
 *                            (cntvct) around the API call and nothing else,
 *                            on the same KAT inputs; prints its median
 *   repeat --perf --lib --op --runs 5 [--busy]
 *                            runs ngcc-perf repeatedly and reports the spread
 *                            of its medians, optionally with the other core
 *                            kept busy by a spinning child
 *   ratio --perf --lib --op --rounds 5
 *                            ngcc-perf's median over the minimal loop's, the
 *                            two back to back in each round and on the same
 *                            CPU; the median of the rounds' ratios
 *   ab --perf --ref-lib <so> --case <label>=<so> [--case ...] --op --work <dir> --runs 10
 *                            the same-run A/B gate (ngcc-perf --ref-lib) run --runs
 *                            times per case: how often each case is REGRESSION
 *                            (A/A cases: the false-alarm rate; slowed cases: the
 *                            detection rate), the ratios and their intervals, and
 *                            the smallest slowdown (label "s<permille>") detected in
 *                            at least --detect-rate of its runs
 * Each subcommand prints one "bench:" summary line and, with --out, writes
 * its figures as JSON. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "auxfunc.h"
#include "ngcc_counter.h"
#include "ngcc_loader.h"
#include "ngcc_record.h"
#include "ngcc_util.h"
#include "perf_ops.h"
#include "perf_pin.h"
#include "perf_stats.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define RAW_TICKS() __rdtsc()
#elif defined(__aarch64__)
static inline uint64_t raw_cntvct(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}
#define RAW_TICKS() raw_cntvct()
#endif

static const char usage[] =
    "usage: ngcc-bench counters [--out f.json]\n"
    "       ngcc-bench loop --lib <so> --op <op> [--seconds 2] [--pin none|fastest|<cpu>] [--out f.json]\n"
    "       ngcc-bench repeat --perf <ngcc-perf> --lib <so> --op <op> --work <dir> [--runs 5] [--busy]\n"
    "                         [--budget-s 2] [--out f.json]\n"
    "       ngcc-bench ratio --perf <ngcc-perf> --lib <so> --op <op> --work <dir> [--rounds 5] [--budget-s 2]\n"
    "                        [--out f.json]\n"
    "       ngcc-bench ab --perf <ngcc-perf> --ref-lib <so> --case <label>=<so> [--case ...] --op <op> --work <dir>\n"
    "                     [--runs 10] [--budget-s 1] [--ab-tolerance 0.03] [--detect-rate 0.9] [--out f.json]\n";

#define MAX_CASES 16

static struct {
    const char *cmd, *lib, *op, *perf, *work, *out, *self, *pin;
    double seconds, budget;
    int runs, rounds, busy;
    const char *ref_lib, *cases[MAX_CASES];
    int ncases;
    double ab_tolerance, detect_rate;
} A;

static void write_json(cJSON *o)
{
    if (A.out && ngcc_record_write(o, A.out))
        fprintf(stderr, "ngcc-bench: cannot write %s\n", A.out);
    cJSON_Delete(o);
}

/* ---- counters ---- */
static int cmd_counters(void)
{
    static const char *const kinds[] = {"perf", "tsc", "cntvct", "monotonic", "perf-sw"};
    cJSON *o = ngcc_record_new("bench", "counters");
    cJSON *arr = cJSON_AddArrayToObject(o, "counters");
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        ngcc_counter c;
        if (ngcc_counter_open(&c, kinds[i])) {
            printf("bench: counter %-10s unavailable: %s\n", kinds[i], c.fallback);
            continue;
        }
        printf("bench: counter %-10s %-22s %.6g Hz, overhead %.0f ticks (%.1f ns), resolution %.0f ticks (%.1f ns)\n",
               kinds[i], c.name, c.freq_hz, c.overhead_ticks, c.overhead_ticks / c.freq_hz * 1e9, c.resolution_ticks,
               c.resolution_ticks / c.freq_hz * 1e9);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", c.name);
        cJSON_AddNumberToObject(e, "freq_hz", c.freq_hz);
        cJSON_AddNumberToObject(e, "overhead_ticks", c.overhead_ticks);
        cJSON_AddNumberToObject(e, "resolution_ticks", c.resolution_ticks);
        cJSON_AddItemToArray(arr, e);
        ngcc_counter_close(&c);
    }
    write_json(o);
    return 0;
}

/* ---- loop: the API call between two raw counter reads, nothing else ---- */
static uint64_t time_once(perf_ctx *c, int r)
{
    perf_record_io *io = &c->rec[r];
    ngcc_instance *in = c->inst;
    uint64_t t0 = 0, t1 = 0;
    switch (c->op) {
    case PERF_KEYGEN:
        t0 = RAW_TICKS();
        in->is_kem ? in->kem.keygen(c->out_a, &c->out_a_len, c->out_b, &c->out_b_len)
                   : in->sig.keygen(c->out_a, &c->out_a_len, c->out_b, &c->out_b_len);
        t1 = RAW_TICKS();
        break;
    case PERF_SIGN:
        t0 = RAW_TICKS();
        in->sig.sign(io->sk, io->sk_len, io->m, io->m_len, c->out_a, &c->out_a_len);
        t1 = RAW_TICKS();
        break;
    case PERF_VERIFY:
        t0 = RAW_TICKS();
        in->sig.verify(io->pk, io->pk_len, io->sn, io->sn_len, io->m, io->m_len);
        t1 = RAW_TICKS();
        break;
    case PERF_ENC:
        t0 = RAW_TICKS();
        in->kem.enc(io->pk, io->pk_len, c->out_a, &c->out_a_len, c->out_b, &c->out_b_len);
        t1 = RAW_TICKS();
        break;
    case PERF_DEC:
        t0 = RAW_TICKS();
        in->kem.dec(io->sk, io->sk_len, io->ct, io->ct_len, c->out_a, &c->out_a_len);
        t1 = RAW_TICKS();
        break;
    default: /* KEX and hash ops: not benchmarked (perf_op_parse gives SIG/KEM ops only) */
        break;
    }
    return t1 - t0;
}

static int cmd_loop(void)
{
    ngcc_instance in;
    char err[600];
    perf_pin_info pin;
    if (perf_pin(A.pin, &pin, err, sizeof err)) {
        fprintf(stderr, "ngcc-bench: %s\n", err);
        return 1;
    }
    if (ngcc_instance_open(A.lib, &in, err, sizeof err)) {
        fprintf(stderr, "ngcc-bench: %s\n", err);
        return 1;
    }
    int op = perf_op_parse(A.op, in.is_kem), verdict;
    perf_ctx c;
    if (op < 0 || perf_ctx_setup(&c, &in, (perf_op)op, 10, &verdict, err, sizeof err)) {
        fprintf(stderr, "ngcc-bench: %s: %s\n", A.op, op < 0 ? "not an operation of this instance" : err);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    double *x = malloc(cap * sizeof *x);
    uint64_t end_warm = ngcc_wall_ns() + 200000000ull, end = end_warm + (uint64_t)(A.seconds * 1e9);
    for (uint64_t i = 0; ngcc_wall_ns() < end && n < cap; i++) {
        int r = (int)(i % 10);
        if (perf_op_prepare(&c, r, err, sizeof err)) { /* untimed, as in ngcc-perf: identical work */
            fprintf(stderr, "ngcc-bench: %s\n", err);
            return 1;
        }
        uint64_t t = time_once(&c, r);
        if (ngcc_wall_ns() > end_warm)
            x[n++] = (double)t;
    }
    perf_summary s;
    perf_summarise(x, n, &s);
    printf("bench: loop %s %s: median %.0f ticks, q1 %.0f, q3 %.0f, n=%zu\n", A.lib, A.op, s.median, s.q1, s.q3, n);
    cJSON *o = ngcc_record_new("bench", "loop");
    cJSON_AddNumberToObject(o, "median", s.median);
    cJSON_AddNumberToObject(o, "n", (double)n);
    write_json(o);
    free(x);
    return 0;
}

/* ---- helpers for repeat / ratio: run a program, read a record ---- */
/* runs argv to completion, its output discarded (figures come from its record) */
static int run(char *const argv[])
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static double record_median(const char *path, const char *field)
{
    cJSON *r = ngcc_record_load(path);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "stats");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(st ? st : r, field);
    double m = cJSON_IsNumber(v) ? v->valuedouble : -1;
    cJSON_Delete(r);
    return m;
}

static double perf_median(int k, const char *tag)
{
    char rec[4096], budget[32];
    snprintf(rec, sizeof rec, "%s/%s-%d.json", A.work, tag, k);
    snprintf(budget, sizeof budget, "%g", A.budget);
    char *argv[] = {(char *)A.perf, "--lib",        (char *)A.lib, "--name",     "bench/run", "--op",
                    (char *)A.op,   "--record-out", rec,           "--budget-s", budget,      "--system",
                    "bench",        "--pin",        (char *)A.pin, NULL};
    run(argv);
    return record_median(rec, "median");
}

static double loop_median(int k)
{
    char rec[4096], secs[32];
    snprintf(rec, sizeof rec, "%s/loop-%d.json", A.work, k);
    snprintf(secs, sizeof secs, "%g", A.budget);
    char *argv[] = {(char *)A.self, "loop",  "--lib", (char *)A.lib, "--op",        (char *)A.op, "--seconds",
                    secs,           "--out", rec,     "--pin",       (char *)A.pin, NULL};
    run(argv);
    return record_median(rec, "median");
}

/* A child that keeps another core busy until killed, with work like a
 * compiler's or another test's: hashing (ALU) and copying 4 MiB (caches and
 * memory), not an idle-looking counter loop. */
static pid_t start_spinner(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        size_t n = 4u << 20;
        unsigned char *a = calloc(1, n), *b = calloc(1, n), d[32];
        for (;;) {
            sm3hash(256, a, 8 * 4096, d);
            memcpy(b, a, n);
            a[d[0]] ^= d[1];
        }
    }
    return pid;
}

static void spread(const double *m, int n, perf_summary *s, double *rel)
{
    perf_summarise(m, (size_t)n, s);
    *rel = s->median > 0 ? (s->max - s->min) / s->median : 0;
}

static int cmd_repeat(void)
{
    ngcc_mkdirs(A.work, 1);
    pid_t spinner = A.busy ? start_spinner() : 0;
    double m[64];
    int n = 0;
    for (int k = 1; k <= A.runs && n < 64; k++) {
        double v = perf_median(k, A.busy ? "busy" : "idle");
        if (v > 0)
            m[n++] = v;
    }
    if (spinner > 0) {
        kill(spinner, SIGKILL);
        waitpid(spinner, NULL, 0);
    }
    if (n < A.runs) {
        fprintf(stderr, "ngcc-bench: only %d of %d runs produced a median (see %s)\n", n, A.runs, A.work);
        return 1;
    }
    perf_summary s;
    double rel;
    spread(m, n, &s, &rel);
    printf("bench: repeat %s %s (%s, other core %s): medians", A.lib, A.op, A.busy ? "busy" : "idle",
           A.busy ? "busy" : "idle");
    for (int i = 0; i < n; i++)
        printf(" %.0f", m[i]);
    printf("; spread (max-min)/median %.2f%%\n", 100 * rel);
    cJSON *o = ngcc_record_new("bench", "repeat");
    cJSON_AddStringToObject(o, "lib", A.lib);
    cJSON_AddStringToObject(o, "op", A.op);
    cJSON_AddBoolToObject(o, "busy", A.busy);
    cJSON_AddItemToObject(o, "medians", cJSON_CreateDoubleArray(m, n));
    cJSON_AddNumberToObject(o, "median_of_medians", s.median);
    cJSON_AddNumberToObject(o, "spread_rel", rel);
    write_json(o);
    return 0;
}

/* Rounds of (ngcc-perf, minimal loop) back to back; each round gives one
 * ratio, so slow drifts of the host between rounds cancel; the median
 * round ratio is reported. */
static int cmd_ratio(void)
{
    ngcc_mkdirs(A.work, 1);
    /* both measurements of every round on one CPU, the fastest one now */
    perf_pin_info pin;
    char err[300], cpu[16];
    if (perf_pin("fastest", &pin, err, sizeof err)) {
        fprintf(stderr, "ngcc-bench: %s\n", err);
        return 1;
    }
    snprintf(cpu, sizeof cpu, "%d", pin.cpu);
    A.pin = cpu;
    double p[32], l[32], q[32];
    int n = 0;
    for (int k = 1; k <= A.rounds && n < 32; k++) {
        p[n] = perf_median(k, "ratio");
        l[n] = loop_median(k);
        if (p[n] > 0 && l[n] > 0) {
            q[n] = p[n] / l[n];
            n++;
        }
    }
    if (n == 0) {
        fprintf(stderr, "ngcc-bench: no round produced both medians (see %s)\n", A.work);
        return 1;
    }
    perf_summary sq;
    perf_summarise(q, (size_t)n, &sq);
    printf("bench: ratio %s %s: ngcc-perf median / minimal loop median = %.4f (median of %d rounds, "
           "each back to back; min %.4f, max %.4f)\n",
           A.lib, A.op, sq.median, n, sq.min, sq.max);
    cJSON *o = ngcc_record_new("bench", "ratio");
    cJSON_AddStringToObject(o, "lib", A.lib);
    cJSON_AddStringToObject(o, "op", A.op);
    cJSON_AddItemToObject(o, "perf_medians", cJSON_CreateDoubleArray(p, n));
    cJSON_AddItemToObject(o, "loop_medians", cJSON_CreateDoubleArray(l, n));
    cJSON_AddItemToObject(o, "ratios", cJSON_CreateDoubleArray(q, n));
    cJSON_AddNumberToObject(o, "ratio", sq.median);
    write_json(o);
    return 0;
}

/* ---- ab: false-alarm and detection rates of the same-run A/B gate ---- */
static int ab_run(const char *lib, const char *rec, double *ratio, double *lo, double *hi, char *verdict)
{
    char budget[32], tol[32];
    snprintf(budget, sizeof budget, "%g", A.budget);
    snprintf(tol, sizeof tol, "%g", A.ab_tolerance);
    char *argv[] = {(char *)A.perf,
                    "--lib",
                    (char *)lib,
                    "--name",
                    "bench/ab",
                    "--op",
                    (char *)A.op,
                    "--ref-lib",
                    (char *)A.ref_lib,
                    "--ref-name",
                    "bench/ref",
                    "--ab-tolerance",
                    tol,
                    "--record-out",
                    (char *)rec,
                    "--budget-s",
                    budget,
                    "--system",
                    "bench",
                    "--pin",
                    (char *)A.pin,
                    "--records",
                    "2",
                    "--expect",
                    "REGRESSION",
                    NULL};
    run(argv); /* 2 KAT records: verify's setup signs each with both libraries, 0.1 s a signature */
    cJSON *r = ngcc_record_load(rec);
    const cJSON *ab = cJSON_GetObjectItemCaseSensitive(r, "ab");
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "verdict"));
    snprintf(verdict, 32, "%s", v ? v : "NONE");
    *ratio = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ab, "ratio"));
    *lo = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ab, "ci_low"));
    *hi = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ab, "ci_high"));
    cJSON_Delete(r);
    return strcmp(verdict, "PASS") == 0 || strcmp(verdict, "REGRESSION") == 0 ? 0 : -1;
}

static int cmd_ab(void)
{
    ngcc_mkdirs(A.work, 1);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "bench", "ab");
    cJSON_AddStringToObject(o, "ref_lib", A.ref_lib);
    cJSON_AddStringToObject(o, "op", A.op);
    cJSON_AddNumberToObject(o, "runs", A.runs);
    cJSON_AddNumberToObject(o, "budget_s", A.budget);
    cJSON_AddNumberToObject(o, "ab_tolerance", A.ab_tolerance);
    cJSON_AddNumberToObject(o, "detect_rate", A.detect_rate);
    cJSON *cases = cJSON_AddArrayToObject(o, "cases");
    int errors = 0, smallest = -1;
    char line[2048] = "";
    size_t used = 0;
    for (int c = 0; c < A.ncases; c++) {
        char label[128];
        const char *eq = strchr(A.cases[c], '=');
        snprintf(label, sizeof label, "%.*s", (int)(eq - A.cases[c]), A.cases[c]);
        const char *lib = eq + 1;
        cJSON *cj = cJSON_CreateObject();
        cJSON_AddStringToObject(cj, "label", label);
        cJSON_AddStringToObject(cj, "lib", lib);
        cJSON *runs = cJSON_AddArrayToObject(cj, "runs");
        int reg = 0, ok = 0;
        double ratios[256];
        for (int k = 1; k <= A.runs && k <= 256; k++) {
            char rec[4096], verdict[32];
            double ratio = 0, lo = 0, hi = 0;
            snprintf(rec, sizeof rec, "%s/%s-%d.json", A.work, label, k);
            if (ab_run(lib, rec, &ratio, &lo, &hi, verdict)) {
                errors++;
                fprintf(stderr, "ngcc-bench: ab %s run %d: verdict %s (%s)\n", label, k, verdict, rec);
                continue;
            }
            ratios[ok++] = ratio;
            reg += strcmp(verdict, "REGRESSION") == 0;
            cJSON *rj = cJSON_CreateObject();
            cJSON_AddStringToObject(rj, "verdict", verdict);
            cJSON_AddNumberToObject(rj, "ratio", ratio);
            cJSON_AddNumberToObject(rj, "ci_low", lo);
            cJSON_AddNumberToObject(rj, "ci_high", hi);
            cJSON_AddItemToArray(runs, rj);
        }
        perf_summary s;
        if (ok)
            perf_summarise(ratios, (size_t)ok, &s);
        double rate = ok ? (double)reg / ok : 0;
        cJSON_AddNumberToObject(cj, "regressions", reg);
        cJSON_AddNumberToObject(cj, "valid_runs", ok);
        cJSON_AddNumberToObject(cj, "regression_rate", rate);
        cJSON_AddNumberToObject(cj, "ratio_median", ok ? s.median : 0);
        cJSON_AddNumberToObject(cj, "ratio_min", ok ? s.min : 0);
        cJSON_AddNumberToObject(cj, "ratio_max", ok ? s.max : 0);
        cJSON_AddItemToArray(cases, cj);
        int permille;
        if (smallest < 0 && sscanf(label, "s%d", &permille) == 1 && ok && rate >= A.detect_rate)
            smallest = permille;
        used += (size_t)snprintf(line + used, used < sizeof line ? sizeof line - used : 0, "%s%s %d/%d (ratio %.3f)",
                                 c ? ", " : "", label, reg, ok, ok ? s.median : 0);
        if (used >= sizeof line)
            used = sizeof line - 1;
    }
    if (smallest >= 0)
        cJSON_AddNumberToObject(o, "smallest_detected_slowdown", smallest / 1000.0);
    else
        cJSON_AddNullToObject(o, "smallest_detected_slowdown");
    cJSON_AddNumberToObject(o, "errors", errors);
    printf("bench: ab %s vs reference, %d runs each, REGRESSION at %.0f%%: %s", A.op, A.runs, 100 * A.ab_tolerance,
           line);
    if (smallest >= 0)
        printf("; smallest slowdown detected in >= %.0f%% of runs: %.1f%%", 100 * A.detect_rate, smallest / 10.0);
    printf("%s\n", errors ? "; some runs gave no A/B verdict (see stderr)" : "");
    write_json(o);
    return errors ? 1 : 0;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {
        {"lib", 1, 0, 'l'},    {"op", 1, 0, 'o'},           {"perf", 1, 0, 'p'},        {"work", 1, 0, 'w'},
        {"out", 1, 0, 'O'},    {"seconds", 1, 0, 's'},      {"budget-s", 1, 0, 'b'},    {"runs", 1, 0, 'r'},
        {"rounds", 1, 0, 'R'}, {"busy", 0, 0, 'B'},         {"pin", 1, 0, 'P'},         {"ref-lib", 1, 0, 'L'},
        {"case", 1, 0, 'c'},   {"ab-tolerance", 1, 0, 't'}, {"detect-rate", 1, 0, 'd'}, {0, 0, 0, 0}};
    A.self = argv[0];
    A.pin = "none";
    A.seconds = A.budget = 2;
    A.runs = 5;
    A.rounds = 5;
    A.ab_tolerance = 0.03;
    A.detect_rate = 0.9;
    if (argc < 2)
        return -1;
    A.cmd = argv[1];
    optind = 2;
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'l':
            A.lib = optarg;
            break;
        case 'o':
            A.op = optarg;
            break;
        case 'p':
            A.perf = optarg;
            break;
        case 'w':
            A.work = optarg;
            break;
        case 'O':
            A.out = optarg;
            break;
        case 's':
            A.seconds = atof(optarg);
            break;
        case 'b':
            A.budget = atof(optarg);
            break;
        case 'r':
            A.runs = atoi(optarg);
            break;
        case 'R':
            A.rounds = atoi(optarg);
            break;
        case 'B':
            A.busy = 1;
            break;
        case 'P':
            A.pin = optarg;
            break;
        case 'L':
            A.ref_lib = optarg;
            break;
        case 'c':
            if (A.ncases == MAX_CASES || !strchr(optarg, '='))
                return -1;
            A.cases[A.ncases++] = optarg;
            break;
        case 't':
            A.ab_tolerance = atof(optarg);
            break;
        case 'd':
            A.detect_rate = atof(optarg);
            break;
        default:
            return -1;
        }
    }
    int is_ab = !strcmp(A.cmd, "ab");
    if (is_ab && (!A.ref_lib || A.ncases == 0 || !A.op || !A.perf || !A.work || A.runs < 1))
        return -1;
    int needs_lib = strcmp(A.cmd, "counters") != 0 && !is_ab;
    int needs_perf = !strcmp(A.cmd, "repeat") || !strcmp(A.cmd, "ratio");
    if ((needs_lib && (!A.lib || !A.op)) || (needs_perf && (!A.perf || !A.work)) || A.runs < 1 || A.rounds < 1)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (parse(argc, argv)) {
        fputs(usage, stderr);
        return 2;
    }
    if (!strcmp(A.cmd, "counters"))
        return cmd_counters();
    if (!strcmp(A.cmd, "loop"))
        return cmd_loop();
    if (!strcmp(A.cmd, "repeat"))
        return cmd_repeat();
    if (!strcmp(A.cmd, "ratio"))
        return cmd_ratio();
    if (!strcmp(A.cmd, "ab"))
        return cmd_ab();
    fputs(usage, stderr);
    return 2;
}
