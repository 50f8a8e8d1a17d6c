/* ngcc-kat: the KAT test of one instance (CTest label "kat").
 * Replays the official KAT driver in a child process, compares the streamed
 * text with the submitted KAT file and/or a kat.sha256 manifest, runs one
 * CMocka case per record (text) and per record (honest verify / decaps),
 * prints one verdict line and writes one JSON record. The common options,
 * the build-record check, resuming, the verdict line and the exit code are
 * the driver frame's (ngcc_frame.h); the options below are kat's own. */
#define _GNU_SOURCE
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kat_compare.h"
#include "kat_replay.h"
#include "ngcc_canon.h"
#include "ngcc_child.h"
#include "ngcc_frame.h"
#include "ngcc_hang.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"

#define MAX_EVENTS_PER_RECORD 8
/* operations timed (#B/#T): SIG/KEM, then KEX */
#define NOPS 17 /* pass4..pass8: the passes of extended KEX drivers */

typedef struct {
    int produced; /* its Count line was seen */
    int complete; /* the next record or #DONE followed */
    int nevents;
    char events[MAX_EVENTS_PER_RECORD][200];
    int crypto_bad;   /* call / ssdiff */
    int overflow_bad; /* overflow / lenover */
} record_state;

static struct {
    /* options: the frame's (lib, name, record-out, build-record, log,
     * timeout, mem-limit-mb, expect) and kat's own */
    ngcc_frame f;
    const char *ref, *manifest, *mkey, *write_kat, *kat_sha256;
    const char *expect_detail; /* --expect-detail: ERE the detail must match */
    int records;
    double budget;
    double cap;         /* --cap: how long the run may go on for the only reference (0: the timeout) */
    double deadline;    /* absolute; moved to the cap when the run goes on past the timeout */
    double need_s;      /* the whole reference's predicted time when it fitted neither */
    double limit_floor; /* --limit-floor: the least time the rest of a run gets once records were measured */
    /* results (the verdict and its detail are K.f's) */
    record_state rec[NGCC_MAX_RECORDS];
    int loadfail, done;
    char loadfail_msg[512];
    ngcc_child_result child;
    kat_compare cmp;
    int have_ref;
    int have_manifest, manifest_nolen, manifest_ok, manifest_checked;
    long manifest_records;
    char manifest_hex[65];
    /* manifest lines naming this instance's KAT file (ngcc_manifest_lines) */
    ngcc_manifest_line mlines[8];
    int mcount, mused; /* mused: index into mlines, -1 none */
    ngcc_manifest_bad mbad;
    int manifest_error;      /* two lines name the file: the verdict is ERROR */
    char manifest_note[900]; /* the decision, in words */
    /* record budget (--budget): run_records may end below records */
    int run_records, stopped, extend_to;
    double child_t0, rec_end[NGCC_MAX_RECORDS];
    char budget_note[400];
    /* operation in progress (#B) and measured call times (#T) */
    char cur_op[16];
    int cur_op_rec;
    double cur_op_t0;
    double *op_times[NOPS];
    int op_n[NOPS];
    int kex_stop_code; /* KEX: #STOP (the official driver returned this code) */
    int kex_stop_record;
    char produced_hex[65], produced_nolen_hex[65];
    char written_sha[65];
    ngcc_katdigest *digest;
    cJSON *meta;
    int cur;
} K;

static const char usage[] = "usage: ngcc-kat --lib <instance.so> --name <cand>/<inst> --record-out <file.json>\n"
                            "       [--ref <KAT file>] [--manifest <kat.sha256> --manifest-key <label>/<file>]\n"
                            "       [--records N] [--timeout S] [--mem-limit-mb M] [--build-record <json>]\n"
                            "       [--write-kat <path>] [--kat-sha256 <hex>] [--expect VERDICT] [--log <path>]\n"
                            "       [--budget S]  (stop at a record boundary when the next record would end past S s)\n"
                            "       [--cap S]  (with only a manifest line for N records: run on to N past the timeout "
                            "while they fit S s)\n"
                            "       [--limit-floor S]  (once records ran, the rest gets 10x their pace, at least S s; "
                            "default 60)\n"
                            "       [--expect-detail <ERE>]  (the detail of an expected verdict must match it)\n";

static void add_event(int r, const char *text)
{
    if (r < 0 || r >= NGCC_MAX_RECORDS)
        return;
    record_state *s = &K.rec[r];
    if (s->nevents < MAX_EVENTS_PER_RECORD)
        snprintf(s->events[s->nevents++], sizeof s->events[0], "%s", text);
}

/* ---- operation times and the record budget ---- */
static const char *const OP_NAMES[NOPS] = {"keygen", "sign",  "verify", "enc",   "dec",      "init_a",
                                           "init_b", "pass1", "pass2",  "pass3", "derive_a", "derive_b",
                                           "pass4",  "pass5", "pass6",  "pass7", "pass8"};
/* the KEX function of each KEX operation name (from "init_a" on) */
static const char *const KEX_CALLS[NOPS - 5] = {"kex_init_a",
                                                "kex_init_b",
                                                "kex_generate_pass1_msg_a",
                                                "kex_generate_pass2_msg_b",
                                                "kex_generate_pass3_msg_a",
                                                "kex_derive_ss_a",
                                                "kex_derive_ss_b",
                                                "kex_generate_pass4_msg_b",
                                                "kex_generate_pass5_msg_a",
                                                "kex_generate_pass6_msg_b",
                                                "kex_generate_pass7_msg_a",
                                                "kex_generate_pass8_msg_b"};

static int op_index(const char *op)
{
    for (int i = 0; i < NOPS; i++)
        if (strcmp(op, OP_NAMES[i]) == 0)
            return i;
    return -1;
}

/* "sig_keygen" / "kem_enc": the API function of an operation name */
static void api_call_name(const char *op, char *out, size_t len)
{
    const cJSON *t = cJSON_GetObjectItem(K.meta, "type");
    int kem = cJSON_IsString(t) && strcmp(t->valuestring, "KEM") == 0;
    int i = op_index(op);
    if (i >= 5) {
        snprintf(out, len, "%s", KEX_CALLS[i - 5]);
        return;
    }
    snprintf(out, len, "%s_%s", kem ? "kem" : "sig", op[0] ? op : "?");
}

/* Record k is complete: decide whether record k+1 still fits the budget.
 * The next record is assumed to take as long as the longest so far; if it
 * would end past the budget the replay stops here (always after record 0,
 * never inside a record: a record that runs past the budget runs on until
 * the timeout, which is then TIMEOUT naming the operation). */
/* Without a KAT file, a manifest line is the only reference and it covers a
 * fixed number of records: when no line covers exactly the k+1 records run so
 * far but one covers N more, and N records still fit well inside the hard
 * timeout (each as long as the longest so far, 10% margin), run to N. */
static int budget_extend(int k, double now, double longest)
{
    if (K.have_ref || K.manifest_error || K.mcount == 0 || K.f.timeout <= 0)
        return 0;
    int want = 0;
    for (int i = 0; i < K.mcount; i++) {
        long n = K.mlines[i].records ? K.mlines[i].records : K.records;
        if (n == k + 1)
            return 0; /* a line covers exactly what was run */
        if (n > k + 1 && n <= K.records && (want == 0 || n < want))
            want = (int)n;
    }
    if (want == 0)
        return 0;
    double end = now + longest * (want - (k + 1));
    if (end > 0.9 * K.f.timeout && end > 0.9 * K.cap) {
        K.need_s = end;
        return 0;
    }
    K.extend_to = want;
    if (end <= 0.9 * K.f.timeout) {
        snprintf(K.budget_note, sizeof K.budget_note,
                 "after record %d (%.1f s) the next would end past the budget %.0f s, but the only reference covers %d "
                 "records (~%.0f s, inside the %.0f s timeout): ran on to them",
                 k, now, K.budget, want, end, K.f.timeout);
        return 1;
    }
    /* past the timeout, within the cap: the hard limit moves with the
     * prediction (a margin for the slowest record, never past the cap) */
    double limit = 1.25 * end + 10;
    if (limit > K.cap)
        limit = K.cap;
    K.deadline = K.child_t0 + limit;
    snprintf(K.budget_note, sizeof K.budget_note,
             "after record %d (%.1f s) the next would end past the budget %.0f s, but the only reference covers %d "
             "records (~%.0f s at %.1f s per record, past the %.0f s timeout but inside the kat cap of %.0f s, "
             "NGCC_KAT_CAP_S): ran on to them with the time limit raised to %.0f s",
             k, now, K.budget, want, end, longest, K.f.timeout, K.cap, limit);
    return 1;
}

/* the longest of records 0..k, from their end times */
static double longest_record(int k)
{
    double longest = 0;
    for (int i = 0; i <= k; i++) {
        double d = K.rec_end[i] - (i ? K.rec_end[i - 1] : 0);
        if (d > longest)
            longest = d;
    }
    return longest;
}

static void budget_after_record(int k)
{
    double now = ngcc_now() - K.child_t0;
    K.rec_end[k] = now;
    if (K.budget <= 0 || k + 1 >= K.records)
        return;
    double longest = longest_record(k);
    if (now + longest <= K.budget)
        return;
    if (K.extend_to > k + 1)
        return; /* extended for the only reference (below) */
    if (K.extend_to == 0 && budget_extend(k, now, longest))
        return;
    K.stopped = 1;
    K.run_records = k + 1;
    if (K.extend_to && K.deadline - K.child_t0 > K.f.timeout)
        snprintf(K.budget_note, sizeof K.budget_note,
                 "%d records would take ~%.0f s > budget %.0f s: ran the first %d, past the budget because the only "
                 "reference covers %d records and they fitted the kat cap of %.0f s, NGCC_KAT_CAP_S (%.1f s; the "
                 "time limit raised from %.0f s to %.0f s)",
                 K.records, now / (k + 1) * K.records, K.budget, k + 1, K.extend_to, K.cap, now, K.f.timeout,
                 K.deadline - K.child_t0);
    else if (K.extend_to)
        snprintf(K.budget_note, sizeof K.budget_note,
                 "%d records would take ~%.0f s > budget %.0f s: ran the first %d, past the budget because the only "
                 "reference covers %d records and they fitted the %.0f s timeout (%.1f s)",
                 K.records, now / (k + 1) * K.records, K.budget, k + 1, K.extend_to, K.f.timeout, now);
    else
        snprintf(K.budget_note, sizeof K.budget_note,
                 "%d records would take ~%.0f s > budget %.0f s: ran the first %d (%.1f s; the next record would end "
                 "at ~%.0f s)",
                 K.records, now / (k + 1) * K.records, K.budget, k + 1, now, now + longest);
}

/* The hard limit follows the measured records: once records have run, the
 * rest gets KAT_LIMIT_FACTOR times as long as they would take at the longest
 * record's pace, at least --limit-floor (60 s), never more than the limit set so
 * far. A record that took 0.1 s does not need 595 s: a hang later in the run
 * ends after a minute, not after the whole timeout. */
#define KAT_LIMIT_FACTOR 10.0
static void limit_after_record(int k)
{
    if (K.deadline <= 0 || k + 1 >= K.records)
        return;
    double longest = longest_record(k);
    double rest = KAT_LIMIT_FACTOR * longest * (K.records - (k + 1));
    double limit = ngcc_now() + (rest > K.limit_floor ? rest : K.limit_floor);
    if (limit < K.deadline)
        K.deadline = limit;
}

/* #B <record> <op> | #T <record> <op> <seconds> | #R <record> */
static void on_timing(const char *line)
{
    char op[16] = "";
    long r = -1;
    double sec = 0;
    if (line[1] == 'B' && sscanf(line + 3, "%ld %15s", &r, op) == 2) {
        snprintf(K.cur_op, sizeof K.cur_op, "%s", op);
        K.cur_op_rec = (int)r;
        K.cur_op_t0 = ngcc_now();
    } else if (line[1] == 'T' && sscanf(line + 3, "%ld %15s %lf", &r, op, &sec) == 3) {
        int i = op_index(op);
        if (i >= 0 && K.op_n[i] < NGCC_MAX_RECORDS) {
            if (!K.op_times[i])
                K.op_times[i] = calloc(NGCC_MAX_RECORDS, sizeof(double));
            K.op_times[i][K.op_n[i]++] = sec;
        }
        K.cur_op[0] = 0;
    } else if (line[1] == 'R' && sscanf(line + 3, "%ld", &r) == 1 && r >= 0 && r < NGCC_MAX_RECORDS) {
        K.rec[r].complete = 1;
        budget_after_record((int)r);
        limit_after_record((int)r);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* "op_seconds": {"keygen": {"max": s, "median": s, "min": s, "n": calls, "total": s}, ...}
 * (min and max: how much one operation's work varies with the record's seed) */
static void add_op_seconds(cJSON *r)
{
    int any = 0;
    for (int i = 0; i < NOPS; i++)
        any |= K.op_n[i] > 0;
    if (!any)
        return;
    cJSON *o = cJSON_AddObjectToObject(r, "op_seconds");
    for (int i = 0; i < NOPS; i++) {
        int n = K.op_n[i];
        if (n == 0)
            continue;
        double *v = malloc((size_t)n * sizeof *v);
        memcpy(v, K.op_times[i], (size_t)n * sizeof *v);
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        cJSON *e = cJSON_AddObjectToObject(o, OP_NAMES[i]);
        cJSON_AddNumberToObject(e, "max", v[n - 1]);
        cJSON_AddNumberToObject(e, "median", n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
        cJSON_AddNumberToObject(e, "min", v[0]);
        cJSON_AddNumberToObject(e, "n", n);
        /* the sum: what tools/bench/kat-overhead.cmake compares with a direct program */
        double total = 0;
        for (int k = 0; k < n; k++)
            total += v[k];
        cJSON_AddNumberToObject(e, "total", total);
        free(v);
    }
}

/* one line from the child, without its "\n" */
static void on_line(char *line, size_t len, FILE *kat_out)
{
    if (K.stopped)
        return; /* past the records the budget allows */
    if (line[0] == '#') {
        if (strncmp(line, "#EV ", 4) == 0) {
            char *end;
            long r = strtol(line + 4, &end, 10);
            char kind[32] = "";
            int off = 0;
            sscanf(end, " %31s %n", kind, &off);
            add_event((int)r, end + off);
            if (r >= 0 && r < NGCC_MAX_RECORDS) {
                if (!strcmp(kind, "overflow") || !strcmp(kind, "lenover"))
                    K.rec[r].overflow_bad = 1;
                else
                    K.rec[r].crypto_bad = 1;
            }
        } else if (strncmp(line, "#META ", 6) == 0) {
            char *key = line + 6, *sp = strchr(key, ' ');
            if (sp) {
                *sp = 0;
                cJSON_DeleteItemFromObject(K.meta, key);
                cJSON_AddStringToObject(K.meta, key, sp + 1);
            }
        } else if (strncmp(line, "#LOADFAIL", 9) == 0) {
            K.loadfail = 1;
            snprintf(K.loadfail_msg, sizeof K.loadfail_msg, "%s", line + (len > 10 ? 10 : len));
        } else if (strncmp(line, "#B ", 3) == 0 || strncmp(line, "#T ", 3) == 0 || strncmp(line, "#R ", 3) == 0) {
            on_timing(line);
        } else if (strncmp(line, "#STOP ", 6) == 0) {
            /* KEX: the official driver returns here; the record stays
             * incomplete, but the run ended as the official one does */
            long r = -1, code = 0;
            if (sscanf(line + 6, "%ld %ld", &r, &code) == 2) {
                K.kex_stop_record = (int)r;
                K.kex_stop_code = (int)code;
            }
            K.done = 1;
        } else if (strcmp(line, "#DONE") == 0) {
            K.done = 1;
            if (K.cur >= 0 && K.cur < NGCC_MAX_RECORDS)
                K.rec[K.cur].complete = 1;
        }
        return;
    }
    if (kat_out) {
        fwrite(line, 1, len, kat_out);
        fputc('\n', kat_out);
    }
    size_t cl = ngcc_canon_strip(line, len);
    if (cl == 0)
        return;
    long cnt;
    if (ngcc_canon_count_line(line, cl, &cnt) && cnt >= 0 && cnt < NGCC_MAX_RECORDS) {
        if (K.cur >= 0)
            K.rec[K.cur].complete = 1;
        K.cur = (int)cnt;
        K.rec[cnt].produced = 1;
    }
    ngcc_katdigest_line(K.digest, line, cl);
    if (K.have_ref)
        kat_compare_line(&K.cmp, line, cl);
}

/* the child's stream, line by line; stops at the record boundary asked for */
static int kat_line(char *line, size_t len, void *kat_out)
{
    on_line(line, len, kat_out);
    return K.stopped;
}

/* The kat.sha256 lines naming this instance's KAT file name (the part of
 * the key after the last '/'): real manifests key a line by the folder label
 * or by the ALGORITHM_INSTANCE name, so the label is not compared. Lines of
 * two different paths for one file name are an error naming both. */
static void manifest_lookup(void)
{
    K.mused = -1;
    if (!K.manifest || !K.mkey)
        return;
    int max = (int)(sizeof K.mlines / sizeof K.mlines[0]);
    K.mcount = ngcc_manifest_lines(K.manifest, K.mkey, K.mlines, max, &K.mbad);
    if (K.mcount < 0) {
        fprintf(stderr, "ngcc: %s: %s; the kat test runs without the manifest\n", K.manifest, strerror(errno));
        K.mcount = 0;
        return;
    }
    if (K.mcount > max)
        K.mcount = max;
    if (K.mbad.first)
        fprintf(stderr,
                "ngcc: %s line %ld: malformed, skipped; expected '<sha256> <strict|nolen>[:N] <label>/<file>'\n",
                K.manifest, K.mbad.first);
    const char *file = strrchr(K.mkey, '/');
    file = file ? file + 1 : K.mkey;
    for (int i = 0; i < K.mcount && !K.manifest_error; i++)
        for (int j = i + 1; j < K.mcount && !K.manifest_error; j++) {
            ngcc_manifest_line *a = &K.mlines[i], *b = &K.mlines[j];
            int other_path = strcmp(a->path, b->path) != 0;
            int contradict =
                !other_path && a->records == b->records && a->nolen == b->nolen && strcmp(a->hex, b->hex) != 0;
            if (!other_path && !contradict)
                continue;
            K.manifest_error = 1;
            snprintf(K.manifest_note, sizeof K.manifest_note,
                     "%s: line %ld (\"%.200s\") and line %ld (\"%.200s\") both name %s%s; keep only this "
                     "instance's line (%s) and delete or rename the other",
                     K.manifest, a->line, a->text, b->line, b->text, file,
                     other_path ? "" : " with different digests for the same records", K.mkey);
        }
}

/* After the run: the manifest line to check, preferring one that covers
 * exactly the records run, then the longest one within them, then (only to
 * say so) one that covers more. */
static void manifest_choose(void)
{
    int best = -1, within = -1, beyond = -1;
    if (K.manifest_error || K.mcount == 0)
        return;
    for (int i = 0; i < K.mcount; i++) {
        long n = K.mlines[i].records ? K.mlines[i].records : K.records;
        if (n == K.run_records && best < 0)
            best = i;
        else if (n < K.run_records) {
            long wn = within >= 0 ? (K.mlines[within].records ? K.mlines[within].records : K.records) : 0;
            if (n > wn)
                within = i;
        } else if (n > K.run_records) {
            long bn = beyond >= 0 ? (K.mlines[beyond].records ? K.mlines[beyond].records : K.records) : 0;
            if (beyond < 0 || n < bn)
                beyond = i;
        }
    }
    int pick = best >= 0 ? best : within >= 0 ? within : beyond;
    ngcc_manifest_line *m = &K.mlines[pick];
    K.mused = pick;
    K.have_manifest = 1;
    memcpy(K.manifest_hex, m->hex, sizeof K.manifest_hex);
    K.manifest_nolen = m->nolen;
    K.manifest_records = m->records;
    long n = m->records ? m->records : K.records;
    snprintf(K.manifest_note, sizeof K.manifest_note, "%s line %ld (\"%.300s\"): %s%ld records%s", K.manifest, m->line,
             m->text, m->records ? "" : "the whole file, taken as ", n,
             n == K.run_records  ? ", as many as were run"
             : n < K.run_records ? ", fewer than were run: the first ones are compared"
                                 : ", more than were run: it cannot be checked");
}

static void run_replay(void)
{
    if (K.ref && access(K.ref, R_OK) == 0) {
        if (kat_compare_open(&K.cmp, K.ref, K.records) == 0)
            K.have_ref = 1;
    }
    manifest_lookup();
    K.digest = ngcc_katdigest_new();
    FILE *kat_out = NULL;
    char *kat_tmp = NULL;
    if (K.write_kat) {
        ngcc_mkdirs(K.write_kat, 0);
        if (asprintf(&kat_tmp, "%s.tmp", K.write_kat) > 0)
            kat_out = fopen(kat_tmp, "wb");
        if (!kat_out)
            fprintf(stderr, "ngcc: cannot write %s\n", K.write_kat);
    }

    kat_replay_args args = {K.f.lib, K.records, 0};
    /* the child's own limit is the cap: the read deadline below (which the
     * budget may move up to the cap) decides when it is killed */
    ngcc_child_opts opts = {K.cap > K.f.timeout ? K.cap : K.f.timeout, K.f.mem_mb, K.f.log};
    int rfd = -1;
    K.cur = -1;
    K.child_t0 = ngcc_now();
    K.deadline = K.f.timeout > 0 ? ngcc_now() + K.f.timeout : 0;
    pid_t pid = ngcc_child_start(kat_replay_child, &args, &opts, &rfd);
    if (pid < 0) {
        K.f.verdict = NGCC_ERROR;
        snprintf(K.f.detail, sizeof K.f.detail, "cannot fork: %s", strerror(errno));
        return;
    }
    int timed_out = ngcc_child_read_lines_moving(rfd, &K.deadline, kat_line, kat_out) == NGCC_LINES_TIMEOUT;
    close(rfd);
    ngcc_child_wait(pid, (timed_out || K.stopped) ? ngcc_now() : 0, &K.child);
    if (timed_out)
        K.child.end = NGCC_CHILD_TIMEDOUT;
    if (K.stopped) {
        /* stopped by us at a record boundary: the records run are complete
         * and the kill is ours, not a timeout or a crash */
        K.child.end = NGCC_CHILD_EXITED;
        K.child.code = 0;
        K.done = 1;
        K.cmp.records = K.run_records;
    }
    ngcc_katdigest_finish(K.digest);
    if (K.have_ref)
        kat_compare_finish(&K.cmp, K.done);
    manifest_choose();
    if (kat_out) {
        fclose(kat_out);
        if (rename(kat_tmp, K.write_kat) == 0)
            ngcc_sha256_file(K.write_kat, K.written_sha);
    }
    free(kat_tmp);
}

static int records_produced(void)
{
    int n = 0;
    while (n < K.run_records && K.rec[n].complete)
        n++;
    return n;
}

static void judge(void)
{
    ngcc_verdict v = NGCC_PASS;
    char *d = K.f.detail;
    size_t dl = sizeof K.f.detail;
    int done_records = records_produced();
    const char *p;
    if (K.loadfail) {
        snprintf(d, dl, "cannot load the instance library: %s", K.loadfail_msg);
        K.f.verdict = NGCC_LOADFAIL;
        return;
    }
    if (K.child.end == NGCC_CHILD_TIMEDOUT) {
        char call[32] = "";
        double waited = K.deadline - K.child_t0; /* the timeout, or the limit the cap raised it to */
        if (K.cur_op[0]) {
            api_call_name(K.cur_op, call, sizeof call);
            snprintf(d, dl,
                     "no result after %.0f s, in record %d inside %s (running for %.0f s; %d of %d records "
                     "complete); raise the \"timeouts\" {\"kat\": S} override",
                     waited, K.cur_op_rec, call, ngcc_now() - K.cur_op_t0, done_records, K.records);
        } else {
            snprintf(d, dl,
                     "no result after %.0f s, in record %d (%d of %d records complete); raise the "
                     "\"timeouts\" {\"kat\": S} override or reduce \"kat_records\"",
                     waited, K.cur < 0 ? 0 : K.cur, done_records, K.records);
        }
        if (waited + 0.5 < K.f.timeout) {
            size_t l = strlen(d);
            snprintf(d + l, dl - l,
                     " (the limit was cut from the %.0f s timeout to %.0f s: %.0f times the rest of the run at the "
                     "measured records' pace, at least %.0f s)",
                     K.f.timeout, waited, KAT_LIMIT_FACTOR, K.limit_floor);
        }
        K.f.verdict = NGCC_TIMEOUT;
        return;
    }
    if (!K.stopped && (K.child.end == NGCC_CHILD_SIGNALED || !K.done)) {
        if (K.child.end == NGCC_CHILD_SIGNALED)
            snprintf(d, dl, "killed by signal %d (%s) in record %d (%d of %d records complete)", K.child.code,
                     strsignal(K.child.code), K.cur < 0 ? 0 : K.cur, done_records, K.records);
        else
            snprintf(d, dl, "the instance ended the process (exit code %d) in record %d (%d of %d records complete)",
                     K.child.code, K.cur < 0 ? 0 : K.cur, done_records, K.records);
        K.f.verdict = NGCC_CRASH;
        return;
    }
    for (int r = 0; r < K.run_records && v < NGCC_OVERFLOW; r++)
        if (K.rec[r].overflow_bad) {
            v = NGCC_OVERFLOW;
            snprintf(d, dl, "record %d: %s", r, K.rec[r].events[0]);
        }
    for (int r = 0; r < K.run_records && v < NGCC_CRYPTOFAIL; r++)
        if (K.rec[r].crypto_bad) {
            v = NGCC_CRYPTOFAIL;
            snprintf(d, dl, "record %d: %s", r, K.rec[r].events[0]);
        }
    /* text comparison (reported even when crypto failed) */
    const int R = K.run_records;
    const char *pd = ngcc_katdigest_get(K.digest, 0, R);
    const char *pn = ngcc_katdigest_get(K.digest, 1, R);
    snprintf(K.produced_hex, sizeof K.produced_hex, "%s", pd ? pd : "");
    snprintf(K.produced_nolen_hex, sizeof K.produced_nolen_hex, "%s", pn ? pn : "");
    char text[1100] = "", note[1000] = "";
    ngcc_verdict tv = NGCC_PASS;
    if (K.have_ref && K.cmp.mismatch && K.cmp.ref_damaged) { /* the reference's fault, not the candidate's */
        tv = NGCC_NOKAT;
        snprintf(text, sizeof text,
                 "the reference %s is damaged: %s; the %ld records before it matched; replace the file (or add a "
                 "kat.sha256 line) to check record %ld on",
                 K.ref, K.cmp.damage, K.cmp.mm_record, K.cmp.mm_record);
    } else if (K.have_ref && K.cmp.mismatch) {
        tv = NGCC_MISMATCH;
        snprintf(text, sizeof text, "record %ld differs at line %ld column %ld of %s: expected \"%s\", got \"%s\"",
                 K.cmp.mm_record, K.cmp.mm_line, K.cmp.mm_col, K.ref, K.cmp.mm_expected, K.cmp.mm_got);
    }
    if (K.have_manifest) {
        long n = K.manifest_records ? K.manifest_records : K.records;
        p = (n <= R) ? ngcc_katdigest_get(K.digest, K.manifest_nolen, n) : NULL;
        if (!p) {
            if (tv == NGCC_PASS && !K.have_ref) {
                tv = NGCC_NOKAT;
                snprintf(text, sizeof text,
                         "the only reference, %s, covers %ld records but %d were run; "
                         "add a ':%d' manifest line (ngcc-manifest --records %d)%s",
                         K.manifest_note, n, R, R, R,
                         K.stopped ? " or raise NGCC_KAT_BUDGET_S" : " or raise \"kat_records\"");
                if (K.stopped && K.need_s > 0) {
                    size_t l = strlen(text);
                    snprintf(text + l, sizeof text - l,
                             "; all %ld would need ~%.0f s, past the %.0f s timeout and the kat cap of %.0f s: "
                             "raise NGCC_KAT_CAP_S (or \"timeouts\": {\"kat_cap\": S}) to %.0f s or more",
                             n, K.need_s, K.f.timeout, K.cap > K.f.timeout ? K.cap : K.f.timeout, K.need_s / 0.9 + 1);
                }
            } else {
                snprintf(note, sizeof note, "; not checked: %s", K.manifest_note);
            }
        } else if (K.manifest_checked = 1, strcmp(p, K.manifest_hex) != 0) {
            K.manifest_ok = 0;
            if (tv == NGCC_PASS) {
                tv = NGCC_MISMATCH;
                snprintf(text, sizeof text,
                         "canonical SHA-256 of the first %ld records (%s) is %s, manifest %s says %s", n,
                         K.manifest_nolen ? "nolen" : "strict", p, K.manifest, K.manifest_hex);
            }
        } else {
            K.manifest_ok = 1;
        }
    }
    if (K.manifest_error) {
        tv = NGCC_ERROR;
        snprintf(text, sizeof text, "ambiguous manifest: %s", K.manifest_note);
    } else if (!K.have_ref && !K.have_manifest && !K.kat_sha256 && K.mbad.for_file) {
        tv = NGCC_NOKAT;
        snprintf(text, sizeof text,
                 "%s line %ld names this KAT file but is malformed (%s): '%.200s'; fix it to '<sha256> "
                 "<strict|nolen>[:N] <label>/<file>'; the produced text's canonical SHA-256 is %s",
                 K.manifest, K.mbad.for_file, K.mbad.why, K.mbad.text, K.produced_hex);
    } else if (!K.have_ref && !K.have_manifest && !K.kat_sha256) {
        tv = NGCC_NOKAT;
        snprintf(text, sizeof text,
                 "no submitted KAT file (%s) and no kat.sha256 manifest line%s%s; put the file "
                 "under Test_Vector/ or add a manifest line; the produced text's canonical SHA-256 is %s",
                 K.mkey ? K.mkey : "?", K.manifest ? " for that file name in " : "", K.manifest ? K.manifest : "",
                 K.produced_hex);
    }
    if (K.kat_sha256 && strcmp(K.kat_sha256, K.written_sha) != 0 && tv == NGCC_PASS) {
        tv = NGCC_MISMATCH;
        snprintf(text, sizeof text, "written KAT file %s has SHA-256 %s, expected %s",
                 K.write_kat ? K.write_kat : "(none: pass --write-kat)", K.written_sha, K.kat_sha256);
    }
    if (tv > v) {
        v = tv;
        snprintf(d, dl, "%s", text);
    } else if (tv != NGCC_PASS) {
        size_t l = strlen(d);
        snprintf(d + l, dl - l, "; text: %s", text);
    } else if (v != NGCC_PASS) {
        size_t l = strlen(d);
        snprintf(d + l, dl - l, "; KAT text matches");
    }
    if (v == NGCC_PASS) {
        int checked = K.have_manifest && K.manifest_ok;
        long mn = K.manifest_records ? K.manifest_records : K.records;
        if (checked && !K.have_ref && mn < R)
            snprintf(d, dl, "%d records run, the first %ld match the manifest digest", R, mn);
        else
            snprintf(d, dl, "%d/%d records match%s%s%s%s", R, R, K.have_ref ? " " : "", K.have_ref ? K.ref : "",
                     checked ? (K.have_ref ? " and the manifest digest" : " the manifest digest") : "",
                     K.kat_sha256 ? " (written KAT file has the expected SHA-256)" : "");
        if (K.have_ref && K.cmp.tolerated_blank_len) {
            size_t l = strlen(d);
            snprintf(d + l, dl - l, " (%ld blank _Len lines in the reference tolerated)", K.cmp.tolerated_blank_len);
        }
        if (checked) {
            size_t l = strlen(d);
            snprintf(d + l, dl - l, " (%s)", K.manifest_note);
        }
    }
    if (note[0]) {
        size_t l = strlen(d);
        snprintf(d + l, dl - l, "%s", note);
    }
    if (K.stopped) {
        size_t l = strlen(d);
        snprintf(d + l, dl - l, "; reduced: %s", K.budget_note);
    } else if (K.extend_to) {
        size_t l = strlen(d);
        snprintf(d + l, dl - l, "; extended: %s", K.budget_note);
    }
    K.f.verdict = v;
}

/* A TIMEOUT inside a call that ran far longer than any earlier call of the
 * same operation (or that never returned once) is a hang of the honest flow:
 * the later labels of the instance call it too, so they read the marker
 * (ngcc_hang.h) and SKIP. A slow run cut by the timeout between calls, or
 * inside a call as slow as the earlier ones, leaves none. */
static void remember_hang(void)
{
    if (K.f.verdict != NGCC_TIMEOUT || !K.cur_op[0]) {
        ngcc_hang_clear(K.f.record_out, "kat");
        return;
    }
    int i = op_index(K.cur_op);
    double longest = 0, running = ngcc_now() - K.cur_op_t0;
    for (int c = 0; i >= 0 && c < K.op_n[i]; c++)
        if (K.op_times[i][c] > longest)
            longest = K.op_times[i][c];
    if (i >= 0 && K.op_n[i] > 0 && running < 10 * longest) {
        ngcc_hang_clear(K.f.record_out, "kat");
        return;
    }
    char call[32], test[300];
    api_call_name(K.cur_op, call, sizeof call);
    snprintf(test, sizeof test, "kat/%s", K.f.name);
    ngcc_hang_note(K.f.record_out, "kat", test, call, running, K.f.detail, K.f.lib);
}

/* The MEMLIMIT rule of ngcc_child.h: a failure that followed an allocation
 * failing under the memory limit was caused by the limit. */
static void apply_memlimit(void)
{
    if (!K.child.memlimit || K.f.verdict == NGCC_PASS || K.f.verdict == NGCC_BUILDFAIL || K.f.verdict == NGCC_ERROR)
        return;
    char mem[300], was[sizeof K.f.detail];
    ngcc_child_memlimit_detail(&K.child, mem, sizeof mem);
    snprintf(was, sizeof was, "%s", K.f.detail);
    snprintf(K.f.detail, sizeof K.f.detail, "%.300s (it then looked like %s: %.250s)", mem,
             ngcc_verdict_name(K.f.verdict), was);
    K.f.verdict = NGCC_MEMLIMIT;
}

/* ---- CMocka cases: one per record for the text, one per record for crypto ---- */
typedef struct {
    int r;
} case_arg;

static void case_text(void **state)
{
    int r = ((case_arg *)*state)->r;
    if (!K.rec[r].complete)
        fail_msg("record %d was not produced completely (%s)", r, ngcc_verdict_name(K.f.verdict));
    if (K.have_ref) {
        if (K.cmp.record_bad[r] && K.cmp.mm_record == r)
            fail_msg("record %d text differs from %s: first difference at line %ld column %ld", r, K.ref, K.cmp.mm_line,
                     K.cmp.mm_col);
        if (K.cmp.record_bad[r])
            fail_msg("record %d text differs from %s", r, K.ref);
    } else if (K.have_manifest) {
        if (!K.manifest_ok)
            fail_msg("record %d: the canonical digest does not match the manifest (no per-record detail)", r);
    } else if (K.kat_sha256) {
        if (strcmp(K.kat_sha256, K.written_sha) != 0)
            fail_msg("record %d: the written KAT file's SHA-256 %s is not %s (no per-record detail)", r, K.written_sha,
                     K.kat_sha256);
    } else {
        fail_msg("record %d: no reference to compare with (NOKAT)", r);
    }
}

static void case_crypto(void **state)
{
    int r = ((case_arg *)*state)->r;
    if (!K.rec[r].complete)
        fail_msg("record %d was not produced completely (%s)", r, ngcc_verdict_name(K.f.verdict));
    if (K.rec[r].crypto_bad || K.rec[r].overflow_bad)
        fail_msg("record %d: %s", r, K.rec[r].events[0]);
}

static int run_cases(const char *group)
{
    int n = K.run_records;
    struct CMUnitTest *tests = calloc((size_t)(2 * n), sizeof *tests);
    case_arg *args = calloc((size_t)n, sizeof *args);
    char(*names)[48] = calloc((size_t)(2 * n), sizeof *names);
    const cJSON *type = cJSON_GetObjectItem(K.meta, "type");
    int is_kem =
        cJSON_IsString(type) && (strcmp(type->valuestring, "KEM") == 0 || strcmp(type->valuestring, "KEX") == 0);
    for (int r = 0; r < n; r++) {
        args[r].r = r;
        snprintf(names[2 * r], 48, "record_%02d_text", r);
        snprintf(names[2 * r + 1], 48, is_kem ? "record_%02d_shared_secret" : "record_%02d_honest_verify", r);
        tests[2 * r] = (struct CMUnitTest){names[2 * r], case_text, NULL, NULL, &args[r]};
        tests[2 * r + 1] = (struct CMUnitTest){names[2 * r + 1], case_crypto, NULL, NULL, &args[r]};
    }
    int failed = _cmocka_run_group_tests(group, tests, (size_t)(2 * n), NULL, NULL);
    free(tests);
    free(args);
    free(names);
    return failed;
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&K.f);
    cJSON_AddStringToObject(r, "library", K.f.lib);
    char sha[65] = "";
    if (ngcc_sha256_file(K.f.lib, sha) == 0)
        cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddItemToObject(r, "meta", cJSON_Duplicate(K.meta, 1));
    cJSON *ref = cJSON_AddObjectToObject(r, "reference");
    cJSON_AddStringToObject(ref, "file", K.have_ref ? K.ref : "");
    cJSON_AddStringToObject(ref, "manifest", K.have_manifest ? K.manifest : "");
    if (K.have_manifest) {
        cJSON_AddStringToObject(ref, "manifest_mode", K.manifest_nolen ? "nolen" : "strict");
        cJSON_AddNumberToObject(ref, "manifest_records", (double)K.manifest_records);
        cJSON_AddStringToObject(ref, "manifest_sha256", K.manifest_hex);
    }
    cJSON_AddNumberToObject(ref, "tolerated_blank_len", K.have_ref ? (double)K.cmp.tolerated_blank_len : 0);
    cJSON_AddStringToObject(ref, "manifest_searched", K.manifest ? K.manifest : "");
    cJSON_AddStringToObject(ref, "manifest_file_name",
                            K.mkey ? (strrchr(K.mkey, '/') ? strrchr(K.mkey, '/') + 1 : K.mkey) : "");
    cJSON *cand = cJSON_AddArrayToObject(ref, "manifest_candidates");
    for (int i = 0; i < K.mcount; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddNumberToObject(c, "line", (double)K.mlines[i].line);
        cJSON_AddStringToObject(c, "text", K.mlines[i].text);
        cJSON_AddItemToArray(cand, c);
    }
    if (K.mused >= 0) {
        cJSON *u = cJSON_AddObjectToObject(ref, "manifest_line");
        cJSON_AddNumberToObject(u, "line", (double)K.mlines[K.mused].line);
        cJSON_AddStringToObject(u, "text", K.mlines[K.mused].text);
        cJSON_AddStringToObject(u, "path", K.mlines[K.mused].path);
        cJSON_AddBoolToObject(u, "checked", K.manifest_checked);
        cJSON_AddBoolToObject(u, "match", K.manifest_ok);
    }
    cJSON_AddBoolToObject(ref, "manifest_ambiguous", K.manifest_error);
    cJSON_AddStringToObject(ref, "manifest_decision", K.manifest_note);
    cJSON *bud = cJSON_AddObjectToObject(r, "budget");
    cJSON_AddNumberToObject(bud, "budget_s", K.budget);
    cJSON_AddNumberToObject(bud, "timeout_s", K.f.timeout);
    cJSON_AddNumberToObject(bud, "cap_s", K.cap);
    cJSON_AddNumberToObject(bud, "time_limit_s", K.deadline > 0 ? K.deadline - K.child_t0 : 0);
    cJSON_AddNumberToObject(bud, "records_requested", K.records);
    cJSON_AddNumberToObject(bud, "records_run", K.run_records);
    cJSON_AddBoolToObject(bud, "reduced", K.stopped);
    cJSON_AddNumberToObject(bud, "extended_to", K.extend_to);
    cJSON_AddStringToObject(bud, "decision",
                            K.stopped || K.extend_to ? K.budget_note
                            : K.budget > 0           ? "every record fitted the budget (or the run ended otherwise)"
                                                     : "no budget");
    cJSON *rs = cJSON_AddArrayToObject(bud, "record_seconds");
    for (int i = 0; i < K.run_records && K.rec[i].complete; i++)
        cJSON_AddItemToArray(rs, cJSON_CreateNumber(K.rec_end[i] - (i ? K.rec_end[i - 1] : 0)));
    add_op_seconds(r);
    if (K.kex_stop_code) {
        /* KEX: where the official driver returned and with what */
        cJSON_AddNumberToObject(r, "kex_driver_code", K.kex_stop_code);
        cJSON_AddNumberToObject(r, "kex_stop_record", K.kex_stop_record);
    }
    cJSON_AddNumberToObject(r, "records_requested", K.records);
    cJSON_AddNumberToObject(r, "records_run", K.run_records);
    cJSON_AddNumberToObject(r, "records_complete", records_produced());
    cJSON_AddStringToObject(r, "produced_sha256_strict", K.produced_hex);
    cJSON_AddStringToObject(r, "produced_sha256_nolen", K.produced_nolen_hex);
    if (K.write_kat) {
        cJSON_AddStringToObject(r, "written_kat", K.write_kat);
        cJSON_AddStringToObject(r, "written_kat_sha256", K.written_sha);
    }
    if (K.have_ref && K.cmp.mismatch) {
        cJSON *mm = cJSON_AddObjectToObject(r, "first_mismatch");
        cJSON_AddNumberToObject(mm, "record", (double)K.cmp.mm_record);
        cJSON_AddNumberToObject(mm, "line", (double)K.cmp.mm_line);
        cJSON_AddNumberToObject(mm, "column", (double)K.cmp.mm_col);
        cJSON_AddStringToObject(mm, "expected", K.cmp.mm_expected);
        cJSON_AddStringToObject(mm, "got", K.cmp.mm_got);
    }
    cJSON *recs = cJSON_AddArrayToObject(r, "records");
    for (int i = 0; i < K.records; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "count", i);
        const char *text = i >= K.run_records   ? "notrun_budget"
                           : !K.rec[i].complete ? "notrun"
                                                : (K.have_ref        ? (K.cmp.record_bad[i] ? "mismatch" : "match")
                                                   : K.have_manifest ? (K.manifest_ok ? "match" : "mismatch")
                                                                     : "noref");
        cJSON_AddStringToObject(o, "text", text);
        cJSON_AddStringToObject(o, "crypto",
                                i >= K.run_records      ? "notrun_budget"
                                : !K.rec[i].complete    ? "notrun"
                                : K.rec[i].overflow_bad ? "overflow"
                                : K.rec[i].crypto_bad   ? "fail"
                                                        : "ok");
        cJSON *ev = cJSON_AddArrayToObject(o, "events");
        for (int e = 0; e < K.rec[i].nevents; e++)
            cJSON_AddItemToArray(ev, cJSON_CreateString(K.rec[i].events[e]));
        cJSON_AddItemToArray(recs, o);
    }
    cJSON *ch = cJSON_AddObjectToObject(r, "child");
    cJSON_AddStringToObject(ch, "end",
                            K.stopped                            ? "stopped_at_budget"
                            : K.child.end == NGCC_CHILD_EXITED   ? "exited"
                            : K.child.end == NGCC_CHILD_SIGNALED ? "signaled"
                                                                 : "timeout");
    cJSON_AddNumberToObject(ch, "code", K.child.code);
    cJSON_AddNumberToObject(ch, "seconds", K.child.seconds);
    cJSON_AddStringToObject(ch, "sandbox", K.child.sandbox);
    cJSON_AddNumberToObject(ch, "memory_limit_mb", (double)K.child.mem_limit_mb);
    cJSON_AddNumberToObject(ch, "alloc_failures", (double)K.child.alloc_failures);
    cJSON_AddNumberToObject(ch, "alloc_fail_bytes", (double)K.child.alloc_fail_bytes);
    cJSON_AddBoolToObject(ch, "oom_text", K.child.oom_text);
    ngcc_frame_record_write(&K.f, r, NULL); /* + verdict, detail, expected, inputs, fingerprint */
    cJSON_Delete(r);
}

/* kat's own options (the common ones are the frame's) */
static int own_option(ngcc_frame *f, int c, const char *v)
{
    double d;
    switch (c) {
    case 'r':
        K.ref = v[0] ? v : NULL;
        return 0;
    case 'm':
        K.manifest = v[0] ? v : NULL;
        return 0;
    case 'k':
        K.mkey = v;
        return 0;
    case 'w':
        K.write_kat = v[0] ? v : NULL;
        return 0;
    case 'B':
        return ngcc_frame_number(f, "budget", v, 0, 1e7, &K.budget);
    case 'C':
        return ngcc_frame_number(f, "cap", v, 0, 1e7, &K.cap);
    case 'F':
        return ngcc_frame_number(f, "limit-floor", v, 0, 1e7, &K.limit_floor);
    case 'D': {
        regex_t re;
        if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) {
            fprintf(stderr, "ngcc-kat: --expect-detail %s: not a valid extended regular expression\n", v);
            return -1;
        }
        regfree(&re);
        K.expect_detail = v;
        return 0;
    }
    case 'N':
        if (ngcc_frame_number(f, "records", v, 1, NGCC_MAX_RECORDS, &d))
            return -1;
        K.records = (int)d;
        if (K.records != d) {
            fprintf(stderr, "ngcc-kat: --records %s: expected a whole number of records\n", v);
            return -1;
        }
        return 0;
    case 's':
        if (strlen(v) != 64 || strspn(v, "0123456789abcdef") != 64) {
            fprintf(stderr, "ngcc-kat: --kat-sha256 %s: expected 64 lowercase hex digits (a SHA-256)\n", v);
            return -1;
        }
        K.kat_sha256 = v;
        return 0;
    }
    return -1;
}

/* NGCC_RESUME=1 keeps a finished record only while the KAT file it wrote
 * (--write-kat) is still there unchanged: 1 to let the frame resume, 0 to
 * run again. */
static int written_kat_kept(void)
{
    if (!K.write_kat || !ngcc_resume_requested())
        return 1;
    ngcc_inputs_fingerprint(K.f.inputs, K.f.fingerprint);
    cJSON *r = ngcc_resume_load(K.f.record_out, K.f.fingerprint);
    if (!r)
        return 1; /* nothing to resume: the frame says so */
    const cJSON *wsha = cJSON_GetObjectItem(r, "written_kat_sha256");
    char sha[65] = "";
    int kept = ngcc_sha256_file(K.write_kat, sha) == 0 && cJSON_IsString(wsha) && strcmp(sha, wsha->valuestring) == 0;
    cJSON_Delete(r);
    return kept;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"ref", 1, 0, 'r'},
                                       {"manifest", 1, 0, 'm'},
                                       {"manifest-key", 1, 0, 'k'},
                                       {"records", 1, 0, 'N'},
                                       {"write-kat", 1, 0, 'w'},
                                       {"kat-sha256", 1, 0, 's'},
                                       {"budget", 1, 0, 'B'},
                                       {"expect-detail", 1, 0, 'D'},
                                       {"cap", 1, 0, 'C'},
                                       {"limit-floor", 1, 0, 'F'},
                                       {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"kat", "ngcc-kat", usage, lo, own_option, 0, NULL};
    K.records = 10;
    K.limit_floor = 60;
    int rc = ngcc_frame_parse(&K.f, &spec, argc, argv);
    if (rc)
        return rc;
    K.run_records = K.records;
    /* the verdict also depends on the reference and the manifest */
    ngcc_inputs_add_file(K.f.inputs, "reference_sha256", K.ref);
    ngcc_inputs_add_file(K.f.inputs, "manifest_sha256", K.manifest);
    if (written_kat_kept() && (rc = ngcc_frame_resume(&K.f)) >= 0) {
        ngcc_frame_free(&K.f);
        return rc;
    }
    K.meta = cJSON_CreateObject();
    if (!ngcc_frame_check_build(&K.f)) {
        if (K.f.log)
            ngcc_mkdirs(K.f.log, 0);
        run_replay();
        if (K.f.verdict != NGCC_ERROR)
            judge();
        apply_memlimit();
        remember_hang();
    }
    ngcc_child_show_log(K.f.log, 4096);
    write_record();
    run_cases(K.f.name);
    if (K.have_ref)
        kat_compare_close(&K.cmp);
    ngcc_katdigest_free(K.digest);
    for (int i = 0; i < NOPS; i++)
        free(K.op_times[i]);
    cJSON_Delete(K.meta);
    /* an expected verdict must also say why (zoo "expect": {"kat.detail": ERE}) */
    int detail_ok = 1;
    if (K.expect_detail && K.f.verdict == K.f.expect) {
        regex_t re;
        regcomp(&re, K.expect_detail, REG_EXTENDED | REG_NOSUB);
        detail_ok = regexec(&re, K.f.detail, 0, NULL, 0) == 0;
        regfree(&re);
        if (!detail_ok)
            fprintf(stderr, "ngcc: kat %s: the verdict is the expected %s but its detail does not match /%s/\n",
                    K.f.name, ngcc_verdict_name(K.f.verdict), K.expect_detail);
    }
    rc = ngcc_frame_finish(&K.f);
    return rc == 0 && !detail_ok ? 1 : rc;
}
