/* ngcc-sizes: the size test of one instance (labels perf;sizes). The claimed
 * sizes come from the API getters; the observed minimum and maximum
 * signature (ciphertext) lengths from signing the KAT messages, the same
 * messages the timing test signs (a length above the claimed maximum is an
 * OVERFLOW); the static size from the library's ELF headers. Gates them
 * against the thresholds file (claimed sizes exactly, the others with the
 * run's tolerance), writes sizes.json, runs a CMocka group, prints CDash
 * measurements and one verdict line; exits 0 iff the verdict is expected. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elf_sizes.h"
#include "ngcc_record.h"
#include "perf_args.h"
#include "perf_child.h"
#include "perf_ops.h"
#include "perf_precheck.h"
#include "perf_record.h"
#include "perf_thresholds.h"

static const char usage[] =
    "usage: ngcc-sizes --lib <instance.so> --name <cand>/<key> --record-out <sizes.json>\n"
    "       [--build-record <json>] [--kat-record <kat.json> [--time-anyway]] [--thresholds <system.json>]\n"
    "       [--system <id>] [--baseline-key <cand>/<key>] [--tolerance 0.05] [--records 10] [--timeout S]\n"
    "       [--mem-limit-mb M] [--log <file>] [--expect VERDICT]\n";

#define MAX_GATES 8

static struct {
    perf_args a;
    ngcc_frame f; /* options, verdict and detail (ngcc_frame.h) */
    perf_kat_status kat;
    perf_child_run run;
    elf_sizes elf;
    perf_gate gate[MAX_GATES];
    char gate_name[MAX_GATES][32];
    int ngates;
} Z;

/* ---- child: getters and the KAT flow's output lengths ---- */

/* KEX: the getters, and the largest lengths the official flow of each KAT
 * record returned (every call checked: perf_ops_kex.c); HASH: the digest
 * length. observed_max is the messages' total (KEX). */
static int sizes_child_kex_hash(ngcc_instance *in, const perf_args *a, FILE *out)
{
    cJSON *res = cJSON_CreateObject();
    cJSON_AddItemToObject(res, "meta", perf_meta_json(in->meta));
    cJSON_AddStringToObject(res, "type", ngcc_type_name(in->type));
    cJSON *cl = cJSON_AddObjectToObject(res, "claimed");
    if (in->type == NGCC_TYPE_HASH) {
        cJSON_AddNumberToObject(cl, "digest_bits", in->hash.digest_bits);
        cJSON_AddNumberToObject(res, "records", 0);
        perf_child_result(out, res);
        cJSON_Delete(res);
        return 0;
    }
    perf_child_phase(out, "running the exchange of %d KAT records", a->m.records);
    perf_ctx c;
    int verdict;
    char err[600];
    if (perf_ctx_setup(&c, in, PERF_KEX_EXCHANGE, a->m.records, &verdict, err, sizeof err)) {
        perf_child_error(out, verdict, "%s", err);
        cJSON_Delete(res);
        return 1;
    }
    if (c.kex.ref_verdict) {
        perf_child_error(out, c.kex.ref_verdict, "%s", c.kex.ref_err);
        cJSON_Delete(res);
        return 1;
    }
    ngcc_kex_api *k = &in->kex;
    cJSON_AddNumberToObject(cl, "passes", (double)c.kex.passes);
    cJSON_AddNumberToObject(cl, "pk", (double)k->pk_len());
    cJSON_AddNumberToObject(cl, "sk", (double)k->sk_len());
    cJSON_AddNumberToObject(cl, "sta", (double)c.kex.claimed_sta);
    cJSON_AddNumberToObject(cl, "stb", (double)c.kex.claimed_stb);
    cJSON_AddNumberToObject(cl, "ss", (double)k->ss_len());
    cJSON_AddNumberToObject(cl, "total_msg", (double)c.kex.claimed_total);
    cJSON *ob = cJSON_AddObjectToObject(res, "observed");
    cJSON_AddNumberToObject(ob, "pk", (double)c.kex.obs_pk);
    cJSON_AddNumberToObject(ob, "sk", (double)c.kex.obs_sk);
    cJSON_AddNumberToObject(ob, "sta", (double)c.kex.obs_sta);
    cJSON_AddNumberToObject(ob, "stb", (double)c.kex.obs_stb);
    cJSON_AddNumberToObject(ob, "ss", (double)c.kex.obs_ss);
    cJSON_AddNumberToObject(ob, "m1", (double)c.kex.obs_m[0]);
    cJSON_AddNumberToObject(ob, "m2", (double)c.kex.obs_m[1]);
    cJSON_AddNumberToObject(ob, "m3", (double)c.kex.obs_m[2]);
    for (int i = 3; i < NGCC_KEX_MAXP && c.kex.obs_m[i]; i++) /* the passes above 3 of an extended driver */
        cJSON_AddNumberToObject(ob,
                                i == 3   ? "m4"
                                : i == 4 ? "m5"
                                : i == 5 ? "m6"
                                : i == 6 ? "m7"
                                         : "m8",
                                (double)c.kex.obs_m[i]);
    cJSON_AddNumberToObject(ob, "total_msg", (double)c.kex.obs_total);
    cJSON_AddNumberToObject(res, "observed_max", (double)c.kex.obs_total);
    cJSON_AddNumberToObject(res, "records", c.records);
    perf_child_result(out, res);
    cJSON_Delete(res);
    perf_ctx_free(&c);
    return 0;
}

static int sizes_child(void *varg, FILE *out)
{
    const perf_args *a = varg;
    ngcc_instance in;
    char err[600];
    perf_child_phase(out, "loading the instance library");
    if (ngcc_instance_open(a->lib, &in, err, sizeof err)) {
        perf_child_error(out, NGCC_LOADFAIL, "%s", err);
        return 1;
    }
    if (in.type == NGCC_TYPE_KEX || in.type == NGCC_TYPE_HASH)
        return sizes_child_kex_hash(&in, a, out);
    perf_child_phase(out, "signing / encapsulating for %d KAT records", a->m.records);
    perf_ctx c;
    int verdict;
    /* the setup for verify / dec runs the whole KAT flow: keygen, sign / enc, checks */
    perf_op full = in.is_kem ? PERF_DEC : PERF_VERIFY;
    if (perf_ctx_setup(&c, &in, full, a->m.records, &verdict, err, sizeof err)) {
        perf_child_error(out, verdict, "%s", err);
        return 1;
    }
    cJSON *res = cJSON_CreateObject();
    cJSON_AddItemToObject(res, "meta", perf_meta_json(in.meta));
    cJSON *cl = cJSON_AddObjectToObject(res, "claimed");
    cJSON_AddNumberToObject(cl, "pk", (double)c.claimed_pk);
    cJSON_AddNumberToObject(cl, "sk", (double)c.claimed_sk);
    if (in.is_kem) {
        cJSON_AddNumberToObject(cl, "ct", (double)c.claimed_ct);
        cJSON_AddNumberToObject(cl, "ss", (double)c.claimed_ss);
    } else {
        cJSON_AddNumberToObject(cl, "sn", (double)c.claimed_sn);
    }
    cJSON_AddNumberToObject(res, "observed_min", (double)c.out_min);
    cJSON_AddNumberToObject(res, "observed_max", (double)c.out_max);
    cJSON_AddNumberToObject(res, "records", c.records);
    cJSON_AddBoolToObject(res, "is_kem", in.is_kem);
    cJSON_AddStringToObject(res, "type", ngcc_type_name(in.type));
    perf_child_result(out, res);
    cJSON_Delete(res);
    perf_ctx_free(&c);
    return 0;
}

/* ---- parent ---- */
static const cJSON *rget(const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(Z.run.result, k);
}

static void gate(const cJSON *entry, const char *field, const char *unit, double value, double tolerance)
{
    if (Z.ngates == MAX_GATES)
        return;
    perf_gate *g = &Z.gate[Z.ngates];
    snprintf(Z.gate_name[Z.ngates++], sizeof Z.gate_name[0], "%s", field);
    perf_gate_value(entry, field, unit, value, tolerance, g);
    if (perf_gate_exceeded(g))
        Z.f.verdict = NGCC_REGRESSION;
    char t[300];
    perf_gate_text(g, field, t, sizeof t);
    size_t l = strlen(Z.f.detail);
    snprintf(Z.f.detail + l, sizeof Z.f.detail - l, "%s%s", l ? "; " : "", t);
}

static void evaluate(const cJSON *thresholds)
{
    const cJSON *entry = perf_thresholds_entry(thresholds, perf_args_key(&Z.a), "sizes");
    Z.f.verdict = NGCC_PASS;
    Z.f.detail[0] = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, rget("claimed")) /* exact */
        gate(entry, v->string,
             !strcmp(v->string, "passes")        ? "passes"
             : !strcmp(v->string, "digest_bits") ? "bits"
                                                 : "bytes",
             v->valuedouble, 0);
    if (cJSON_IsNumber(rget("observed_max"))) /* none for a hash */
        gate(entry, "observed_max", "bytes", cJSON_GetNumberValue(rget("observed_max")), Z.a.tolerance);
    gate(entry, "loadable_total", "bytes", (double)Z.elf.loadable_total, Z.a.tolerance);
    if (Z.kat.timed_anyway) {
        size_t l = strlen(Z.f.detail);
        snprintf(Z.f.detail + l, sizeof Z.f.detail - l, "; MEASURED ANYWAY: its KAT verdict is not PASS");
    }
    if (!entry && Z.f.verdict == NGCC_PASS) { /* measured, nothing of this machine class to gate against */
        Z.f.verdict = NGCC_NOBASELINE;
        size_t l = strlen(Z.f.detail);
        snprintf(Z.f.detail + l, sizeof Z.f.detail - l, "; no baseline entry %s %s in %s; record it: %s",
                 perf_args_key(&Z.a), "sizes", Z.a.thresholds ? Z.a.thresholds : "(no --thresholds file)",
                 perf_args_baseline_command(&Z.a));
    }
}

static void measure(void)
{
    char err[600];
    cJSON *thresholds = NULL;
    if (perf_thresholds_load(Z.a.thresholds, Z.a.system, &thresholds, err, sizeof err)) {
        Z.f.verdict = NGCC_ERROR;
        snprintf(Z.f.detail, sizeof Z.f.detail, "%s", err);
        return;
    }
    int stop = perf_precheck(&Z.f, &Z.a, &Z.kat);
    if (!stop && elf_sizes_read(Z.a.lib, &Z.elf, err, sizeof err)) {
        ngcc_frame_set(&Z.f, NGCC_LOADFAIL, "%s", err);
        stop = 1;
    }
    if (!stop) {
        if (perf_child_exec(sizes_child, &Z.a, Z.a.timeout, Z.a.mem_mb, Z.a.log, &Z.run)) {
            Z.f.verdict = NGCC_ERROR;
            snprintf(Z.f.detail, sizeof Z.f.detail, "cannot start the measuring process");
        } else if (Z.run.result) {
            evaluate(thresholds);
        } else {
            Z.f.verdict = perf_child_verdict(&Z.run, Z.a.timeout, Z.f.detail, sizeof Z.f.detail);
        }
    }
    cJSON_Delete(thresholds);
}

static void write_record(void)
{
    cJSON *r = ngcc_frame_record_new(&Z.f);
    perf_record_common(r, Z.a.lib, Z.a.system, rget("meta"));
    cJSON_AddBoolToObject(r, "timed_anyway", Z.kat.timed_anyway);
    cJSON_AddStringToObject(r, "kat_verdict", Z.kat.kat_verdict);
    if (Z.run.result) {
        int kem = cJSON_IsTrue(rget("is_kem"));
        const char *type = cJSON_GetStringValue(rget("type"));
        int kex = type && !strcmp(type, "KEX"), hash = type && !strcmp(type, "HASH");
        if (type)
            cJSON_AddStringToObject(r, "type", type);
        cJSON_AddItemToObject(r, "claimed", cJSON_Duplicate(rget("claimed"), 1));
        double mn = cJSON_GetNumberValue(rget("observed_min")), mx = cJSON_GetNumberValue(rget("observed_max"));
        if (kex) {
            cJSON_AddItemToObject(r, "observed", cJSON_Duplicate(rget("observed"), 1));
            cJSON_AddNumberToObject(r, "observed_max", mx);
        } else if (!hash) {
            cJSON_AddNumberToObject(r, kem ? "observed_ct_min" : "observed_sig_min", mn);
            cJSON_AddNumberToObject(r, kem ? "observed_ct_max" : "observed_sig_max", mx);
            cJSON_AddNumberToObject(r, "observed_max", mx);
        }
        cJSON_AddNumberToObject(r, "records", cJSON_GetNumberValue(rget("records")));
        cJSON *s = cJSON_AddObjectToObject(r, "static");
        cJSON_AddNumberToObject(s, "loadable_total", (double)Z.elf.loadable_total);
        cJSON_AddNumberToObject(s, "text", (double)Z.elf.text);
        cJSON_AddNumberToObject(s, "data", (double)Z.elf.data);
        cJSON_AddNumberToObject(s, "bss", (double)Z.elf.bss);
    }
    cJSON *b = cJSON_AddObjectToObject(r, "baseline");
    for (int i = 0; i < Z.ngates; i++)
        cJSON_AddItemToObject(b, Z.gate_name[i], perf_gate_json(&Z.gate[i], "value"));
    ngcc_frame_record_write(&Z.f, r, NULL);
    cJSON_Delete(r);
}

static void print_measurements(void)
{
    for (int i = 0; i < Z.ngates; i++)
        printf("<DartMeasurement name=\"%s\" type=\"numeric/double\">%.0f</DartMeasurement>\n", Z.gate_name[i],
               Z.gate[i].value);
}

/* ---- CMocka: measured; each size within its limit ---- */
static void case_measured(void **state)
{
    (void)state;
    if (!ngcc_verdict_passing(Z.f.verdict) && Z.f.verdict != NGCC_REGRESSION)
        fail_msg("%s: %s", ngcc_verdict_name(Z.f.verdict), Z.f.detail);
}

static void case_sizes(void **state)
{
    (void)state;
    for (int i = 0; i < Z.ngates; i++) {
        char t[300];
        perf_gate_text(&Z.gate[i], Z.gate_name[i], t, sizeof t);
        if (perf_gate_exceeded(&Z.gate[i]))
            fail_msg("%s", t);
    }
}

int main(int argc, char **argv)
{
    int rc = perf_args_parse(&Z.a, &Z.f, "sizes", "ngcc-sizes", 0, usage, argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&Z.f)) >= 0) {
        ngcc_frame_free(&Z.f);
        return rc;
    }
    measure();
    ngcc_child_show_log(Z.a.log, 4096);
    write_record();
    print_measurements();
    char group[300];
    snprintf(group, sizeof group, "sizes/%s", Z.a.name);
    const struct CMUnitTest tests[] = {cmocka_unit_test(case_measured), cmocka_unit_test(case_sizes)};
    _cmocka_run_group_tests(group, tests, 2, NULL, NULL);
    perf_child_free(&Z.run);
    return ngcc_frame_finish(&Z.f);
}
