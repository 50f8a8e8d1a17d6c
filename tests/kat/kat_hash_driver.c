/* ngcc-kat-hash: one KAT file of a hash instance (CTest label "kat", test
 * kat/<cand>/<inst>/<2_12|2_23|2_33|loop>). Replays that generator of the
 * official KAT_CryptHash.c in a child (kat_replay_hash.c), compares the
 * streamed text with the submitted KAT file (canonical lines: CR, trailing
 * blanks and empty lines ignored) and/or a kat.sha256 manifest line naming
 * the file (canonical SHA-256 of the whole file), prints one verdict line
 * and writes one JSON record with the run time and the child's peak RSS.
 * KAT_2_33 needs a 1 GiB message buffer: with --mode reduced, or when the
 * memory limit leaves no room for it, it is SKIP naming how to run it.
 * With --cap S, KAT_2_33 and KAT_Loop are first predicted (kat_hash_speed.h):
 * when the prediction x MARGIN exceeds S, SKIP with the prediction and the
 * command that runs it, before any hashing; the driver, not CTest, decides. */
#define _GNU_SOURCE
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "kat_hash_speed.h"
#include "kat_replay_hash.h"
#include "ngcc_canon.h"
#include "ngcc_child.h"
#include "ngcc_frame.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"

/* 1 GiB message + the harness's and the library's own use (a margin) */
#define BIG_MSG_MB 1024
#define BIG_MARGIN_MB 256
/* a file runs when its prediction x MARGIN fits the cap: the prediction
 * comes from a few seconds of KAT_2_12/2_23, on a host that may be loaded */
#define MARGIN 2.0

static struct {
    ngcc_frame f;
    const char *ref, *manifest, *mkey, *write_kat, *kat_sha256, *expect_detail, *mode;
    kat_hash_file file;
    int file_set;
    /* the run */
    ngcc_child_result child;
    int loadfail, done, err_code, records_complete, cur_record;
    char loadfail_msg[512], err_msg[400];
    double seconds, cpu_seconds;
    long peak_rss_kb;
    cJSON *meta;
    ngcc_katdigest *digest;
    char produced[65], produced_nolen[65], written_sha[65];
    /* reference file comparison */
    FILE *reff;
    char *rbuf;
    size_t rcap;
    long ref_line, prod_record;
    int have_ref, mismatch, ref_done;
    long mm_record, mm_line;
    char mm_field[64], mm_expected[136], mm_got[136];
    /* manifest */
    ngcc_manifest_line ml[4];
    int mcount, have_manifest, manifest_ok, manifest_error;
    ngcc_manifest_bad mbad;
    char manifest_note[600];
    /* memory budget of KAT_2_33 */
    unsigned long need_mb;
    /* time budget of KAT_2_33 and KAT_Loop (--cap) */
    double cap;
    const char *cap_knob, *build_dir, *speed_records;
    kat_hash_prediction pred;
    int predicted;
    kat_hash_timing timing; /* this run's "#T" line */
    int have_timing;
} H;

static const char usage[] =
    "usage: ngcc-kat-hash --lib <instance.so> --name <cand>/<inst> --record-out <file.json>\n"
    "       --file <2_12|2_23|2_33|loop> [--ref <KAT file>] [--manifest <kat.sha256> --manifest-key <label>/<file>]\n"
    "       [--mode full|reduced] (reduced: KAT_2_33 is SKIP) [--timeout S] [--mem-limit-mb M]\n"
    "       [--build-record <json>] [--write-kat <path>] [--kat-sha256 <hex>] [--expect VERDICT]\n"
    "       [--expect-detail <ERE>] [--log <path>]\n"
    "       [--cap S [--cap-knob cache|override] [--build-dir DIR] [--speed-records DIR]] (2_33, loop: SKIP when\n"
    "       the predicted time x 2 exceeds S s; the speed from DIR/kat-2_12.json, kat-2_23.json or a probe)\n";

/* ---- the reference file, canonical line by canonical line ---- */
static long ref_next(void)
{
    for (;;) {
        ssize_t n = getline(&H.rbuf, &H.rcap, H.reff);
        if (n < 0)
            return -1;
        H.ref_line++;
        size_t l = ngcc_canon_strip(H.rbuf, (size_t)n);
        if (l)
            return (long)l;
    }
}

static void set_mismatch(const char *exp, size_t el, const char *got, size_t gl)
{
    if (H.mismatch)
        return;
    H.mismatch = 1;
    H.mm_record = H.prod_record < 0 ? 0 : H.prod_record;
    H.mm_line = H.ref_line;
    const char *src = el ? exp : got;
    size_t fl = strcspn(src, " =");
    snprintf(H.mm_field, sizeof H.mm_field, "%.*s", (int)(fl < 63 ? fl : 63), src);
    snprintf(H.mm_expected, sizeof H.mm_expected, "%.*s%s", (int)(el > 120 ? 120 : el), exp, el > 120 ? "..." : "");
    snprintf(H.mm_got, sizeof H.mm_got, "%.*s%s", (int)(gl > 120 ? 120 : gl), got, gl > 120 ? "..." : "");
}

static void ref_compare(const char *line, size_t len)
{
    if (H.mismatch || H.ref_done)
        return;
    long rl = ref_next();
    if (rl < 0) {
        H.ref_done = 1;
        static const char end[] = "(end of reference file)";
        set_mismatch(end, sizeof end - 1, line, len);
        return;
    }
    if ((size_t)rl != len || memcmp(H.rbuf, line, len) != 0)
        set_mismatch(H.rbuf, (size_t)rl, line, len);
}

static void ref_finish(void)
{
    if (H.mismatch || H.ref_done || !H.done)
        return;
    long rl = ref_next();
    if (rl >= 0) {
        static const char end[] = "(end of produced text)";
        set_mismatch(H.rbuf, (size_t)rl, end, sizeof end - 1);
    }
}

/* ---- the child's stream ---- */
static void on_line(char *line, size_t len, FILE *kat_out)
{
    if (line[0] == '#') {
        if (strncmp(line, "#META ", 6) == 0) {
            char *key = line + 6, *sp = strchr(key, ' ');
            if (sp) {
                *sp = 0;
                /* the run's CPU time is a measurement, not an instance fact: kept out of meta
                   so records of one instance compare equal across runs (selftest/shard/ci) */
                if (strcmp(key, "cpu_seconds") == 0) {
                    H.cpu_seconds = atof(sp + 1);
                } else {
                    cJSON_DeleteItemFromObject(H.meta, key);
                    cJSON_AddStringToObject(H.meta, key, sp + 1);
                }
            }
        } else if (strncmp(line, "#LOADFAIL", 9) == 0) {
            H.loadfail = 1;
            snprintf(H.loadfail_msg, sizeof H.loadfail_msg, "%s", line + (len > 10 ? 10 : len));
        } else if (strncmp(line, "#B ", 3) == 0) {
            H.cur_record = atoi(line + 3);
        } else if (strncmp(line, "#R ", 3) == 0) {
            H.records_complete++;
        } else if (strncmp(line, "#ERR ", 5) == 0) {
            char *end;
            H.err_code = (int)strtol(line + 5, &end, 10);
            snprintf(H.err_msg, sizeof H.err_msg, "%s", *end ? end + 1 : "");
            H.done = 1; /* the official generator returns here */
        } else if (strcmp(line, "#DONE") == 0) {
            H.done = 1;
        } else if (strncmp(line, "#T ", 3) == 0) {
            kat_hash_timing *t = &H.timing;
            double bits = 0;
            H.have_timing =
                sscanf(line + 3, "%lf %lf %lf %lf", &t->calls, &bits, &t->hash_seconds, &t->work_seconds) == 4;
            t->bytes = bits / 8;
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
    if (cl >= 7 && memcmp(line, "Msg_Len", 7) == 0)
        H.prod_record++; /* every record starts with Msg_Len */
    ngcc_katdigest_line(H.digest, line, cl);
    if (H.have_ref)
        ref_compare(line, cl);
}

static int hash_line(char *line, size_t len, void *kat_out)
{
    on_line(line, len, kat_out);
    return 0;
}

static void manifest_lookup(void)
{
    if (!H.manifest || !H.mkey)
        return;
    int n = ngcc_manifest_lines(H.manifest, H.mkey, H.ml, 4, &H.mbad);
    if (n < 0) {
        fprintf(stderr, "ngcc: %s: %s; the kat test runs without the manifest\n", H.manifest, strerror(errno));
        return;
    }
    if (H.mbad.first)
        fprintf(stderr, "ngcc: %s line %ld: malformed, skipped; expected '<sha256> <strict|nolen> <label>/<file>'\n",
                H.manifest, H.mbad.first);
    H.mcount = n > 4 ? 4 : n;
    for (int i = 1; i < H.mcount; i++)
        if (strcmp(H.ml[0].hex, H.ml[i].hex) != 0 || H.ml[0].nolen != H.ml[i].nolen) {
            H.manifest_error = 1;
            snprintf(H.manifest_note, sizeof H.manifest_note,
                     "%s: line %ld (\"%.200s\") and line %ld (\"%.200s\") both name this file with different "
                     "digests; keep only this instance's line (%s)",
                     H.manifest, H.ml[0].line, H.ml[0].text, H.ml[i].line, H.ml[i].text, H.mkey);
            return;
        }
    if (H.mcount > 0) {
        H.have_manifest = 1;
        snprintf(H.manifest_note, sizeof H.manifest_note, "%s line %ld (\"%.300s\")", H.manifest, H.ml[0].line,
                 H.ml[0].text);
    }
}

static void run(void)
{
    if (H.ref && access(H.ref, R_OK) == 0 && (H.reff = fopen(H.ref, "r")) != NULL)
        H.have_ref = 1;
    manifest_lookup();
    H.digest = ngcc_katdigest_new();
    H.prod_record = -1;
    FILE *kat_out = NULL;
    char *kat_tmp = NULL;
    if (H.write_kat) {
        ngcc_mkdirs(H.write_kat, 0);
        if (asprintf(&kat_tmp, "%s.tmp", H.write_kat) > 0)
            kat_out = fopen(kat_tmp, "wb");
        if (!kat_out)
            fprintf(stderr, "ngcc: cannot write %s\n", H.write_kat);
    }
    kat_hash_args args = {H.f.lib, H.file, 0};
    ngcc_child_opts opts = {H.f.timeout, H.f.mem_mb, H.f.log};
    int rfd = -1;
    H.cur_record = -1;
    double t0 = ngcc_now(), deadline = H.f.timeout > 0 ? t0 + H.f.timeout : 0;
    pid_t pid = ngcc_child_start(kat_replay_hash_child, &args, &opts, &rfd);
    if (pid < 0) {
        ngcc_frame_set(&H.f, NGCC_ERROR, "cannot fork: %s", strerror(errno));
        return;
    }
    int timed_out = ngcc_child_read_lines(rfd, deadline, hash_line, kat_out) == NGCC_LINES_TIMEOUT;
    close(rfd);
    ngcc_child_wait(pid, timed_out ? ngcc_now() : 0, &H.child);
    if (timed_out)
        H.child.end = NGCC_CHILD_TIMEDOUT;
    H.seconds = ngcc_now() - t0;
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        H.peak_rss_kb = ru.ru_maxrss;
    ngcc_katdigest_finish(H.digest);
    if (H.have_ref)
        ref_finish();
    const char *p = ngcc_katdigest_get(H.digest, 0, 0), *q = ngcc_katdigest_get(H.digest, 1, 0);
    snprintf(H.produced, sizeof H.produced, "%s", p ? p : "");
    snprintf(H.produced_nolen, sizeof H.produced_nolen, "%s", q ? q : "");
    if (kat_out) {
        fclose(kat_out);
        if (rename(kat_tmp, H.write_kat) == 0)
            ngcc_sha256_file(H.write_kat, H.written_sha);
    }
    free(kat_tmp);
}

/* KAT_2_23_<ai>.txt: the manifest key's file name, else from the library's name */
static const char *file_name(void)
{
    static char built[160];
    const char *s = H.mkey ? strrchr(H.mkey, '/') : NULL;
    if (s || H.mkey)
        return s ? s + 1 : H.mkey;
    const cJSON *ai = H.meta ? cJSON_GetObjectItem(H.meta, "algorithm_instance") : NULL;
    snprintf(built, sizeof built, "%s%s.txt", kat_hash_file_prefixes[H.file],
             cJSON_IsString(ai) ? ai->valuestring : "");
    return built;
}

/* " (predicted ~N s from ...)" when this file was predicted */
static const char *pred_note(void)
{
    static char note[900];
    note[0] = 0;
    if (H.predicted)
        snprintf(note, sizeof note, " (predicted ~%.0f s from %s)", H.pred.seconds, H.pred.source);
    return note;
}

static void judge(void)
{
    ngcc_frame *f = &H.f;
    if (H.loadfail) {
        ngcc_frame_set(f, NGCC_LOADFAIL, "cannot load the instance library: %s", H.loadfail_msg);
        return;
    }
    if (H.child.end == NGCC_CHILD_TIMEDOUT) {
        ngcc_frame_set(f, NGCC_TIMEOUT,
                       "no result after %.0f s, inside CryptHash of record %d (%d records complete) of %s; raise "
                       "the \"timeouts\" {\"kat\": S} override%s",
                       f->timeout, H.cur_record < 0 ? 0 : H.cur_record, H.records_complete, file_name(), pred_note());
        return;
    }
    if (H.child.end == NGCC_CHILD_SIGNALED || !H.done) {
        if (H.child.end == NGCC_CHILD_SIGNALED)
            ngcc_frame_set(f, NGCC_CRASH, "killed by signal %d (%s) in record %d of %s (%d records complete)",
                           H.child.code, strsignal(H.child.code), H.cur_record < 0 ? 0 : H.cur_record, file_name(),
                           H.records_complete);
        else
            ngcc_frame_set(f, NGCC_CRASH, "the instance ended the process (exit code %d) in record %d of %s",
                           H.child.code, H.cur_record < 0 ? 0 : H.cur_record, file_name());
        return;
    }
    int v = NGCC_PASS;
    char d[1500] = "", text[1100] = "";
    if (H.err_code == -3) {
        v = NGCC_CRYPTOFAIL;
        snprintf(d, sizeof d, "%s: the official generator stops with -3 (CryptHash failed)", H.err_msg);
    } else if (H.err_code) {
        v = NGCC_ERROR;
        snprintf(d, sizeof d, "%s", H.err_msg);
    }
    int tv = NGCC_PASS;
    if (H.have_ref && H.mismatch) {
        tv = NGCC_MISMATCH;
        snprintf(text, sizeof text, "record %ld differs at %s (line %ld of %s): expected \"%s\", got \"%s\"",
                 H.mm_record, H.mm_field, H.mm_line, H.ref, H.mm_expected, H.mm_got);
    }
    if (H.manifest_error) {
        tv = NGCC_ERROR;
        snprintf(text, sizeof text, "ambiguous manifest: %s", H.manifest_note);
    } else if (H.have_manifest) {
        const char *mine = H.ml[0].nolen ? H.produced_nolen : H.produced;
        if (H.ml[0].records) {
            if (tv == NGCC_PASS && !H.have_ref) {
                tv = NGCC_NOKAT;
                snprintf(text, sizeof text,
                         "%s has a ':%ld' record count, but a hash KAT file is digested whole; write the line "
                         "without it (the produced canonical SHA-256 is %s)",
                         H.manifest_note, H.ml[0].records, H.produced);
            }
        } else if (strcmp(mine, H.ml[0].hex) != 0) {
            if (tv == NGCC_PASS) {
                tv = NGCC_MISMATCH;
                snprintf(text, sizeof text, "canonical SHA-256 (%s) of the produced %s is %s, %s says %s",
                         H.ml[0].nolen ? "nolen" : "strict", file_name(), mine, H.manifest, H.ml[0].hex);
            }
        } else {
            H.manifest_ok = 1;
        }
    } else if (!H.have_ref && !H.kat_sha256 && H.mbad.for_file) {
        tv = NGCC_NOKAT;
        snprintf(text, sizeof text,
                 "%s line %ld names %s but is malformed (%s): '%.200s'; fix it to '<sha256> <strict|nolen> "
                 "<label>/<file>'; the produced text's canonical SHA-256 is %s",
                 H.manifest, H.mbad.for_file, file_name(), H.mbad.why, H.mbad.text, H.produced);
    } else if (!H.have_ref && !H.kat_sha256) {
        tv = NGCC_NOKAT;
        snprintf(text, sizeof text,
                 "no submitted %s and no kat.sha256 manifest line for it%s%s; put the file under Test_Vector/ or add "
                 "the line '%s strict %s' (the produced text's canonical SHA-256)",
                 file_name(), H.manifest ? " in " : "", H.manifest ? H.manifest : "", H.produced,
                 H.mkey ? H.mkey : file_name());
    }
    if (H.kat_sha256 && tv == NGCC_PASS && strcmp(H.kat_sha256, H.written_sha) != 0) {
        tv = NGCC_MISMATCH;
        snprintf(text, sizeof text, "written KAT file %s has SHA-256 %s, expected %s",
                 H.write_kat ? H.write_kat : "(none: pass --write-kat)", H.written_sha, H.kat_sha256);
    }
    if (tv > v) {
        v = tv;
        snprintf(d, sizeof d, "%s", text);
    } else if (tv != NGCC_PASS) {
        size_t l = strlen(d);
        snprintf(d + l, sizeof d - l, "; text: %s", text);
    }
    if (v == NGCC_PASS)
        /* seconds and peak RSS are record fields; the detail stays the same from run to run */
        snprintf(d, sizeof d, "%s: %d records match%s%s%s%s%s", file_name(), H.records_complete, H.have_ref ? " " : "",
                 H.have_ref ? H.ref : "", H.manifest_ok ? (H.have_ref ? " and " : " ") : "",
                 H.manifest_ok ? H.manifest_note : "", H.kat_sha256 ? " (written file has the expected SHA-256)" : "");
    if (v == NGCC_PASS && H.file == KAT_HASH_2_12) {
        /* what this file cannot show (the fx-hash unused-bits zoo) */
        size_t l = strlen(d);
        snprintf(d + l, sizeof d - l,
                 "; the bits past Msg_Len are zero in every message, as in the official driver: a CryptHash that "
                 "hashes them is not caught here");
    }
    ngcc_frame_set(f, v, "%s", d);
    if (H.child.memlimit && v != NGCC_PASS) {
        char mem[300];
        ngcc_child_memlimit_detail(&H.child, mem, sizeof mem);
        ngcc_frame_set(f, NGCC_MEMLIMIT, "%.300s (it then looked like %s: %.900s)", mem, ngcc_verdict_name(v), d);
    }
}

/* KAT_2_33: reduced mode or too little memory for its 1 GiB message */
static int skip_2_33(void)
{
    if (H.file != KAT_HASH_2_33)
        return 0;
    H.need_mb = BIG_MSG_MB + BIG_MARGIN_MB;
    if (H.mode && strcmp(H.mode, "reduced") == 0) {
        ngcc_frame_set(&H.f, NGCC_SKIP,
                       "reduced mode: KAT_2_33 (a 1 GiB message, ~3 GiB hashed) is not run in this tree; run it "
                       "with -DNGCC_HASH_KAT_2_33=full (needs ~%lu MB of memory)",
                       H.need_mb);
        return 1;
    }
    if (H.f.mem_mb && H.f.mem_mb < H.need_mb) {
        ngcc_frame_set(&H.f, NGCC_SKIP,
                       "KAT_2_33 needs a 1 GiB message buffer plus the library's own use (~%lu MB) but the memory "
                       "limit is %lu MB: raise the \"memory_limit_mb\" override or NGCC_MEMORY_LIMIT_MB",
                       H.need_mb, H.f.mem_mb);
        return 1;
    }
    return 0;
}

/* KAT_2_33, KAT_Loop with --cap: SKIP before any hashing when the predicted
 * time x MARGIN exceeds the cap, naming the prediction and how to run it */
static int skip_budget(void)
{
    if (H.cap <= 0 || (H.file != KAT_HASH_2_33 && H.file != KAT_HASH_LOOP))
        return 0;
    kat_hash_predict(H.file, H.f.lib, H.speed_records, H.f.timeout > 0 ? H.f.timeout / 4 : 30, &H.pred);
    if (H.pred.seconds < 0) {
        fprintf(stderr, "ngcc: kat %s: %s; the file runs unpredicted\n", H.f.name, H.pred.source);
        return 0;
    }
    H.predicted = 1;
    double need = H.pred.seconds * MARGIN;
    printf("ngcc: kat %s: predicted ~%.0f s (x %.1f: %.0f s, cap %.0f s) from %s\n", H.f.name, H.pred.seconds, MARGIN,
           need, H.cap, H.pred.source);
    if (need <= H.cap)
        return 0;
    /* the test name as a CTest regex: its dots and pluses escaped */
    char re[600], *o = re;
    for (const char *c = H.f.name; *c && o < re + sizeof re - 3; c++) {
        if (strchr(".+*?()[]{}|^$\\", *c))
            *o++ = '\\';
        *o++ = *c;
    }
    *o = 0;
    const char *dir = H.build_dir ? H.build_dir : "<build>";
    unsigned long want = (unsigned long)(need + 59) / 60 * 60;
    char run[1200];
    if (H.cap_knob && strcmp(H.cap_knob, "override") == 0)
        snprintf(run, sizeof run,
                 "set this instance's \"timeouts\": {\"kat\": %lu} override (it sets this cap), reconfigure, then "
                 "ctest --test-dir %s -R '^kat/%s$'",
                 want, dir, re);
    else
        snprintf(run, sizeof run, "cmake -DNGCC_HASH_KAT_CAP_S=%lu %s && ctest --test-dir %s -R '^kat/%s$'", want, dir,
                 dir, re);
    ngcc_frame_set(&H.f, NGCC_SKIP,
                   "%.*s would take ~%.0f s at %.3g MB/s (predicted from %s; x %.1f margin: %.0f s > "
                   "cap %.0f s); run: %s",
                   (int)strlen(kat_hash_file_prefixes[H.file]) - 1, kat_hash_file_prefixes[H.file], H.pred.seconds,
                   H.pred.mb_per_s, H.pred.source, MARGIN, need, H.cap, run);
    return 1;
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&H.f);
    cJSON_AddStringToObject(r, "library", H.f.lib);
    char sha[65] = "";
    if (ngcc_sha256_file(H.f.lib, sha) == 0)
        cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddStringToObject(r, "file", kat_hash_file_ids[H.file]);
    cJSON_AddStringToObject(r, "kat_file_name", file_name());
    cJSON_AddStringToObject(r, "mode", H.mode ? H.mode : "full");
    cJSON_AddItemToObject(r, "meta", cJSON_Duplicate(H.meta, 1));
    cJSON *ref = cJSON_AddObjectToObject(r, "reference");
    cJSON_AddStringToObject(ref, "file", H.have_ref ? H.ref : "");
    cJSON_AddStringToObject(ref, "manifest", H.have_manifest ? H.manifest : "");
    if (H.have_manifest) {
        cJSON_AddStringToObject(ref, "manifest_mode", H.ml[0].nolen ? "nolen" : "strict");
        cJSON_AddStringToObject(ref, "manifest_sha256", H.ml[0].hex);
        cJSON *u = cJSON_AddObjectToObject(ref, "manifest_line");
        cJSON_AddNumberToObject(u, "line", (double)H.ml[0].line);
        cJSON_AddStringToObject(u, "text", H.ml[0].text);
        cJSON_AddBoolToObject(u, "match", H.manifest_ok);
    }
    cJSON_AddStringToObject(ref, "manifest_searched", H.manifest ? H.manifest : "");
    cJSON_AddStringToObject(ref, "manifest_decision", H.manifest_note);
    cJSON_AddStringToObject(r, "produced_sha256_strict", H.produced);
    cJSON_AddStringToObject(r, "produced_sha256_nolen", H.produced_nolen);
    if (H.write_kat) {
        cJSON_AddStringToObject(r, "written_kat", H.write_kat);
        cJSON_AddStringToObject(r, "written_kat_sha256", H.written_sha);
    }
    if (H.have_ref && H.mismatch) {
        cJSON *mm = cJSON_AddObjectToObject(r, "first_mismatch");
        cJSON_AddNumberToObject(mm, "record", (double)H.mm_record);
        cJSON_AddStringToObject(mm, "field", H.mm_field);
        cJSON_AddNumberToObject(mm, "line", (double)H.mm_line);
        cJSON_AddStringToObject(mm, "expected", H.mm_expected);
        cJSON_AddStringToObject(mm, "got", H.mm_got);
    }
    if (H.err_code)
        cJSON_AddNumberToObject(r, "hash_driver_code", H.err_code);
    cJSON_AddNumberToObject(r, "records_complete", H.records_complete);
    cJSON_AddNumberToObject(r, "seconds", H.seconds);
    cJSON_AddNumberToObject(r, "cpu_seconds", H.cpu_seconds);
    cJSON_AddNumberToObject(r, "peak_rss_kb", (double)H.peak_rss_kb);
    if (H.have_timing && H.done && !H.err_code) {
        cJSON *t = cJSON_AddObjectToObject(r, "hashing"); /* kat_hash_speed.c reads it */
        cJSON_AddNumberToObject(t, "calls", H.timing.calls);
        cJSON_AddNumberToObject(t, "bits", 8 * H.timing.bytes);
        cJSON_AddNumberToObject(t, "hash_seconds", H.timing.hash_seconds);
        cJSON_AddNumberToObject(t, "work_seconds", H.timing.work_seconds);
    }
    if (H.cap > 0 && (H.file == KAT_HASH_2_33 || H.file == KAT_HASH_LOOP)) {
        cJSON *p = cJSON_AddObjectToObject(r, "prediction");
        cJSON_AddNumberToObject(p, "cap_s", H.cap);
        cJSON_AddNumberToObject(p, "margin", MARGIN);
        cJSON_AddNumberToObject(p, "seconds", H.predicted ? H.pred.seconds : -1);
        cJSON_AddNumberToObject(p, "mb_per_s", H.predicted ? H.pred.mb_per_s : -1);
        cJSON_AddStringToObject(p, "from", !H.predicted ? "none" : H.pred.from_probe ? "probe" : "records");
        cJSON_AddStringToObject(p, "source", H.pred.source);
        cJSON_AddStringToObject(p, "decision",
                                !H.predicted                                                  ? "run unpredicted"
                                : H.f.verdict == NGCC_SKIP && H.pred.seconds * MARGIN > H.cap ? "skip"
                                                                                              : "run");
    }
    cJSON *mem = cJSON_AddObjectToObject(r, "memory");
    cJSON_AddNumberToObject(mem, "limit_mb", (double)H.f.mem_mb);
    cJSON_AddNumberToObject(mem, "need_mb", (double)H.need_mb);
    cJSON *ch = cJSON_AddObjectToObject(r, "child");
    cJSON_AddStringToObject(ch, "end",
                            H.child.end == NGCC_CHILD_EXITED     ? "exited"
                            : H.child.end == NGCC_CHILD_SIGNALED ? "signaled"
                                                                 : "timeout");
    cJSON_AddNumberToObject(ch, "code", H.child.code);
    cJSON_AddNumberToObject(ch, "seconds", H.child.seconds);
    cJSON_AddStringToObject(ch, "sandbox", H.child.sandbox);
    cJSON_AddNumberToObject(ch, "memory_limit_mb", (double)H.child.mem_limit_mb);
    cJSON_AddNumberToObject(ch, "alloc_failures", (double)H.child.alloc_failures);
    ngcc_frame_record_write(&H.f, r, NULL);
    cJSON_Delete(r);
}

static void case_text(void **state)
{
    (void)state;
    if (H.f.verdict == NGCC_SKIP)
        skip();
    if (H.f.verdict != NGCC_PASS)
        fail_msg("%s: %s: %s", kat_hash_file_ids[H.file], ngcc_verdict_name(H.f.verdict), H.f.detail);
}

static int own_option(ngcc_frame *f, int c, const char *v)
{
    switch (c) {
    case 'F':
        for (int i = 0; i < KAT_HASH_NFILES; i++)
            if (strcmp(v, kat_hash_file_ids[i]) == 0) {
                H.file = (kat_hash_file)i;
                H.file_set = 1;
                return 0;
            }
        fprintf(stderr, "ngcc-kat-hash: --file %s: expected 2_12, 2_23, 2_33 or loop\n", v);
        return -1;
    case 'r':
        H.ref = v[0] ? v : NULL;
        return 0;
    case 'm':
        H.manifest = v[0] ? v : NULL;
        return 0;
    case 'k':
        H.mkey = v;
        return 0;
    case 'w':
        H.write_kat = v[0] ? v : NULL;
        return 0;
    case 'M':
        if (strcmp(v, "full") && strcmp(v, "reduced")) {
            fprintf(stderr, "ngcc-kat-hash: --mode %s: expected full or reduced\n", v);
            return -1;
        }
        H.mode = v;
        return 0;
    case 's':
        if (strlen(v) != 64 || strspn(v, "0123456789abcdef") != 64) {
            fprintf(stderr, "ngcc-kat-hash: --kat-sha256 %s: expected 64 lowercase hex digits (a SHA-256)\n", v);
            return -1;
        }
        H.kat_sha256 = v;
        return 0;
    case 'C':
        H.cap = atof(v);
        if (H.cap <= 0) {
            fprintf(stderr, "ngcc-kat-hash: --cap %s: expected a positive number of seconds\n", v);
            return -1;
        }
        return 0;
    case 'K':
        if (strcmp(v, "cache") && strcmp(v, "override")) {
            fprintf(stderr, "ngcc-kat-hash: --cap-knob %s: expected cache or override\n", v);
            return -1;
        }
        H.cap_knob = v;
        return 0;
    case 'B':
        H.build_dir = v[0] ? v : NULL;
        return 0;
    case 'S':
        H.speed_records = v[0] ? v : NULL;
        return 0;
    case 'D': {
        regex_t re;
        if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB)) {
            fprintf(stderr, "ngcc-kat-hash: --expect-detail %s: not a valid extended regular expression\n", v);
            return -1;
        }
        regfree(&re);
        H.expect_detail = v;
        return 0;
    }
    }
    (void)f;
    return -1;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"file", 1, 0, 'F'},
                                       {"ref", 1, 0, 'r'},
                                       {"manifest", 1, 0, 'm'},
                                       {"manifest-key", 1, 0, 'k'},
                                       {"write-kat", 1, 0, 'w'},
                                       {"mode", 1, 0, 'M'},
                                       {"kat-sha256", 1, 0, 's'},
                                       {"expect-detail", 1, 0, 'D'},
                                       {"cap", 1, 0, 'C'},
                                       {"cap-knob", 1, 0, 'K'},
                                       {"build-dir", 1, 0, 'B'},
                                       {"speed-records", 1, 0, 'S'},
                                       {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"kat", "ngcc-kat-hash", usage, lo, own_option, 0, NULL};
    int rc = ngcc_frame_parse(&H.f, &spec, argc, argv);
    if (rc)
        return rc;
    if (!H.file_set) {
        fprintf(stderr, "ngcc-kat-hash: --file is required (2_12, 2_23, 2_33 or loop)\n%s", usage);
        ngcc_frame_free(&H.f);
        return NGCC_FRAME_EXIT_USAGE;
    }
    ngcc_inputs_add_file(H.f.inputs, "reference_sha256", H.ref);
    ngcc_inputs_add_file(H.f.inputs, "manifest_sha256", H.manifest);
    if ((rc = ngcc_frame_resume(&H.f)) >= 0) {
        ngcc_frame_free(&H.f);
        return rc;
    }
    H.meta = cJSON_CreateObject();
    if (!ngcc_frame_check_build(&H.f) && !skip_2_33() && !skip_budget()) {
        if (H.f.log)
            ngcc_mkdirs(H.f.log, 0);
        run();
        if (H.f.verdict != NGCC_ERROR)
            judge();
        ngcc_child_show_log(H.f.log, 4096);
    }
    write_record();
    char group[300];
    snprintf(group, sizeof group, "%s", H.f.name);
    char cname[32];
    snprintf(cname, sizeof cname, "kat_%s_text", kat_hash_file_ids[H.file]);
    struct CMUnitTest tests[] = {{cname, case_text, NULL, NULL, NULL}};
    _cmocka_run_group_tests(group, tests, 1, NULL, NULL);
    int detail_ok = 1;
    if (H.expect_detail && H.f.verdict == H.f.expect) {
        regex_t re;
        regcomp(&re, H.expect_detail, REG_EXTENDED | REG_NOSUB);
        detail_ok = regexec(&re, H.f.detail, 0, NULL, 0) == 0;
        regfree(&re);
        if (!detail_ok)
            fprintf(stderr, "ngcc: kat %s: the verdict is the expected %s but its detail does not match /%s/\n",
                    H.f.name, ngcc_verdict_name(H.f.verdict), H.expect_detail);
    }
    if (H.reff)
        fclose(H.reff);
    free(H.rbuf);
    ngcc_katdigest_free(H.digest);
    cJSON_Delete(H.meta);
    rc = ngcc_frame_finish(&H.f);
    /* an expected SKIP (the kat time budget's zoo) must say why, too */
    return (rc == 0 || (rc == NGCC_FRAME_EXIT_SKIP && H.f.expect == NGCC_SKIP)) && !detail_ok ? 1 : rc;
}
