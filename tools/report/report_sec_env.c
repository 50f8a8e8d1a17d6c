/* Sections 1 (basic information) and 2 (assessment environment). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_fmt.h"
#include "report_sections.h"
#include "report_sysview.h"

static const char *type_name(const char *t)
{
    if (t && strcmp(t, "SIG") == 0)
        return "digital signature (SIG)";
    if (t && strcmp(t, "KEM") == 0)
        return "key encapsulation mechanism (KEM)";
    if (t && strcmp(t, "KEX") == 0)
        return "key exchange (KEX)";
    if (t && strcmp(t, "HASH") == 0)
        return "hash function (HASH)";
    return NULL;
}

static void basic_row(rs_ctx *x, rd_table *t, const rp_instance *in)
{
    const cJSON *m = rp_meta(in);
    char missing[256] = "";
    rd_cell_text(t, "%s", in->key);
    const char *fields[] = {"algorithm_instance", "type", "impl_variant"};
    for (int i = 0; i < 3; i++) {
        const char *v = m ? rj_str(m, fields[i]) : NULL;
        if (v)
            rd_cell_text(t, "%s", v);
        else {
            rd_cell_gap(t);
            rs_list_add(missing, sizeof missing, fields[i]);
        }
    }
    const char *tilde = strchr(in->key, '~');
    const char *blank = m ? rj_str(m, "blank") : NULL;
    if (tilde)
        rd_cell_text(t, "zoo variant \"%s\" of %.*s: a deliberately broken build for the suite's self-tests", tilde + 1,
                     (int)(tilde - in->key), in->key);
    else if (blank && strcmp(blank, "1") == 0)
        rd_cell_text(t, "blank template (OUTPUT_BLANK_TEST_VECTORS = 1)");
    else
        rd_cell_text(t, "%s", "");
    if (!m)
        rd_row_gaps(x->doc, t, "%s: no record with a \"meta\" object (run ctest -L kat).", rs_inst_dir(x, in));
    else
        rd_row_gaps(x->doc, t, "%s: meta lacks %s.", rs_inst_dir(x, in), missing);
}

void rs_section_basic(rs_ctx *x)
{
    rd_heading(x->doc, 2, "1. Basic information");
    char cats[160] = "";
    const char *seen[4] = {0};
    size_t nseen = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const cJSON *m = rp_meta(&x->cand->inst[i]);
        const char *tn = type_name(m ? rj_str(m, "type") : NULL);
        int dup = 0;
        for (size_t k = 0; k < nseen; k++)
            dup |= seen[k] == tn;
        if (tn && !dup && nseen < 4) {
            seen[nseen++] = tn;
            rs_list_add(cats, sizeof cats, tn);
        }
    }
    rd_para(x->doc, "Category: %s. Algorithm: %s. Instances on this system: %zu.", cats[0] ? cats : NGCC_FMT_GAP,
            x->cand->id, x->cand->ninst);
    rd_table *t = rd_table_new(x->doc, "lllll", "Instance", "ALGORITHM_INSTANCE", "Type", "Implementation", "Note");
    for (size_t i = 0; i < x->cand->ninst; i++)
        basic_row(x, t, &x->cand->inst[i]);
    rs_type_facts(x); /* KEX / hash facts, labels not run for a type */
}

/* ---- 2. environment ---- */

/* the gap note of one environment row: what is missing and how to get it */
static void env_gaps(rs_ctx *x, rd_table *t, const char *field)
{
    if (!x->sys->system)
        rd_row_gaps(x->doc, t, "No system.json in the records folder: run the system/info test (ctest -L system).");
    else if (!x->sys->system->json)
        rd_row_gaps(x->doc, t, "%s %s.", x->sys->system->file, x->sys->system->error);
    else
        rd_row_gaps(x->doc, t, "%s lacks %s.", x->sys->system->file, field);
}

/* a text row: the value, or a gap explained by env_gaps */
static void env_text(rs_ctx *x, rd_table *t, const char *item, const char *value, const char *field)
{
    rd_cell_text(t, "%s", item);
    if (value)
        rd_cell_text(t, "%s", value);
    else
        rd_cell_gap(t);
    env_gaps(x, t, field);
}

static void env_cores(rs_ctx *x, rd_table *t, const rs_sysview *v)
{
    rd_cell_text(t, "Cores");
    if (isnan(v->cores))
        rd_cell_gap(t);
    else if (!isnan(v->online) && v->online != v->cores)
        rd_cell_text(t, "%.0f (%.0f online)", v->cores, v->online);
    else
        rd_cell_text(t, "%.0f", v->cores);
    env_gaps(x, t, "cpu.cores");
}

static void env_clock(rs_ctx *x, rd_table *t, const rs_sysview *v)
{
    char f[NGCC_FMT_MAX];
    rd_cell_text(t, "Clock");
    if (isnan(v->mhz) && !v->how) {
        rd_cell_gap(t);
        env_gaps(x, t, "cpu.mhz and clock.how");
        return;
    }
    const char *state = v->fixed < 0 ? "not known to be fixed" : v->fixed ? "fixed" : "not fixed";
    if (!isnan(v->mhz))
        rd_cell_text(t, "%s (cpuinfo); %s%s%s", ngcc_fmt_freq(f, v->mhz * 1e6), state, v->how ? ": " : "",
                     v->how ? v->how : "");
    else
        rd_cell_text(t, "%s%s%s", state, v->how ? ": " : "", v->how ? v->how : "");
}

static void env_memory(rs_ctx *x, rd_table *t, const rs_sysview *v)
{
    char b[NGCC_FMT_MAX];
    rd_cell_text(t, "Memory");
    if (!isnan(v->mem_kb))
        rd_cell_text(t, "%s", ngcc_fmt_bytes(b, v->mem_kb * 1024));
    else
        rd_cell_gap(t);
    env_gaps(x, t, "memory.total_kb");
}

/* distinct values of meta.<field> over the candidate's instances */
static void distinct_meta(rs_ctx *x, const char *field, char *out, size_t cap)
{
    out[0] = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const cJSON *m = rp_meta(&x->cand->inst[i]);
        const char *v = m ? rj_str(m, field) : NULL;
        if (v && !strstr(out, v))
            rs_list_add(out, cap, v);
    }
}

/* "tsc at 2.59 GHz (overhead 52, resolution 26 ticks)" for each distinct counter of the perf records */
static void perf_counters(rs_ctx *x, char *out, size_t cap)
{
    out[0] = 0;
    for (size_t i = 0; i < x->cand->ninst; i++) {
        const rp_instance *in = &x->cand->inst[i];
        for (size_t k = 0; k < in->nrecs; k++) {
            const cJSON *j = in->recs[k]->json;
            const char *name = j && strcmp(in->recs[k]->kind, "perf") == 0 ? rj_str(j, "counter.name") : NULL;
            if (!name)
                continue;
            char one[256], v[NGCC_FMT_MAX];
            double d;
            snprintf(one, sizeof one, "%s", name);
            if (rj_num(j, "counter.freq_hz", &d))
                snprintf(one + strlen(one), sizeof one - strlen(one), " at %s", ngcc_fmt_freq(v, d));
            if (rj_num(j, "counter.overhead_ticks", &d))
                snprintf(one + strlen(one), sizeof one - strlen(one), ", overhead %s ticks", ngcc_fmt_count(v, d));
            if (rj_num(j, "counter.resolution_ticks", &d))
                snprintf(one + strlen(one), sizeof one - strlen(one), ", resolution %s ticks", ngcc_fmt_count(v, d));
            if (!strstr(out, one))
                rs_list_add(out, cap, one);
        }
    }
}

static void env_counter(rs_ctx *x, rd_table *t, const rs_sysview *v)
{
    char text[1024];
    rd_cell_text(t, "Counter used");
    perf_counters(x, text, sizeof text);
    if (text[0]) {
        rd_cell_text(t, "%s (from the perf records)", text);
        return;
    }
    if (v->counter) {
        char f[NGCC_FMT_MAX];
        if (!isnan(v->ctr_freq) && v->ctr_freq > 0)
            rd_cell_text(t, "%s at %s (system/info; no perf records)", v->counter, ngcc_fmt_freq(f, v->ctr_freq));
        else
            rd_cell_text(t, "%s (system/info; no perf records)", v->counter);
    } else
        rd_cell_gap(t);
    env_gaps(x, t, "counter.name");
}

static void env_campaign(rs_ctx *x, rd_table *t)
{
    rd_cell_text(t, "Campaign start (UTC)");
    if (x->sys->start_utc[0])
        rd_cell_text(t, "%s", x->sys->start_utc);
    else
        rd_cell_gap(t);
    rd_row_gaps(x->doc, t, "No record carries a start_utc time.");
    rd_cell_text(t, "Campaign end (UTC)");
    if (x->sys->end_utc[0])
        rd_cell_text(t, "%s", x->sys->end_utc);
    else
        rd_cell_gap(t);
    rd_row_gaps(x->doc, t, "No record carries an end_utc time.");
}

void rs_section_environment(rs_ctx *x)
{
    rs_sysview v;
    rs_sysview_read(x->sys->system ? x->sys->system->json : NULL, &v);
    rd_heading(x->doc, 2, "2. Assessment environment");
    rd_para(x->doc, "System %s. Campaign times span every record of this system.", x->sys->id);
    rd_table *t = rd_table_new(x->doc, "ll", "Item", "Value");
    env_text(x, t, "Processor", v.model, "cpu.model");
    env_text(x, t, "Architecture", v.arch, "cpu.arch");
    env_cores(x, t, &v);
    env_clock(x, t, &v);
    env_memory(x, t, &v);
    env_text(x, t, "Operating system", v.os, "os.name");
    env_text(x, t, "Kernel", v.kernel, "os.kernel");
    env_text(x, t, "Compiler (harness)", v.compiler, "compiler");
    char comp[512];
    distinct_meta(x, "compiler", comp, sizeof comp);
    rd_cell_text(t, "Compiler (instances)");
    if (comp[0])
        rd_cell_text(t, "%s", comp);
    else
        rd_cell_gap(t);
    rd_row_gaps(x->doc, t, "No instance record of %s carries meta.compiler.", x->cand->id);
    env_text(x, t, "CMake", v.cmake, "cmake_version");
    env_counter(x, t, &v);
    env_campaign(x, t);
}
