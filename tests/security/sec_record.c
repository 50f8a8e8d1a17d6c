#include "sec_record.h"

#include <stdio.h>
#include <string.h>

#include "ngcc_record.h"
#include "ngcc_util.h"

static void add_meta(cJSON *r, const sec_probe *p)
{
    cJSON *m = cJSON_AddObjectToObject(r, "meta");
    cJSON_AddStringToObject(m, "type", p->type);
    cJSON_AddStringToObject(m, "algorithm_instance", p->algorithm_instance);
    cJSON_AddStringToObject(m, "impl_variant", p->impl_variant);
    cJSON_AddStringToObject(m, "build_variant", p->build_variant);
    cJSON_AddStringToObject(m, "flagset", p->flagset);
    cJSON_AddStringToObject(m, "compiler", p->compiler);
    cJSON_AddStringToObject(m, "flags", p->flags);
    cJSON *c = cJSON_AddObjectToObject(r, "claimed");
    if (p->ntype == NGCC_TYPE_HASH) {
        cJSON_AddNumberToObject(c, "digest_bits", p->claims.digest_bits);
        return;
    }
    cJSON_AddNumberToObject(c, "pk", (double)p->claims.pk);
    cJSON_AddNumberToObject(c, "sk", (double)p->claims.sk);
    if (p->ntype == NGCC_TYPE_KEX) {
        cJSON_AddNumberToObject(c, "passes", (double)p->claims.passes);
        cJSON_AddNumberToObject(c, "sta", (double)p->claims.sta);
        cJSON_AddNumberToObject(c, "stb", (double)p->claims.stb);
        cJSON_AddNumberToObject(c, "ss", (double)p->claims.ss);
        cJSON_AddNumberToObject(c, "total_msg", (double)p->claims.msg);
    } else if (p->is_kem) {
        cJSON_AddNumberToObject(c, "ct", (double)p->claims.ct);
        cJSON_AddNumberToObject(c, "ss", (double)p->claims.ss);
    } else {
        cJSON_AddNumberToObject(c, "sn", (double)p->claims.sig);
    }
}

static void add_parameters(cJSON *r, const sec_state *s)
{
    cJSON *p = cJSON_AddObjectToObject(r, "parameters");
    cJSON_AddNumberToObject(p, "keys", s->plan.nkeys);
    cJSON_AddNumberToObject(p, "kat_records", s->opt.kat_records);
    cJSON_AddStringToObject(p, "extended_signature", s->opt.ext_finding ? "finding" : "reject");
    cJSON_AddStringToObject(p, "claims", s->opt.claims_euf ? "euf-cma" : "suf-cma");
    cJSON_AddNumberToObject(p, "max_flips", s->opt.max_flips);
    cJSON_AddNumberToObject(p, "timeout_s", s->opt.timeout);
    cJSON_AddNumberToObject(p, "call_timeout_s", s->call_timeout);
    cJSON *b = cJSON_AddObjectToObject(p, "budget");
    cJSON_AddNumberToObject(b, "budget_s", s->budget.budget > 0 ? s->budget.budget : s->opt.budget);
    cJSON_AddStringToObject(b, "costs_from", s->costs.source);
    cJSON *ops = cJSON_AddObjectToObject(b, "op_seconds");
    static const char *const sig[3] = {"keygen", "sign", "verify"}, *const kem[3] = {"keygen", "enc", "dec"};
    for (int i = 0; i < 3; i++)
        cJSON_AddNumberToObject(ops, s->probe.is_kem ? kem[i] : sig[i], s->costs.op[i]);
    cJSON_AddNumberToObject(b, "estimate_s", s->budget.estimate);
    cJSON_AddNumberToObject(b, "other_flips", s->opt.other_flips);
    cJSON_AddBoolToObject(b, "reduced", s->budget.reduced);
    cJSON_AddStringToObject(b, "decisions", s->budget.decisions);
    cJSON *items = cJSON_AddArrayToObject(p, "items");
    for (int i = 0; i < s->plan.nitems; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", s->plan.item[i].label);
        if (!s->plan.is_kem)
            cJSON_AddNumberToObject(o, "message_bytes", (double)s->plan.item[i].mlen);
        cJSON_AddBoolToObject(o, "made", s->mat && s->mat->item_ok[i]);
        cJSON_AddItemToArray(items, o);
    }
}

static void add_checks(cJSON *r, const sec_state *s)
{
    cJSON *a = cJSON_AddArrayToObject(r, "checks");
    cJSON *findings = cJSON_AddArrayToObject(r, "findings");
    for (int c = 0; c < s->nchecks; c++) {
        const sec_outcome *o = &s->out[c];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", o->check->name);
        cJSON_AddStringToObject(j, "verdict", sec_check_status(o->verdict, o->notrun));
        cJSON_AddStringToObject(j, "detail", o->detail);
        if (!strcmp(sec_check_status(o->verdict, o->notrun), "FAIL"))
            cJSON_AddStringToObject(j, "fails_as", ngcc_verdict_name(o->verdict));
        cJSON_AddNumberToObject(j, "cases", (double)o->tried);
        cJSON_AddNumberToObject(j, "problems", (double)o->problems);
        cJSON_AddNumberToObject(j, "seconds", o->seconds);
        cJSON_AddItemToArray(a, j);
        if (o->verdict == NGCC_FINDING)
            cJSON_AddItemToArray(findings, cJSON_CreateString(o->detail));
        if (!strcmp(o->check->name, "modified_ciphertext") && o->tried) {
            cJSON *b = cJSON_AddObjectToObject(r, "modified_ciphertext_behaviour");
            cJSON_AddNumberToObject(b, "implicit_rejection", (double)o->implicit_rejections);
            cJSON_AddNumberToObject(b, "error_return", (double)o->error_returns);
            cJSON_AddNumberToObject(b, "honest_secret", (double)(!ngcc_verdict_passing(o->verdict) ? o->problems : 0));
        }
    }
}

static void add_return_codes(cJSON *r, const sec_state *s)
{
    if (s->probe.ntype != NGCC_TYPE_SIG && s->probe.ntype != NGCC_TYPE_KEM)
        return; /* verify/dec codes only */
    cJSON *h = cJSON_AddObjectToObject(r, s->probe.is_kem ? "decaps_return_codes" : "verify_return_codes");
    for (int i = 0; i < s->obs.rc.n; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", s->obs.rc.value[i]);
        cJSON_AddNumberToObject(h, k, (double)s->obs.rc.count[i]);
    }
    if (s->obs.rc.other)
        cJSON_AddNumberToObject(h, "other", (double)s->obs.rc.other);
}

/* every distinct sanitizer report (sec_reports.h) */
static void add_reports(cJSON *r, const sec_state *s)
{
    if (!s->opt.sanitizer)
        return;
    cJSON *a = cJSON_AddArrayToObject(r, "reports");
    for (int i = 0; i < s->reports.n; i++) {
        const sec_report *p = &s->reports.r[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "class", p->e.template_ub ? "NOTE" : ngcc_verdict_name(p->e.verdict));
        if (p->e.template_ub)
            cJSON_AddStringToObject(o, "note", "the ICCS template's UB (rule: template-UB site), not the candidate's");
        cJSON_AddStringToObject(o, "kind", p->e.kind);
        cJSON_AddStringToObject(o, "first_line", p->e.first_line);
        cJSON_AddStringToObject(o, "site", p->e.site);
        cJSON_AddStringToObject(o, "check", p->who);
        cJSON_AddStringToObject(o, "case", p->e.context);
        cJSON_AddNumberToObject(o, "count", (double)p->count);
        cJSON_AddItemToArray(a, o);
    }
    cJSON_AddNumberToObject(r, "reports_dropped", (double)s->reports.dropped);
}

int sec_record_write(const sec_state *s, ngcc_frame *f, const char *start_utc)
{
    cJSON *r = ngcc_frame_record_new(f); /* kind "security" or "sanitizer" */
    cJSON_ReplaceItemInObject(r, "start_utc", cJSON_CreateString(start_utc));
    cJSON_AddStringToObject(r, "library", s->opt.lib);
    char sha[65] = "";
    ngcc_sha256_file(s->opt.lib, sha);
    cJSON_AddStringToObject(r, "library_sha256", sha);
    add_meta(r, &s->probe);
    add_parameters(r, s);
    add_checks(r, s);
    add_return_codes(r, s);
    add_reports(r, s);
    if (s->opt.iccs_note)
        cJSON_AddStringToObject(r, "iccs_note", s->opt.iccs_note);
    else
        cJSON_AddNullToObject(r, "iccs_note");
    cJSON_AddStringToObject(r, "log_dir", s->log_dir);
    cJSON *ch = cJSON_AddObjectToObject(r, "child");
    cJSON_AddStringToObject(ch, "sandbox", s->sandbox);
    cJSON_AddNumberToObject(ch, "memory_limit_mb", (double)s->mem_limit_mb);
    if (s->report.found) {
        cJSON_AddStringToObject(r, "first_report", s->report.summary);
        cJSON_AddStringToObject(r, "sanitizer_report", s->report.report ? s->report.report : "");
    } else {
        cJSON_AddNullToObject(r, "first_report");
    }
    int rc = ngcc_frame_record_write(f, r, NULL); /* + verdict, detail, expected, inputs, fingerprint */
    cJSON_Delete(r);
    return rc;
}
