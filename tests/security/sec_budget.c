#include "sec_budget.h"

#include <stdio.h>
#include <string.h>

#include "ngcc_record.h"

#define EXTRA_MESSAGES 4 /* sec_plan.c's extra messages */
#define OTHER_FLIPS 32   /* sec_sig_checks.c: bytes of each further signature */
#define OTHER_FLIPS_MIN 8
#define FIRST_FULL_MAX 16384
#define FIRST_LARGE 4096
#define FIRST_MIN 64        /* never fewer flips of the first signature */
#define CHILD_OVERHEAD 0.05 /* s: fork + dlopen of one child */
#define CALL_TIMEOUT_MIN 30.0

int sec_costs_from_kat(const char *kat_json, int is_kem, sec_costs *c)
{
    static const char *const sig[3] = {"keygen", "sign", "verify"}, *const kem[3] = {"keygen", "enc", "dec"};
    memset(c, 0, sizeof *c);
    cJSON *r = kat_json ? ngcc_record_load(kat_json) : NULL;
    const cJSON *ops = r ? cJSON_GetObjectItem(r, "op_seconds") : NULL;
    if (!cJSON_IsObject(ops)) {
        snprintf(c->source, sizeof c->source, "%s has no op_seconds", kat_json ? kat_json : "(no KAT record given)");
        cJSON_Delete(r);
        return 0;
    }
    int got = 0;
    for (int i = 0; i < 3; i++) {
        const cJSON *o = cJSON_GetObjectItem(ops, is_kem ? kem[i] : sig[i]);
        const cJSON *m = o ? cJSON_GetObjectItem(o, "max") : NULL;
        if (cJSON_IsNumber(m) && m->valuedouble >= 0) {
            c->op[i] = m->valuedouble;
            got++;
        }
    }
    c->known = got == 3;
    /* a KAT run that stopped inside a record (a hang, a crash): its
     * op_seconds omit that call, and the security plan must still reach it */
    const cJSON *v = cJSON_GetObjectItem(r, "verdict"), *done = cJSON_GetObjectItem(r, "records_complete");
    if (cJSON_IsString(v) && (!strcmp(v->valuestring, "TIMEOUT") || !strcmp(v->valuestring, "CRASH")) &&
        cJSON_IsNumber(done))
        c->keep_records = (int)done->valuedouble + 1;
    snprintf(c->source, sizeof c->source,
             c->known ? "the KAT's measured operation times (%s)" : "%s: op_seconds incomplete", kat_json);
    cJSON_Delete(r);
    return c->known;
}

typedef struct {
    int keys, records, first, other;
} shape;

static int items_of(const shape *s, int is_kem)
{
    if (is_kem)
        return s->keys;
    return s->keys + (s->records > s->keys ? s->records - s->keys : 0) + EXTRA_MESSAGES;
}

/* seconds the plan should take: material, determinism's two record-0 runs
 * (unwritten_output is judged from them), seed_dependence's two sign|enc
 * calls, then the verify (dec) calls */
static double estimate(const shape *s, const double *op, int is_kem)
{
    int items = items_of(s, is_kem);
    double material = s->keys * op[0] + items * op[1];
    double reruns = 2 * (op[0] + op[1]) + 6 * op[2]; /* determinism (and unwritten_output) */
    reruns += 2 * op[1];                             /* seed_dependence: sign|enc under two seeds */
    double calls = is_kem ? s->first + 64.0 * (items - 1.0) + items * 28.0 /* modified_ciphertext, the rest */
                          : items * 17.0 + 4.0 * s->keys + s->first + s->other * (items - 1.0);
    return material + reruns + calls * op[2] + 20 * CHILD_OVERHEAD;
}

static void note(sec_budget *b, const char *fmt, double a, double c, const char *why)
{
    size_t l = strlen(b->decisions);
    snprintf(b->decisions + l, sizeof b->decisions - l, "%s", l ? "; " : "");
    l = strlen(b->decisions);
    snprintf(b->decisions + l, sizeof b->decisions - l, fmt, a, c, why);
    b->reduced = 1;
}

void sec_budget_plan(sec_budget *b, const sec_costs *c, int is_kem, double budget, int opt_keys, int opt_records,
                     int opt_flips, unsigned long long sig_bytes)
{
    memset(b, 0, sizeof *b);
    b->budget = budget;
    unsigned long long full = opt_flips > 0                 ? (unsigned long long)opt_flips
                              : sig_bytes <= FIRST_FULL_MAX ? sig_bytes
                                                            : FIRST_LARGE;
    if (full > sig_bytes)
        full = sig_bytes;
    shape s = {opt_keys, opt_records, (int)full, OTHER_FLIPS};
    double tmax = c->op[0] > c->op[1] ? c->op[0] : c->op[1];
    tmax = tmax > c->op[2] ? tmax : c->op[2];
    b->call_timeout = 5 * tmax > CALL_TIMEOUT_MIN ? 5 * tmax : CALL_TIMEOUT_MIN;
    double e = estimate(&s, c->op, is_kem);
    if (budget > 0 && e > budget && !is_kem && s.other > OTHER_FLIPS_MIN) {
        s.other = OTHER_FLIPS_MIN;
        note(b, "flips of each further signature %.0f -> %.0f bytes%s", OTHER_FLIPS, OTHER_FLIPS_MIN, "");
        e = estimate(&s, c->op, is_kem);
    }
    int floor_records = s.keys > c->keep_records ? s.keys : c->keep_records;
    if (budget > 0 && e > budget && !is_kem && s.records > floor_records) {
        note(b, "KAT messages signed %.0f -> %.0f%s", s.records, floor_records,
             floor_records > s.keys ? " (up to the record the KAT test stopped in; the extra messages stay)"
                                    : " (the extra messages stay)");
        s.records = floor_records;
        e = estimate(&s, c->op, is_kem);
    }
    while (budget > 0 && e > budget && s.keys > 2) {
        char why[80];
        snprintf(why, sizeof why, " (keygen %.3g s)", c->op[0]);
        note(b, "key pairs %.0f -> %.0f%s", s.keys, s.keys - 1, why);
        s.keys--;
        if (s.records < s.keys)
            s.records = s.keys;
        e = estimate(&s, c->op, is_kem);
    }
    if (budget > 0 && e > budget && s.first > FIRST_MIN && c->op[2] > 0) {
        double spare = budget - (e - s.first * c->op[2]);
        int fit = spare > 0 ? (int)(spare / c->op[2]) : 0;
        if (fit < FIRST_MIN)
            fit = FIRST_MIN;
        if (fit < s.first) {
            char why[80];
            snprintf(why, sizeof why, " of %llu, stratified over the whole %s (%s %.3g s)", sig_bytes,
                     is_kem ? "ciphertext" : "signature", is_kem ? "dec" : "verify", c->op[2]);
            note(b,
                 is_kem ? "first ciphertext's bytes flipped %.0f -> %.0f%s"
                        : "first signature's bytes flipped %.0f -> %.0f%s",
                 s.first, fit, why);
            s.first = fit;
            e = estimate(&s, c->op, is_kem);
        }
    }
    if (budget > 0 && e > budget) {
        size_t l = strlen(b->decisions);
        snprintf(b->decisions + l, sizeof b->decisions - l, "%sthe smallest plan still needs about %.0f s",
                 l ? "; " : "", e);
    }
    b->estimate = e;
    b->keys = s.keys;
    b->kat_records = s.records;
    b->max_flips = s.first == (int)full && opt_flips == 0 ? 0 : s.first;
    b->other_flips = s.other;
}
