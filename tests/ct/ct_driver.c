/* ngcc-ct: the constant-time test of one instance (CTest label "ct"),
 * TIMECOP-style. Runs one KAT record of the instance's ct library
 * (build/<cand>/<inst>/ct: the DRNG output marked secret, see
 * cmake/instance/ngcc_glue_ct.c) in this same executable (ct_flow.c, with
 * --run) under valgrind memcheck with --track-origins=yes, --xml=yes and the
 * reviewed tests/ct/ct.supp. sk before sign/dec and the DRNG output drawn in
 * keygen/sign/enc are undefined for memcheck; pk, the signature, the
 * ciphertext, lengths and return codes are declassified after each call.
 *
 * Each memcheck error "Conditional jump or move depends on uninitialised
 * value(s)" (a branch) or "Use of uninitialised value of size N" (a memory
 * index) whose value was created by one of our client requests is a
 * secret-dependent branch or index. It is attributed by the innermost frame:
 *   the instance library (its .so)          candidate code: LEAK
 *   libc / valgrind's preload (memcmp, ...) called from the instance: the
 *                                           instance's call site: LEAK
 *   libcrypto (OpenSSL) called from the instance: the instance's, reported
 *                                           separately (see "OpenSSL" below)
 *   no instance frame (the harness)          ERROR: a harness bug
 * An error whose origin is not one of our client requests (memcheck names a
 * "stack/heap allocation": plain uninitialised memory, or origin tracking
 * naming one of the mixed sources of a value) is judged the same way, with
 * its origin in the detail: a leak is never hidden behind an origin guess
 * (plain uninitialised use is the memcheck label's CRYPTOFAIL as well).
 *
 * OpenSSL: a site whose innermost frame is inside libcrypto is counted as
 * "libcrypto" in the detail and the record, and does not make the verdict
 * LEAK by itself (OpenSSL's constant-time claims are OpenSSL's; the
 * candidate's own branches on a result it gets back from libcrypto are
 * candidate code and are judged). Reviewed libcrypto sites may be suppressed
 * in tests/ct/ct.supp with a comment why.
 *
 * Options, build check, resume, verdict line and exit code are the driver
 * frame's (ngcc_frame.h); verdict LEAK (harness/ngcc_verdict.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cmocka.h>

#include "ct_flow.h"
#include "ngcc_child.h"
#include "ngcc_counter.h"
#include "ngcc_frame.h"
#include "ngcc_record.h"
#include "ngcc_resume.h"
#include "ngcc_util.h"
#include "ngcc_verdict.h"

#define MAX_SITES 64
#define SHOW_SITES 3

enum { CLS_CANDIDATE, CLS_LIBCRYPTO, CLS_HARNESS, CLS_ICCS, CLS_N };
static const char *const cls_name[CLS_N] = {"candidate", "libcrypto", "harness", "iccs_template"};

typedef struct {
    char kind[32];  /* UninitCondition, UninitValue, ... */
    char what[160]; /* valgrind's text */
    char fn[128];   /* the attributed frame */
    char file[256]; /* file:line of it */
    int line;
    char via[128];    /* innermost function when it is not the attributed one (memcmp) */
    char op[16];      /* keygen/sign/verify/enc/dec: the API function on the stack */
    char secret[192]; /* the origin: "sk" or "DRNG output of <fn>" */
    char obj[PATH_MAX];
    char unique[24];
    int cls;
    long count; /* occurrences (valgrind's errorcounts) */
} ct_site;

static struct {
    ngcc_frame f;
    const char *valgrind, *supp, *lib, *log, *kat_record, *public_arg, *public_sk_arg;
    ct_ranges public_sk;
    int harness_leak; /* selftest: the flow branches on sk itself (must be ERROR) */
    char lib_real[PATH_MAX], self[PATH_MAX], xml[PATH_MAX + 8];
    unsigned public_ops;
    double slowdown, budget;
    char prediction[512];
    ngcc_child_result child;
    int ran, done;
    char loadfail[512], last_op[64];
    cJSON *meta, *ops;
    ct_site sites[MAX_SITES];
    int nsites;
    long dropped; /* errors past MAX_SITES */
    long occurrences[CLS_N], contexts[CLS_N];
    long suppressed;
    char sk_public[256]; /* "sk [32, 96)" ranges declassified as copies of pk */
    cJSON *sk_ranges;
    ct_draw_ranges draws;   /* DRNG draw ranges found copied into a public output */
    char draws_arg[1200];   /* their --public-draws value ("none": none) */
    char draws_text[700];   /* "draw #3 of keygen (32 B) appears at pk[32, 64)" ... */
    cJSON *draws_json;      /* the same for the record */
    ngcc_child_result find; /* the native run that found them */
    int find_ran;
} C;

static const char usage[] =
    "usage: ngcc-ct --valgrind <path> --suppressions <file> --lib <libngcc_ct.so>\n"
    "       --name <cand>/<inst> --record-out <json> --log <file> [--build-record <json>]\n"
    "       [--public-randomness keygen,sign,enc|none] [--public-sk from:to,...|none]\n"
    "       [--timeout S] [--expect VERDICT] [--selftest-harness-leak]\n"
    "       [--kat-record <kat.json> [--slowdown 60] [--budget-s 30]]\n"
    "       ngcc-ct --run --lib <libngcc_ct.so> [--public-randomness ...] [--public-sk ...]\n"
    "               [--public-draws draw:from:to,...|none] [--find-public-draws]   (what valgrind runs)\n";

/* "sign,enc" -> flags; -1 after a one-line message */
static int parse_public(const char *prog, const char *v, unsigned *out)
{
    *out = 0;
    if (!strcmp(v, "none") || !*v)
        return 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "keygen"))
            *out |= CT_PUBLIC_KEYGEN;
        else if (!strcmp(t, "sign"))
            *out |= CT_PUBLIC_SIGN;
        else if (!strcmp(t, "enc"))
            *out |= CT_PUBLIC_ENC;
        else {
            fprintf(stderr,
                    "%s: --public-randomness %s: \"%s\" is not keygen, sign or enc (the operations that draw "
                    "from the DRNG); fix the override \"ct\": {\"public_randomness\": [...]}\n",
                    prog, v, t);
            return -1;
        }
    }
    return 0;
}

/* "32:64,100:132" -> ranges; -1 after a one-line message */
static int parse_ranges(const char *prog, const char *v, ct_ranges *out)
{
    out->n = 0;
    if (!strcmp(v, "none") || !*v)
        return 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned long long a, b;
        char end;
        if (out->n == CT_MAX_RANGES || sscanf(t, "%llu:%llu%c", &a, &b, &end) != 2 || a >= b) {
            fprintf(stderr,
                    "%s: --public-sk %s: \"%s\" is not a byte range from:to with from < to (at most %d); fix "
                    "the override \"ct\": {\"public_sk\": [\"32:64\"]}\n",
                    prog, v, t, CT_MAX_RANGES);
            return -1;
        }
        out->from[out->n] = a;
        out->to[out->n++] = b;
    }
    return 0;
}

/* "3:0:32,5:0:16" (draw:from:to) -> ranges; -1 after a one-line message */
static int parse_draws(const char *prog, const char *v, ct_draw_ranges *out)
{
    out->n = 0;
    if (!strcmp(v, "none") || !*v)
        return 0;
    char buf[1200];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned long long d, a, b;
        char end;
        if (out->n == CT_MAX_DRAW_RANGES || sscanf(t, "%llu:%llu:%llu%c", &d, &a, &b, &end) != 3 || a >= b) {
            fprintf(stderr, "%s: --public-draws %s: \"%s\" is not draw:from:to with from < to (at most %d)\n", prog, v,
                    t, CT_MAX_DRAW_RANGES);
            return -1;
        }
        out->draw[out->n] = d;
        out->from[out->n] = a;
        out->to[out->n++] = b;
    }
    return 0;
}

static int own_option(ngcc_frame *f, int c, const char *v)
{
    switch (c) {
    case 'v':
        C.valgrind = v;
        return 0;
    case 's':
        C.supp = v;
        return 0;
    case 'k':
        C.kat_record = v;
        return 0;
    case 'p':
        C.public_arg = v;
        return parse_public("ngcc-ct", v, &C.public_ops);
    case 'q':
        C.public_sk_arg = v;
        return parse_ranges("ngcc-ct", v, &C.public_sk);
    case 'w':
        return ngcc_frame_number(f, "slowdown", v, 1, 1e4, &C.slowdown);
    case 'b':
        return ngcc_frame_number(f, "budget-s", v, 0, 1e6, &C.budget);
    case 'H':
        C.harness_leak = 1;
        return 0;
    }
    return -1;
}

static int is_flow(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--run") == 0)
            return 1;
    return 0;
}

static int run_flow(int argc, char **argv)
{
    static const struct option lo[] = {{"run", 0, 0, 'R'},
                                       {"lib", 1, 0, 'l'},
                                       {"public-randomness", 1, 0, 'p'},
                                       {"public-sk", 1, 0, 'q'},
                                       {"public-draws", 1, 0, 'd'},
                                       {"find-public-draws", 0, 0, 'F'},
                                       {"selftest-harness-leak", 0, 0, 'H'},
                                       {0, 0, 0, 0}};
    const char *lib = NULL;
    unsigned pub = 0;
    static ct_ranges ranges;
    static ct_draw_ranges draws;
    int c, find = 0;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'l')
            lib = optarg;
        else if (c == 'p') {
            if (parse_public("ngcc-ct --run", optarg, &pub))
                return 2;
        } else if (c == 'q') {
            if (parse_ranges("ngcc-ct --run", optarg, &ranges))
                return 2;
        } else if (c == 'd') {
            if (parse_draws("ngcc-ct --run", optarg, &draws))
                return 2;
        } else if (c == 'F') {
            find = 1;
        } else if (c == 'H') {
            ct_flow_selftest_harness_leak = 1;
        } else if (c != 'R')
            return 2;
    }
    ct_flow_opts o = {pub, &ranges, &draws, find};
    return lib ? ct_flow(lib, 0, &o) : 2;
}

static int parse(int argc, char **argv)
{
    static const struct option lo[] = {{"valgrind", 1, 0, 'v'},
                                       {"suppressions", 1, 0, 's'},
                                       {"kat-record", 1, 0, 'k'},
                                       {"public-randomness", 1, 0, 'p'},
                                       {"public-sk", 1, 0, 'q'},
                                       {"slowdown", 1, 0, 'w'},
                                       {"budget-s", 1, 0, 'b'},
                                       {"selftest-harness-leak", 0, 0, 'H'},
                                       {0, 0, 0, 0}};
    static const ngcc_frame_spec spec = {"ct", "ngcc-ct", usage, lo, own_option, 0, NULL};
    C.slowdown = 60;
    C.budget = 30;
    int rc = ngcc_frame_parse(&C.f, &spec, argc, argv);
    if (rc)
        return rc;
    C.lib = realpath(C.f.lib, C.lib_real) ? C.lib_real : C.f.lib;
    C.log = C.f.log;
    if (!C.valgrind || !C.supp || !C.log) {
        fprintf(stderr, "ngcc-ct: --valgrind, --suppressions and --log are required\n%s", usage);
        ngcc_frame_free(&C.f);
        return 2;
    }
    ngcc_inputs_add_file(C.f.inputs, "suppressions_sha256", C.supp);
    ngcc_inputs_add_file(C.f.inputs, "valgrind_sha256", C.valgrind);
    if (C.kat_record) {
        cJSON *k = access(C.kat_record, R_OK) == 0 ? ngcc_record_load(C.kat_record) : NULL;
        ngcc_inputs_add_member(C.f.inputs, "kat_op_seconds_sha256", k, "op_seconds");
        cJSON_Delete(k);
    }
    snprintf(C.xml, sizeof C.xml, "%s.xml", C.log);
    return 0;
}

static int xml_fd = -1;

static int exec_valgrind(void *arg, int unused_fd)
{
    (void)arg;
    (void)unused_fd;
    char supp[PATH_MAX + 32], xfd[32];
    snprintf(supp, sizeof supp, "--suppressions=%s", C.supp);
    snprintf(xfd, sizeof xfd, "--xml-fd=%d", xml_fd);
    char *argv[] = {(char *)C.valgrind,
                    "--tool=memcheck",
                    "--track-origins=yes",
                    "--leak-check=no",
                    "--num-callers=30",
                    "--vgdb=no",
                    "--xml=yes",
                    xfd,
                    "--log-fd=2",
                    supp,
                    C.self,
                    "--run",
                    "--lib",
                    (char *)C.lib,
                    "--public-randomness",
                    (char *)(C.public_arg ? C.public_arg : "none"),
                    "--public-sk",
                    (char *)(C.public_sk_arg ? C.public_sk_arg : "none"),
                    "--public-draws",
                    C.draws_arg,
                    C.harness_leak ? "--selftest-harness-leak" : NULL,
                    NULL};
    execv(C.valgrind, argv);
    fprintf(stderr, "ngcc-ct: cannot run %s: %s\n", C.valgrind, strerror(errno));
    return 127;
}

/* ---- valgrind's XML (protocol 4) ---- */

/* the text of the first <name>...</name> in [from, to), unescaped; NULL if none */
static const char *xml_tag(const char *from, const char *to, const char *name, char *out, size_t cap)
{
    char open[48], close[48];
    snprintf(open, sizeof open, "<%s>", name);
    snprintf(close, sizeof close, "</%s>", name);
    const char *a = strstr(from, open);
    if (!a || a >= to)
        return NULL;
    a += strlen(open);
    const char *b = strstr(a, close);
    if (!b || b > to)
        return NULL;
    size_t n = 0;
    for (const char *p = a; p < b && n + 1 < cap; n++) {
        static const struct {
            const char *e;
            char c;
        } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
        int hit = 0;
        for (size_t i = 0; i < sizeof ents / sizeof ents[0]; i++)
            if (!strncmp(p, ents[i].e, strlen(ents[i].e))) {
                out[n] = ents[i].c;
                p += strlen(ents[i].e);
                hit = 1;
                break;
            }
        if (!hit)
            out[n] = *p++;
    }
    out[n] = 0;
    return b + strlen(close);
}

typedef struct {
    char obj[PATH_MAX], fn[128], file[256], dir[PATH_MAX];
    int line;
} frame;

/* the frames of the <stack> starting at s (to its </stack>); returns the count */
static int xml_frames(const char *s, const char *to, frame *fr, int cap, const char **end)
{
    const char *e = strstr(s, "</stack>");
    if (!e || e > to)
        e = to;
    int n = 0;
    for (const char *p = strstr(s, "<frame>"); p && p < e && n < cap; p = strstr(p + 1, "<frame>")) {
        const char *fe = strstr(p, "</frame>");
        if (!fe || fe > e)
            break;
        frame *f = &fr[n++];
        char line[32] = "";
        if (!xml_tag(p, fe, "obj", f->obj, sizeof f->obj))
            f->obj[0] = 0;
        if (!xml_tag(p, fe, "fn", f->fn, sizeof f->fn))
            snprintf(f->fn, sizeof f->fn, "??");
        if (!xml_tag(p, fe, "file", f->file, sizeof f->file))
            f->file[0] = 0;
        if (!xml_tag(p, fe, "dir", f->dir, sizeof f->dir))
            f->dir[0] = 0;
        xml_tag(p, fe, "line", line, sizeof line);
        f->line = atoi(line);
    }
    *end = e;
    return n;
}

static int is_instance(const char *obj)
{
    char r[PATH_MAX];
    if (!obj[0])
        return 0;
    if (!strcmp(obj, C.lib) || !strcmp(obj, C.f.lib))
        return 1;
    return realpath(obj, r) && !strcmp(r, C.lib);
}

static int is_libcrypto(const char *obj)
{
    const char *b = strrchr(obj, '/');
    return !strncmp(b ? b + 1 : obj, "libcrypto", 9);
}

static const char *api_op(const char *fn)
{
    static const char *const ops[] = {"keygen", "sign", "verify", "enc", "dec"};
    static const struct {
        const char *fn, *op;
    } kex[] = {{"kex_init_a", "init_a"},
               {"kex_init_b", "init_b"},
               {"kex_generate_pass1_msg_a", "pass1"},
               {"kex_generate_pass2_msg_b", "pass2"},
               {"kex_generate_pass3_msg_a", "pass3"},
               {"kex_generate_pass4_msg_b", "pass4"},
               {"kex_generate_pass5_msg_a", "pass5"},
               {"kex_generate_pass6_msg_b", "pass6"},
               {"kex_generate_pass7_msg_a", "pass7"},
               {"kex_generate_pass8_msg_b", "pass8"},
               {"kex_derive_ss_a", "derive_a"},
               {"kex_derive_ss_b", "derive_b"},
               {"CryptHash", "hash"}};
    for (size_t i = 0; i < sizeof kex / sizeof kex[0]; i++)
        if (!strcmp(fn, kex[i].fn))
            return kex[i].op;
    if (strncmp(fn, "sig_", 4) && strncmp(fn, "kem_", 4))
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(fn + 4, ops[i]))
            return ops[i];
    return NULL;
}

/* A site in the ICCS template's code: the official drng.c / auxfunc.c (a
 * candidate's copy, byte-identical or edited: recognised by the file name and
 * the template's function names, as a template-UB site is), or the suite's
 * stand-in for them (iccs/src, NGCC_ICCS_SRC_DIR). inc_Big_Number's early
 * exit is a branch on the DRNG state, secret once a candidate reseeds a DRNG
 * from a secret: the template's, a note, not the candidate's verdict. */
static int is_iccs_template(const frame *f)
{
    static const char *const drng[] = {
        "sm3_bit_init",      "sm3_bit_compress",   "sm3_bit",          "u32_to_u8_big_endian",
        "inc_Big_Number",    "plus_Big_Number",    "SM3_df",           "SM3_DRNG_Instantiate",
        "SM3_DRNG_Generate", "init_random_number", "get_random_number"};
    static const char *const aux[] = {"sm3_bit_init", "sm3_bit_compress", "sm3_bit",        "normalize",
                                      "hmac",         "pseudohash_512",   "pseudohash_768", "pseudohash_1024",
                                      "sm3hash",      "pseudohash",       "pseudoXOF"};
#ifdef NGCC_ICCS_SRC_DIR
    if (f->dir[0] && !strcmp(f->dir, NGCC_ICCS_SRC_DIR))
        return 1;
#endif
    int is_drng = !strcasecmp(f->file, "drng.c"), is_aux = !strcasecmp(f->file, "auxfunc.c");
    const char *const *names = is_drng ? drng : aux;
    size_t n = is_drng ? sizeof drng / sizeof drng[0] : sizeof aux / sizeof aux[0];
    for (size_t i = 0; (is_drng || is_aux) && i < n; i++)
        if (!strcmp(f->fn, names[i]))
            return 1;
    return 0;
}

static void parse_error(const char *s, const char *e)
{
    ct_site t;
    memset(&t, 0, sizeof t);
    xml_tag(s, e, "unique", t.unique, sizeof t.unique);
    xml_tag(s, e, "kind", t.kind, sizeof t.kind);
    if (!strncmp(t.kind, "Leak_", 5)) /* a leak report is no secret-dependent use */
        return;
    if (!xml_tag(s, e, "what", t.what, sizeof t.what)) {
        const char *xw = strstr(s, "<xwhat>");
        if (xw && xw < e)
            xml_tag(xw, e, "text", t.what, sizeof t.what);
    }
    static frame fr[32], of[32];
    const char *st = strstr(s, "<stack>"), *after = e;
    int n = st && st < e ? xml_frames(st, e, fr, 32, &after) : 0;
    /* the origin: "Uninitialised value was created by a client request" + its stack */
    char aux[256] = "";
    const char *ap = xml_tag(after, e, "auxwhat", aux, sizeof aux);
    int on = 0;
    if (ap) {
        const char *os = strstr(ap, "<stack>"), *oe;
        if (os && os < e)
            on = xml_frames(os, e, of, 32, &oe);
    }
    int from_request = strstr(aux, "client request") != NULL;
    if (from_request) {
        int drng = 0;
        for (int i = 0; i < on; i++)
            if (!strcmp(of[i].fn, "__wrap_get_random_number")) {
                drng = 1;
                snprintf(t.secret, sizeof t.secret, "DRNG output of %s", i + 1 < on ? of[i + 1].fn : "?");
                break;
            }
        /* the flow function that marked it (ct_flow.c) */
        int kex = 0, msg = 0;
        for (int i = 0; i < on && !drng; i++) {
            kex |= !strcmp(of[i].fn, "kex_secret");
            msg |= !strcmp(of[i].fn, "hash_record");
        }
        if (!drng)
            snprintf(t.secret, sizeof t.secret, "%s",
                     kex   ? "a KEX secret input (ska, skb, sta or stb)"
                     : msg ? "the message"
                           : "sk");
    } else {
        const char *where = strstr(aux, "stack allocation")  ? "uninitialised stack"
                            : strstr(aux, "heap allocation") ? "uninitialised heap"
                                                             : "a value of unknown origin";
        snprintf(t.secret, sizeof t.secret, "%s%s%s", where, on ? " of " : "", on ? of[0].fn : "");
    }
    int inst = -1;
    for (int i = 0; i < n && inst < 0; i++)
        if (is_instance(fr[i].obj))
            inst = i;
    for (int i = 0; i < n; i++) {
        const char *op = api_op(fr[i].fn);
        if (op) {
            snprintf(t.op, sizeof t.op, "%s", op);
            break;
        }
    }
    int at = inst >= 0 ? inst : 0;
    if (inst < 0)
        t.cls = CLS_HARNESS;
    else
        t.cls = CLS_CANDIDATE;
    for (int i = 0; i < inst && t.cls == CLS_CANDIDATE; i++)
        if (is_libcrypto(fr[i].obj))
            t.cls = CLS_LIBCRYPTO;
    if (t.cls == CLS_LIBCRYPTO)
        at = 0;
    if (t.cls == CLS_CANDIDATE && is_iccs_template(&fr[at]))
        t.cls = CLS_ICCS;
    if (n > 0) {
        const char *base = strrchr(fr[at].obj, '/');
        if (!strcmp(fr[at].fn, "??") && fr[at].obj[0])
            snprintf(t.fn, sizeof t.fn, "%s", base ? base + 1 : fr[at].obj);
        else
            snprintf(t.fn, sizeof t.fn, "%s", fr[at].fn);
        snprintf(t.file, sizeof t.file, "%s", fr[at].file);
        t.line = fr[at].line;
        snprintf(t.obj, sizeof t.obj, "%s", fr[at].obj);
        if (at > 0 && t.cls == CLS_CANDIDATE)
            snprintf(t.via, sizeof t.via, "%s", fr[0].fn);
        if (t.cls == CLS_LIBCRYPTO && inst >= 0)
            snprintf(t.via, sizeof t.via, "%s (%s:%d)", fr[inst].fn, fr[inst].file, fr[inst].line);
    }
    t.count = 1;
    if (C.nsites < MAX_SITES)
        C.sites[C.nsites++] = t;
    else
        C.dropped++;
}

static void read_xml(void)
{
    size_t len;
    char *x = ngcc_read_file(C.xml, &len);
    if (!x)
        return;
    for (char *p = strstr(x, "<error>"); p; p = strstr(p, "<error>")) {
        char *e = strstr(p, "</error>");
        if (!e)
            break;
        parse_error(p, e);
        p = e;
    }
    /* occurrences per unique error */
    char *ec = strstr(x, "<errorcounts>"), *ece = ec ? strstr(ec, "</errorcounts>") : NULL;
    for (char *p = ec ? strstr(ec, "<pair>") : NULL; p && p < ece; p = strstr(p + 1, "<pair>")) {
        char *pe = strstr(p, "</pair>");
        char cnt[32] = "", uq[24] = "";
        xml_tag(p, pe, "count", cnt, sizeof cnt);
        xml_tag(p, pe, "unique", uq, sizeof uq);
        for (int i = 0; i < C.nsites; i++)
            if (!strcmp(C.sites[i].unique, uq))
                C.sites[i].count = atol(cnt);
    }
    char *sc = strstr(x, "<suppcounts>"), *sce = sc ? strstr(sc, "</suppcounts>") : NULL;
    C.suppressed = 0;
    for (char *p = sc ? strstr(sc, "<pair>") : NULL; p && p < sce; p = strstr(p + 1, "<pair>")) {
        char cnt[32] = "";
        xml_tag(p, sce, "count", cnt, sizeof cnt);
        C.suppressed += atol(cnt);
    }
    C.done = C.done && strstr(x, "</valgrindoutput>") != NULL;
    free(x);
    for (int i = 0; i < C.nsites; i++) {
        C.occurrences[C.sites[i].cls] += C.sites[i].count;
        C.contexts[C.sites[i].cls]++;
    }
}

static void read_log(void)
{
    size_t len;
    char *text = ngcc_read_file(C.log, &len);
    for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
        nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        if (!strncmp(l, "#OP ", 4)) {
            snprintf(C.last_op, sizeof C.last_op, "%s", l + 4);
        } else if (!strncmp(l, "#DRAWS ", 7)) {
            char op[16] = "";
            unsigned long long calls = 0, bytes = 0;
            if (sscanf(l + 7, "%15s %llu %llu", op, &calls, &bytes) == 3) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "op", op);
                cJSON_AddNumberToObject(o, "drng_calls", (double)calls);
                cJSON_AddNumberToObject(o, "secret_bytes", (double)bytes);
                cJSON_AddBoolToObject(o, "public_randomness", strstr(l, " public") != NULL);
                cJSON_AddItemToArray(C.ops, o);
            }
        } else if (!strncmp(l, "#SKPUBLIC ", 10)) {
            unsigned long long a, b;
            long at;
            char buf[16] = "sk";
            int seen = 0;
            if (sscanf(l + 10, "%llu %llu %ld %15s", &a, &b, &at, buf) >= 3) {
                /* a KEX state is marked again before each call: one entry per range */
                for (const cJSON *o = C.sk_ranges->child; o; o = o->next)
                    seen |= !strcmp(cJSON_GetObjectItem(o, "buffer")->valuestring, buf) &&
                            cJSON_GetObjectItem(o, "from")->valuedouble == (double)a &&
                            cJSON_GetObjectItem(o, "to")->valuedouble == (double)b;
            }
            if (!seen && sscanf(l + 10, "%llu %llu %ld", &a, &b, &at) == 3) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "buffer", buf);
                cJSON_AddNumberToObject(o, "from", (double)a);
                cJSON_AddNumberToObject(o, "to", (double)b);
                cJSON_AddNumberToObject(o, "pk_offset", (double)at);
                cJSON_AddItemToArray(C.sk_ranges, o);
                size_t k = strlen(C.sk_public);
                if (k + 60 < sizeof C.sk_public)
                    snprintf(C.sk_public + k, sizeof C.sk_public - k, "%s%s [%llu, %llu) (%s)", k ? ", " : "", buf, a,
                             b,
                             at < 0               ? "override"
                             : !strcmp(buf, "sk") ? "a copy of pk"
                                                  : "a copy of a public key or message");
            }
        } else if (!strncmp(l, "#META ", 6) && strchr(l + 6, ' ')) {
            char *v = strchr(l + 6, ' ');
            *v = 0;
            cJSON_AddStringToObject(C.meta, l + 6, v + 1);
        } else if (!strncmp(l, "#LOADFAIL ", 10)) {
            snprintf(C.loadfail, sizeof C.loadfail, "%s", l + 10);
        } else if (!strcmp(l, "#DONE")) {
            C.done = 1;
        }
    }
    free(text);
}

/* "branch on sk in kem_dec (KEM_AlgorithmInstance.c:123) [dec, 4x]" */
static void site_text(const ct_site *s, char *out, size_t cap)
{
    const char *what = !strcmp(s->kind, "UninitCondition") ? "branch"
                       : !strcmp(s->kind, "UninitValue")   ? "memory index"
                                                           : s->kind;
    char via[160] = "";
    if (s->via[0])
        snprintf(via, sizeof via, " via %s", s->via);
    char at[300] = ""; /* no debug information (libcrypto): the object alone */
    if (s->file[0])
        snprintf(at, sizeof at, " (%s:%d)", s->file, s->line);
    snprintf(out, cap, "%s on %s in %s%s%s [%s, %ldx]", what, s->secret, s->fn, at, via, s->op[0] ? s->op : "?",
             s->count);
}

/* the first SHOW_SITES sites of class cls, "; "-separated, distinct by fn/file:line */
static void list_sites(int cls, char *out, size_t cap, int *distinct)
{
    out[0] = 0;
    *distinct = 0;
    for (int i = 0; i < C.nsites; i++) {
        const ct_site *s = &C.sites[i];
        if (s->cls != cls)
            continue;
        int seen = 0;
        for (int j = 0; j < i; j++)
            if (C.sites[j].cls == cls && C.sites[j].line == s->line && !strcmp(C.sites[j].file, s->file) &&
                !strcmp(C.sites[j].fn, s->fn) && !strcmp(C.sites[j].kind, s->kind) && !strcmp(C.sites[j].via, s->via))
                seen = 1;
        if (seen)
            continue;
        if ((*distinct)++ < SHOW_SITES) {
            char t[640];
            site_text(s, t, sizeof t);
            size_t n = strlen(out);
            snprintf(out + n, cap - n, "%s%s", n ? "; " : "", t);
        }
    }
}

/* the inputs marked secret besides the DRNG output, by type */
static const char *secrets_marked(void)
{
    const cJSON *type = cJSON_GetObjectItem(C.meta, "type");
    const char *t = cJSON_IsString(type) ? type->valuestring : "";
    return !strcmp(t, "KEX") ? "ska, skb, the states sta/stb" : !strcmp(t, "HASH") ? "the message (keyed use)" : "sk";
}

static void judge(void)
{
    char cand[1400], other[700], iccs[700], tail[2000] = "";
    int nc, nl, ni;
    list_sites(CLS_CANDIDATE, cand, sizeof cand, &nc);
    list_sites(CLS_LIBCRYPTO, other, sizeof other, &nl);
    list_sites(CLS_ICCS, iccs, sizeof iccs, &ni);
    size_t n = 0;
    /* what was left public and why, then the template's sites: after the
     * candidate's own sites, which come first */
    if (C.draws_text[0])
        n += snprintf(tail + n, sizeof tail - n,
                      "; declassified DRNG draws (public by construction: their bytes appear verbatim in a public "
                      "output): %s",
                      C.draws_text);
    if (C.occurrences[CLS_ICCS] && n < sizeof tail)
        n += snprintf(tail + n, sizeof tail - n,
                      "; note: %d site(s), %ld occurrence(s) in the ICCS template's code (drng.c/auxfunc.c, "
                      "not the candidate's, not judged): %s",
                      ni, C.occurrences[CLS_ICCS], iccs);
    if (C.occurrences[CLS_LIBCRYPTO] && n < sizeof tail)
        n += snprintf(tail + n, sizeof tail - n,
                      "; libcrypto: %d site(s), %ld occurrence(s) inside OpenSSL, reported, not judged (first: %s)", nl,
                      C.occurrences[CLS_LIBCRYPTO], other);
    if (C.sk_public[0] && n < sizeof tail)
        n += snprintf(tail + n, sizeof tail - n, "; public: %s", C.sk_public);
    if (C.public_ops && n < sizeof tail)
        snprintf(tail + n, sizeof tail - n, "; DRNG output public by override in: %s", C.public_arg);
    if (C.child.end == NGCC_CHILD_TIMEDOUT) {
        ngcc_frame_set(&C.f, NGCC_TIMEOUT,
                       "no result after %.0f s under valgrind (last: %s); raise the \"timeouts\" {\"ct\": S} "
                       "override",
                       C.f.timeout, C.last_op[0] ? C.last_op : "the start");
    } else if (C.loadfail[0]) {
        ngcc_frame_set(&C.f, NGCC_LOADFAIL, "cannot load the instance library: %s", C.loadfail);
    } else if (C.child.end == NGCC_CHILD_SIGNALED || C.child.code >= 128) {
        /* first: what a dying process leaves (its last frames in malloc/abort) is no harness bug */
        int sig = C.child.end == NGCC_CHILD_SIGNALED ? C.child.code : C.child.code - 128;
        char last[96] = "in the first API call", op[32];
        int rc;
        if (sscanf(C.last_op, "%31s %d", op, &rc) == 2) /* "#OP keygen 0": printed when keygen returned 0 */
            snprintf(last, sizeof last, "after %s returned %d", op, rc);
        ngcc_frame_set(&C.f, NGCC_CRASH,
                       "the instance died of signal %d (%s) %s (KAT record 0 under valgrind)%s%s; see %s", sig,
                       strsignal(sig), last, nc ? "; secret-dependent sites before it: " : "", nc ? cand : "", C.log);
    } else if (C.occurrences[CLS_HARNESS]) {
        int nh;
        char h[1400];
        list_sites(CLS_HARNESS, h, sizeof h, &nh);
        ngcc_frame_set(&C.f, NGCC_ERROR, "harness bug: %ld secret-dependent use(s) outside the instance: %s",
                       C.occurrences[CLS_HARNESS], h);
    } else if (nc > 0) {
        const cJSON *type = cJSON_GetObjectItem(C.meta, "type");
        int hash = cJSON_IsString(type) && !strcmp(type->valuestring, "HASH");
        ngcc_frame_set(&C.f, NGCC_LEAK, "%d secret-dependent site(s), %ld occurrence(s) in candidate code: %s%s%s%s",
                       nc, C.occurrences[CLS_CANDIDATE], cand, nc > SHOW_SITES ? "; ..." : "",
                       hash ? "; keyed use: the message is the secret (HMAC, KDFs and hash-based signatures hash "
                              "secrets), so a branch or table index on message bytes leaks it through timing"
                            : "",
                       tail);
    } else if (C.child.code == 127 || !C.done) {
        ngcc_frame_set(&C.f, NGCC_ERROR, "the run under valgrind did not complete (exit code %d, last: %s); see %s",
                       C.child.code, C.last_op[0] ? C.last_op : "the start", C.log);
    } else {
        /* what was marked, so a PASS says what it covers */
        char drew[300] = "";
        size_t k = 0;
        for (const cJSON *o = C.ops->child; o; o = o->next) {
            const char *op = cJSON_GetObjectItem(o, "op")->valuestring;
            double calls = cJSON_GetObjectItem(o, "drng_calls")->valuedouble;
            double bytes = cJSON_GetObjectItem(o, "secret_bytes")->valuedouble;
            int pub = cJSON_IsTrue(cJSON_GetObjectItem(o, "public_randomness"));
            if (calls > 0 && k < sizeof drew && pub)
                k += snprintf(drew + k, sizeof drew - k, "%s%s %.0f draw(s) left public", k ? ", " : "", op, calls);
            else if (calls > 0 && k < sizeof drew)
                k += snprintf(drew + k, sizeof drew - k, "%s%s %.0f B", k ? ", " : "", op, bytes);
        }
        ngcc_frame_set(&C.f, NGCC_PASS,
                       "no secret-dependent branch or index in candidate code (KAT record 0; secret: %s, DRNG "
                       "output: %s; %ld suppressed)%s",
                       secrets_marked(), drew[0] ? drew : "none drawn through get_random_number", C.suppressed, tail);
    }
}

/* like memcheck's: a run that cannot finish within the budget is not started */
static int predicted_too_slow(void)
{
    if (!C.kat_record) {
        snprintf(C.prediction, sizeof C.prediction, "no KAT record given: not predicted");
        return 0;
    }
    cJSON *k = access(C.kat_record, R_OK) == 0 ? ngcc_record_load(C.kat_record) : NULL;
    const cJSON *ops = k ? cJSON_GetObjectItem(k, "op_seconds") : NULL;
    double native = 0;
    int n = 0;
    for (const cJSON *o = ops ? ops->child : NULL; o; o = o->next) {
        const cJSON *med = cJSON_GetObjectItem(o, "median");
        if (cJSON_IsNumber(med)) {
            native += med->valuedouble;
            n++;
        }
    }
    cJSON_Delete(k);
    if (n == 0) {
        snprintf(C.prediction, sizeof C.prediction, "%s has no op_seconds: not predicted", C.kat_record);
        return 0;
    }
    double predicted = native * C.slowdown;
    snprintf(C.prediction, sizeof C.prediction,
             "one KAT record takes ~%.3g s natively (%s op_seconds medians), ~%.3g s predicted under memcheck "
             "with origins (x%g)",
             native, C.kat_record, predicted, C.slowdown);
    if (C.budget <= 0 || predicted <= C.budget)
        return 0;
    ngcc_frame_set(&C.f, NGCC_SKIP,
                   "not run: %s, above the ct budget of %.0f s per instance; give it a \"timeouts\" {\"ct\": S} "
                   "override of at least %.0f s to run it",
                   C.prediction, C.budget, predicted * 1.5);
    return 1;
}

/* the native run that finds the DRNG draws copied into a public output
 * (forked: the instance runs in a child, as always) */
static int run_find(void *arg, int unused_fd)
{
    (void)arg;
    (void)unused_fd;
    ct_flow_opts o = {C.public_ops, &C.public_sk, NULL, 1};
    return ct_flow(C.lib, 0, &o);
}

/* "#DRAWPUB draw op from to len output offset" lines -> C.draws, the
 * --public-draws value and the detail's text */
static void find_public_draws(void)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s.draws", C.log);
    ngcc_child_opts o = {C.f.timeout, 0, path};
    ngcc_child_run(run_find, NULL, &o, &C.find);
    C.find_ran = 1;
    size_t len, na = 0, nt = 0;
    char *text = ngcc_read_file(path, &len);
    for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
        nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        unsigned long long d, a, b, dlen, off;
        char op[16], out[16];
        if (strncmp(l, "#DRAWPUB ", 9) ||
            sscanf(l + 9, "%llu %15s %llu %llu %llu %15s %llu", &d, op, &a, &b, &dlen, out, &off) != 7 ||
            C.draws.n == CT_MAX_DRAW_RANGES)
            continue;
        C.draws.draw[C.draws.n] = d;
        C.draws.from[C.draws.n] = a;
        C.draws.to[C.draws.n++] = b;
        na += snprintf(C.draws_arg + na, na < sizeof C.draws_arg ? sizeof C.draws_arg - na : 0, "%s%llu:%llu:%llu",
                       na ? "," : "", d, a, b);
        char whole[64] = "";
        if (a != 0 || b != dlen)
            snprintf(whole, sizeof whole, " bytes [%llu, %llu)", a, b);
        if (nt < sizeof C.draws_text)
            nt +=
                snprintf(C.draws_text + nt, sizeof C.draws_text - nt, "%sdraw #%llu of %s (%llu B)%s = %s[%llu, %llu)",
                         nt ? ", " : "", d + 1, op, dlen, whole, out, off, off + b - a);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "draw", (double)(d + 1));
        cJSON_AddStringToObject(j, "op", op);
        cJSON_AddNumberToObject(j, "draw_bytes", (double)dlen);
        cJSON_AddNumberToObject(j, "from", (double)a);
        cJSON_AddNumberToObject(j, "to", (double)b);
        cJSON_AddStringToObject(j, "output", out);
        cJSON_AddNumberToObject(j, "output_offset", (double)off);
        cJSON_AddStringToObject(j, "why", "its bytes appear verbatim in a public output: public by construction");
        cJSON_AddItemToArray(C.draws_json, j);
    }
    free(text);
    if (!C.draws_arg[0] || na >= sizeof C.draws_arg)
        snprintf(C.draws_arg, sizeof C.draws_arg, "none");
}

static void run_valgrind(void)
{
    find_public_draws();
    ssize_t n = readlink("/proc/self/exe", C.self, sizeof C.self - 1);
    if (n <= 0) {
        ngcc_frame_set(&C.f, NGCC_ERROR, "cannot find this program's own path: %s", strerror(errno));
        return;
    }
    C.self[n] = 0;
    ngcc_mkdirs(C.xml, 0); /* the log's folder (the records folder of a first run) */
    xml_fd = open(C.xml, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (xml_fd < 0) {
        ngcc_frame_set(&C.f, NGCC_ERROR, "cannot write %s: %s", C.xml, strerror(errno));
        return;
    }
    ngcc_child_opts o = {C.f.timeout, 0, C.log};
    ngcc_child_run(exec_valgrind, NULL, &o, &C.child);
    close(xml_fd);
    C.ran = 1;
    read_log();
    read_xml();
    judge();
}

static void write_record(const char *start)
{
    cJSON *r = ngcc_frame_record_new(&C.f);
    cJSON_ReplaceItemInObject(r, "start_utc", cJSON_CreateString(start));
    cJSON_AddStringToObject(r, "library", C.lib);
    char sha[65] = "";
    ngcc_sha256_file(C.lib, sha);
    cJSON_AddStringToObject(r, "library_sha256", sha);
    cJSON_AddItemToObject(r, "meta", cJSON_Duplicate(C.meta, 1));
    cJSON_AddNumberToObject(r, "kat_record", 0);
    cJSON_AddStringToObject(r, "prediction", C.prediction);
    cJSON_AddNumberToObject(r, "seconds", C.ran ? C.child.seconds : 0);
    cJSON_AddStringToObject(r, "public_randomness", C.public_arg ? C.public_arg : "none");
    cJSON_AddStringToObject(r, "public_sk_override", C.public_sk_arg ? C.public_sk_arg : "none");
    cJSON_AddStringToObject(r, "libcrypto_rule",
                            "sites inside libcrypto are counted and reported, not judged; the candidate's own "
                            "branches on libcrypto results are candidate code");
    cJSON_AddItemToObject(r, "ops", cJSON_Duplicate(C.ops, 1));
    cJSON_AddItemToObject(r, "sk_public", cJSON_Duplicate(C.sk_ranges, 1));
    cJSON_AddItemToObject(r, "declassified_draws", cJSON_Duplicate(C.draws_json, 1));
    cJSON_AddNumberToObject(r, "find_draws_seconds", C.find_ran ? C.find.seconds : 0);
    cJSON_AddNumberToObject(r, "find_draws_exit_code", C.find_ran ? C.find.code : 0);
    cJSON *cnt = cJSON_AddObjectToObject(r, "counts");
    for (int i = 0; i < CLS_N; i++) {
        cJSON *c = cJSON_AddObjectToObject(cnt, cls_name[i]);
        cJSON_AddNumberToObject(c, "contexts", (double)C.contexts[i]);
        cJSON_AddNumberToObject(c, "occurrences", (double)C.occurrences[i]);
    }
    cJSON_AddNumberToObject(cnt, "suppressed", (double)C.suppressed);
    cJSON_AddNumberToObject(cnt, "not_listed", (double)C.dropped);
    cJSON *sites = cJSON_AddArrayToObject(r, "sites");
    for (int i = 0; i < C.nsites; i++) {
        const ct_site *s = &C.sites[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "class", cls_name[s->cls]);
        cJSON_AddStringToObject(o, "kind", s->kind);
        cJSON_AddStringToObject(o, "what", s->what);
        cJSON_AddStringToObject(o, "function", s->fn);
        cJSON_AddStringToObject(o, "file", s->file);
        cJSON_AddNumberToObject(o, "line", s->line);
        cJSON_AddStringToObject(o, "via", s->via);
        cJSON_AddStringToObject(o, "op", s->op);
        cJSON_AddStringToObject(o, "secret", s->secret);
        cJSON_AddStringToObject(o, "object", s->obj);
        cJSON_AddNumberToObject(o, "count", (double)s->count);
        cJSON_AddItemToArray(sites, o);
    }
    cJSON *v = cJSON_AddObjectToObject(r, "valgrind");
    cJSON_AddStringToObject(v, "path", C.valgrind);
    cJSON_AddStringToObject(v, "suppressions", C.supp);
    cJSON_AddStringToObject(v, "options",
                            "--tool=memcheck --track-origins=yes --leak-check=no --num-callers=30 "
                            "--xml=yes");
    cJSON_AddNumberToObject(v, "exit_code", C.child.code);
    cJSON_AddStringToObject(v, "log", C.log);
    cJSON_AddStringToObject(v, "xml", C.xml);
    ngcc_frame_record_write(&C.f, r, NULL);
    cJSON_Delete(r);
}

static void case_no_secret_dependence(void **state)
{
    (void)state;
    if (C.f.verdict == NGCC_SKIP)
        skip();
    if (C.f.verdict == NGCC_LEAK)
        fail_msg("%s", C.f.detail);
}

static void case_run_completed(void **state)
{
    (void)state;
    if (C.f.verdict == NGCC_SKIP)
        skip();
    if (C.f.verdict != NGCC_PASS && C.f.verdict != NGCC_LEAK)
        fail_msg("%s: %s", ngcc_verdict_name(C.f.verdict), C.f.detail);
}

int main(int argc, char **argv)
{
    if (is_flow(argc, argv))
        return run_flow(argc, argv);
    int rc = parse(argc, argv);
    if (rc)
        return rc;
    if ((rc = ngcc_frame_resume(&C.f)) >= 0) {
        ngcc_frame_free(&C.f);
        return rc;
    }
    char start[32];
    ngcc_utc_now(start);
    C.meta = cJSON_CreateObject();
    C.ops = cJSON_CreateArray();
    C.sk_ranges = cJSON_CreateArray();
    C.draws_json = cJSON_CreateArray();
    snprintf(C.draws_arg, sizeof C.draws_arg, "none");
    char ewhy[256];
    const char *emu = ngcc_emulated(ewhy, sizeof ewhy);
    if (!ngcc_frame_check_build(&C.f)) {
        if (emu) /* as memcheck: the valgrind found here is a host program,
                  * under qemu-user it would trace the emulator, not the guest */
            ngcc_frame_set(&C.f, NGCC_SKIP,
                           "not run: emulated (%s: %s): valgrind cannot trace code run by user-mode emulation", emu,
                           ewhy);
        else if (!predicted_too_slow())
            run_valgrind();
    }
    for (int i = 0; i < C.nsites; i++) {
        char t[640];
        site_text(&C.sites[i], t, sizeof t);
        printf("ngcc-ct: %s: %s (%s)\n", cls_name[C.sites[i].cls], t, C.sites[i].what);
    }
    write_record(start);
    const struct CMUnitTest tests[] = {cmocka_unit_test(case_no_secret_dependence),
                                       cmocka_unit_test(case_run_completed)};
    char group[300];
    snprintf(group, sizeof group, "ct %s", C.f.name);
    _cmocka_run_group_tests(group, tests, 2, NULL, NULL);
    cJSON_Delete(C.meta);
    cJSON_Delete(C.ops);
    cJSON_Delete(C.sk_ranges);
    cJSON_Delete(C.draws_json);
    return ngcc_frame_finish(&C.f);
}
