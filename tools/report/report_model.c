#define _GNU_SOURCE
#include "report_model.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ngcc_util.h"

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "ngcc-report: out of memory\n");
        exit(2);
    }
    return q;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* sorted names in dir (no dot entries); want_dirs selects folders or *.json files */
static char **list_dir(const char *dir, int want_dirs, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *p;
        if (asprintf(&p, "%s/%s", dir, e->d_name) < 0)
            continue;
        int dirp = is_dir(p);
        free(p);
        size_t len = strlen(e->d_name);
        if (want_dirs ? !dirp : (dirp || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0))
            continue;
        names = xrealloc(names, (*n + 1) * sizeof *names);
        names[(*n)++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* kind and operation implied by a record's file name */
static void guess_kind(const char *base, char **kind, char **op)
{
    static const char *prefixed[] = {"build", "perf", "mem", "prof"};
    size_t len = strlen(base) - 5; /* without ".json" */
    for (size_t i = 0; i < sizeof prefixed / sizeof *prefixed; i++) {
        size_t pl = strlen(prefixed[i]);
        if (len > pl + 1 && strncmp(base, prefixed[i], pl) == 0 && base[pl] == '-') {
            *kind = xstrdup(prefixed[i]);
            *op = strndup(base + pl + 1, len - pl - 1);
            return;
        }
    }
    *kind = strndup(base, len);
    *op = NULL;
}

static rp_record *load_record(const char *root, const char *rel, int *gaps)
{
    rp_record *r = calloc(1, sizeof *r);
    r->file = xstrdup(rel);
    if (asprintf(&r->path, "%s/%s", root, rel) < 0)
        exit(2);
    if (ngcc_sha256_file(r->path, r->sha256) != 0)
        snprintf(r->sha256, sizeof r->sha256, "unreadable");
    guess_kind(rp_basename(r), &r->kind, &r->op);
    size_t len = 0;
    char *text = ngcc_read_file(r->path, &len);
    char why[200] = "";
    if (!text) {
        snprintf(why, sizeof why, "cannot be read");
    } else {
        r->json = cJSON_ParseWithLength(text, len);
        if (!r->json) {
            const char *at = cJSON_GetErrorPtr();
            long off = at && at >= text && at <= text + len ? (long)(at - text) : -1;
            snprintf(why, sizeof why, "is not valid JSON (parse error near byte %ld of %zu)", off, len);
        } else if (!cJSON_IsObject(r->json)) {
            snprintf(why, sizeof why, "is not a JSON object");
            cJSON_Delete(r->json);
            r->json = NULL;
        }
        free(text);
    }
    if (why[0]) {
        r->error = xstrdup(why);
        (*gaps)++;
        fprintf(stderr,
                "ngcc-report: %s %s; its figures are marked as gaps on the pages "
                "(rerun the test that writes it, or delete the file)\n",
                r->path, why);
        return r;
    }
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(r->json, "kind");
    if (cJSON_IsString(k) && k->valuestring[0]) {
        free(r->kind);
        r->kind = xstrdup(k->valuestring);
    }
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(r->json, "op");
    if (cJSON_IsString(op) && op->valuestring[0]) {
        free(r->op);
        r->op = xstrdup(op->valuestring);
    }
    return r;
}

static void add_all(rp_system *s, rp_record *r)
{
    s->all = xrealloc(s->all, (s->nall + 1) * sizeof *s->all);
    s->all[s->nall++] = r;
}

static void load_instance(rp_system *s, rp_candidate *c, const char *key, int *gaps)
{
    rp_instance *in = &c->inst[c->ninst++];
    in->key = xstrdup(key);
    char *dir;
    if (asprintf(&dir, "%s/%s/%s", s->root, c->id, key) < 0)
        exit(2);
    size_t n;
    char **files = list_dir(dir, 0, &n);
    in->recs = calloc(n ? n : 1, sizeof *in->recs);
    for (size_t i = 0; i < n; i++) {
        char *rel;
        if (asprintf(&rel, "%s/%s/%s", c->id, key, files[i]) < 0)
            exit(2);
        in->recs[in->nrecs] = load_record(s->root, rel, gaps);
        add_all(s, in->recs[in->nrecs++]);
        free(rel);
    }
    free_names(files, n);
    free(dir);
}

static void load_candidate(rp_system *s, const char *id, int *gaps)
{
    rp_candidate *c = &s->cand[s->ncand++];
    c->id = xstrdup(id);
    char *dir;
    if (asprintf(&dir, "%s/%s", s->root, id) < 0)
        exit(2);
    size_t n;
    char **keys = list_dir(dir, 1, &n);
    c->inst = calloc(n ? n : 1, sizeof *c->inst);
    for (size_t i = 0; i < n; i++)
        load_instance(s, c, keys[i], gaps);
    free_names(keys, n);
    char *disc;
    if (asprintf(&disc, "%s/discover.json", dir) < 0)
        exit(2);
    if (access(disc, F_OK) == 0) { /* discover/<id> (cmake/NgccDiscoverError.cmake) */
        char *rel;
        if (asprintf(&rel, "%s/discover.json", id) < 0)
            exit(2);
        c->discover = load_record(s->root, rel, gaps);
        add_all(s, c->discover);
        free(rel);
    }
    free(disc);
    free(dir);
}

static void campaign_times(rp_system *s)
{
    for (size_t i = 0; i < s->nall; i++) {
        const cJSON *j = s->all[i]->json;
        const cJSON *a = j ? cJSON_GetObjectItemCaseSensitive(j, "start_utc") : NULL;
        const cJSON *b = j ? cJSON_GetObjectItemCaseSensitive(j, "end_utc") : NULL;
        if (cJSON_IsString(a) && a->valuestring[0] && strlen(a->valuestring) < sizeof s->start_utc &&
            (!s->start_utc[0] || strcmp(a->valuestring, s->start_utc) < 0))
            strcpy(s->start_utc, a->valuestring);
        if (cJSON_IsString(b) && b->valuestring[0] && strlen(b->valuestring) < sizeof s->end_utc &&
            strcmp(b->valuestring, s->end_utc) > 0)
            strcpy(s->end_utc, b->valuestring);
    }
}

static int cmp_rec(const void *a, const void *b)
{
    return strcmp((*(rp_record *const *)a)->file, (*(rp_record *const *)b)->file);
}

/* records/shard.json (NgccShard.cmake): its "shard" ("K/N") is kept for the join's summary */
static void load_shard(rp_system *s, const char *root)
{
    char *path;
    if (asprintf(&path, "%s/shard.json", root) < 0)
        exit(2);
    size_t len = 0;
    char *text = ngcc_read_file(path, &len);
    cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
    const cJSON *k = j ? cJSON_GetObjectItemCaseSensitive(j, "shard") : NULL;
    if (cJSON_IsString(k) && k->valuestring[0]) {
        s->shards = xrealloc(s->shards, (s->nshards + 1) * sizeof *s->shards);
        s->shards[s->nshards++] = xstrdup(k->valuestring);
    } else
        fprintf(stderr, "ngcc-report: %s has no \"shard\": \"K/N\"; rerun the shard's configure (NGCC_SHARD=K/N)\n",
                path);
    cJSON_Delete(j);
    free(text);
    free(path);
}

int rp_load(rp_campaign *c, const char *root)
{
    if (!is_dir(root)) {
        fprintf(stderr,
                "ngcc-report: records folder %s does not exist or is not a folder; "
                "run a campaign first or pass --records <build>/records\n",
                root);
        return -1;
    }
    c->sys = xrealloc(c->sys, (c->nsys + 1) * sizeof *c->sys);
    rp_system *s = &c->sys[c->nsys++];
    memset(s, 0, sizeof *s);
    s->root = xstrdup(root);
    s->nroots = 1;
    size_t n;
    char **top = list_dir(root, 0, &n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(top[i], "shard.json") == 0) { /* which shard wrote this folder: not a record */
            load_shard(s, root);
            continue;
        }
        rp_record *r = load_record(root, top[i], &c->gaps);
        add_all(s, r);
        if (strcmp(top[i], "system.json") == 0)
            s->system = r;
    }
    free_names(top, n);
    char **cands = list_dir(root, 1, &n);
    s->cand = calloc(n ? n : 1, sizeof *s->cand);
    for (size_t i = 0; i < n; i++)
        load_candidate(s, cands[i], &c->gaps);
    free_names(cands, n);
    if (s->nall > 1)
        qsort(s->all, s->nall, sizeof *s->all, cmp_rec);
    campaign_times(s);
    const char *id = NULL;
    if (s->system && s->system->json) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(s->system->json, "system_id");
        if (!cJSON_IsString(v) || !v->valuestring[0])
            v = cJSON_GetObjectItemCaseSensitive(s->system->json, "name");
        if (cJSON_IsString(v) && v->valuestring[0])
            id = v->valuestring;
    }
    s->id = xstrdup(id ? id : "unknown-system");
    return 0;
}

static int cmp_cand(const void *a, const void *b)
{
    return strcmp(((const rp_candidate *)a)->id, ((const rp_candidate *)b)->id);
}

static int cmp_inst(const void *a, const void *b)
{
    return strcmp(((const rp_instance *)a)->key, ((const rp_instance *)b)->key);
}

static rp_candidate *find_or_add_cand(rp_system *s, const char *id)
{
    for (size_t i = 0; i < s->ncand; i++)
        if (strcmp(s->cand[i].id, id) == 0)
            return &s->cand[i];
    s->cand = xrealloc(s->cand, (s->ncand + 1) * sizeof *s->cand);
    rp_candidate *c = &s->cand[s->ncand++];
    memset(c, 0, sizeof *c);
    c->id = xstrdup(id);
    return c;
}

static rp_instance *find_or_add_inst(rp_candidate *c, const char *key)
{
    for (size_t i = 0; i < c->ninst; i++)
        if (strcmp(c->inst[i].key, key) == 0)
            return &c->inst[i];
    c->inst = xrealloc(c->inst, (c->ninst + 1) * sizeof *c->inst);
    rp_instance *in = &c->inst[c->ninst++];
    memset(in, 0, sizeof *in);
    in->key = xstrdup(key);
    return in;
}

static void free_record(rp_record *r);

/* a record of src that dst has too, with other bytes: dst's becomes a gap naming the conflict */
static void conflict(rp_campaign *c, const rp_system *dst, rp_record *have, const rp_record *r, const char *src_root)
{
    char why[1200];
    snprintf(why, sizeof why,
             "differs between the records folders %s and %s (conflict between shards of %s: "
             "sha256 %.12s vs %.12s; keep one copy: rerun that test in one shard or delete the other file)",
             dst->root, src_root, dst->id, have->sha256, r->sha256);
    fprintf(stderr, "ngcc-report: conflict: %s %s\n", have->file, why);
    if (have->json) {
        cJSON_Delete(have->json);
        have->json = NULL;
        free(have->error);
        have->error = xstrdup(why);
        c->gaps++;
        c->conflicts++;
    }
}

/* src's record r joins instance in of dst: new file -> added; same bytes -> a
 * duplicate, dropped; other bytes -> conflict (never one copy picked) */
static void join_record(rp_campaign *c, rp_system *dst, rp_instance *in, rp_record *r, const char *src_root)
{
    for (size_t i = 0; i < in->nrecs; i++) {
        if (strcmp(in->recs[i]->file, r->file) != 0)
            continue;
        if (strcmp(in->recs[i]->sha256, r->sha256) != 0)
            conflict(c, dst, in->recs[i], r, src_root);
        free_record(r);
        return;
    }
    in->recs = xrealloc(in->recs, (in->nrecs + 1) * sizeof *in->recs);
    in->recs[in->nrecs++] = r;
    add_all(dst, r);
}

/* moves everything of src (loaded after dst, same system id) into dst and empties src */
static void join_system(rp_campaign *c, rp_system *dst, rp_system *src)
{
    /* top-level records other than system.json (the first folder's describes the system) */
    for (size_t i = 0; i < src->nall; i++) {
        rp_record *r = src->all[i];
        if (r == src->system || strchr(r->file, '/'))
            continue;
        size_t k = 0;
        while (k < dst->nall && strcmp(dst->all[k]->file, r->file) != 0)
            k++;
        if (k == dst->nall) {
            add_all(dst, r);
            continue;
        }
        if (strcmp(dst->all[k]->sha256, r->sha256) != 0)
            conflict(c, dst, dst->all[k], r, src->root);
        free_record(r);
    }
    if (src->system) {
        if (!dst->system) {
            dst->system = src->system;
            add_all(dst, src->system);
        } else
            free_record(src->system);
    }
    for (size_t k = 0; k < src->ncand; k++) {
        rp_candidate *sc = &src->cand[k];
        rp_candidate *dc = find_or_add_cand(dst, sc->id);
        for (size_t m = 0; m < sc->ninst; m++) {
            rp_instance *si = &sc->inst[m];
            rp_instance *di = find_or_add_inst(dc, si->key);
            for (size_t i = 0; i < si->nrecs; i++)
                join_record(c, dst, di, si->recs[i], src->root);
            free(si->key);
            free(si->recs);
        }
        free(sc->inst);
        free(sc->id);
    }
    for (size_t i = 0; i < src->nshards; i++) {
        dst->shards = xrealloc(dst->shards, (dst->nshards + 1) * sizeof *dst->shards);
        dst->shards[dst->nshards++] = src->shards[i];
    }
    dst->nroots += src->nroots;
    free(src->shards);
    free(src->cand);
    free(src->all);
    free(src->id);
    free(src->root);
    memset(src, 0, sizeof *src);
}

/* shards of one machine class: joined in the order given, then sorted as one folder would be */
static void join_systems(rp_campaign *c)
{
    size_t out = 0;
    for (size_t i = 0; i < c->nsys; i++) {
        size_t j = 0;
        while (j < out && !(strcmp(c->sys[j].id, c->sys[i].id) == 0 && c->sys[j].system && c->sys[i].system))
            j++;
        if (j < out) {
            join_system(c, &c->sys[j], &c->sys[i]);
            continue;
        }
        if (out != i)
            c->sys[out] = c->sys[i];
        out++;
    }
    c->nsys = out;
    for (size_t i = 0; i < c->nsys; i++) {
        rp_system *s = &c->sys[i];
        if (s->nroots < 2)
            continue;
        if (s->ncand > 1)
            qsort(s->cand, s->ncand, sizeof *s->cand, cmp_cand);
        for (size_t k = 0; k < s->ncand; k++) {
            rp_candidate *cd = &s->cand[k];
            if (cd->ninst > 1)
                qsort(cd->inst, cd->ninst, sizeof *cd->inst, cmp_inst);
            for (size_t m = 0; m < cd->ninst; m++)
                if (cd->inst[m].nrecs > 1)
                    qsort(cd->inst[m].recs, cd->inst[m].nrecs, sizeof *cd->inst[m].recs, cmp_rec);
        }
        if (s->nall > 1)
            qsort(s->all, s->nall, sizeof *s->all, cmp_rec);
        s->start_utc[0] = s->end_utc[0] = 0;
        campaign_times(s);
    }
}

static int cmp_sys(const void *a, const void *b)
{
    return strcmp(((const rp_system *)a)->id, ((const rp_system *)b)->id);
}

void rp_finish(rp_campaign *c)
{
    join_systems(c);
    if (c->nsys > 1)
        qsort(c->sys, c->nsys, sizeof *c->sys, cmp_sys);
    /* equal ids (two copies of one system, or no system.json) get -2, -3... */
    char **orig = calloc(c->nsys ? c->nsys : 1, sizeof *orig);
    for (size_t i = 0; i < c->nsys; i++)
        orig[i] = xstrdup(c->sys[i].id);
    for (size_t i = 1; i < c->nsys; i++) {
        int dup = 1;
        for (size_t j = 0; j < i; j++)
            dup += strcmp(orig[j], orig[i]) == 0;
        if (dup > 1) {
            char *id;
            if (asprintf(&id, "%s-%d", orig[i], dup) < 0)
                exit(2);
            free(c->sys[i].id);
            c->sys[i].id = id;
        }
    }
    for (size_t i = 0; i < c->nsys; i++)
        free(orig[i]);
    free(orig);
}

static void free_record(rp_record *r)
{
    free(r->file);
    free(r->path);
    free(r->error);
    free(r->kind);
    free(r->op);
    cJSON_Delete(r->json);
    free(r);
}

void rp_free(rp_campaign *c)
{
    for (size_t i = 0; i < c->nsys; i++) {
        rp_system *s = &c->sys[i];
        for (size_t k = 0; k < s->nall; k++)
            free_record(s->all[k]);
        for (size_t k = 0; k < s->ncand; k++) {
            for (size_t m = 0; m < s->cand[k].ninst; m++) {
                free(s->cand[k].inst[m].key);
                free(s->cand[k].inst[m].recs);
            }
            free(s->cand[k].inst);
            free(s->cand[k].id);
        }
        free(s->cand);
        free(s->all);
        free(s->id);
        free(s->root);
        for (size_t k = 0; k < s->nshards; k++)
            free(s->shards[k]);
        free(s->shards);
    }
    free(c->sys);
    memset(c, 0, sizeof *c);
}

const char *rp_basename(const rp_record *r)
{
    const char *s = strrchr(r->file, '/');
    return s ? s + 1 : r->file;
}

rp_record *rp_find(const rp_instance *in, const char *kind, const char *op)
{
    rp_record *first = NULL;
    for (size_t i = 0; i < in->nrecs; i++) {
        rp_record *r = in->recs[i];
        if (strcmp(r->kind, kind) != 0)
            continue;
        if (op && (!r->op || strcmp(r->op, op) != 0))
            continue;
        /* the canonical file (kat.json) wins over others of its kind (kat-template.json) */
        const char *b = rp_basename(r);
        if (!op && strncmp(b, kind, strlen(kind)) == 0 && strcmp(b + strlen(kind), ".json") == 0)
            return r;
        if (!first)
            first = r;
    }
    return first;
}

int rp_op_rank(const char *op)
{
    /* SIG, KEM, then KEX in KAT_KEX.c's call order, then hash */
    static const char *order[] = {"keygen", "sign",  "verify", "enc",      "dec",      "init_a",
                                  "init_b", "pass1", "pass2",  "pass3",    "pass4",    "pass5",
                                  "pass6",  "pass7", "pass8",  "derive_a", "derive_b", "hash"};
    int n = (int)(sizeof order / sizeof order[0]);
    for (int i = 0; i < n; i++)
        if (op && strcmp(op, order[i]) == 0)
            return i;
    return n;
}

static int cmp_op(const void *a, const void *b)
{
    const rp_record *x = *(rp_record *const *)a, *y = *(rp_record *const *)b;
    int rx = rp_op_rank(x->op), ry = rp_op_rank(y->op);
    if (rx != ry)
        return rx - ry;
    return strcmp(x->op ? x->op : "", y->op ? y->op : "");
}

size_t rp_find_ops(const rp_instance *in, const char *kind, rp_record **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < in->nrecs && n < cap; i++)
        if (strcmp(in->recs[i]->kind, kind) == 0)
            out[n++] = in->recs[i];
    if (n > 1)
        qsort(out, n, sizeof *out, cmp_op);
    return n;
}

const cJSON *rp_meta(const rp_instance *in)
{
    rp_record *k = rp_find(in, "kat", NULL);
    const cJSON *m = k && k->json ? cJSON_GetObjectItemCaseSensitive(k->json, "meta") : NULL;
    for (size_t i = 0; !cJSON_IsObject(m) && i < in->nrecs; i++)
        m = in->recs[i]->json ? cJSON_GetObjectItemCaseSensitive(in->recs[i]->json, "meta") : NULL;
    return cJSON_IsObject(m) ? m : NULL;
}

int rp_has_kind(const rp_system *s, const rp_candidate *cand, const char *kind)
{
    for (size_t c = 0; c < s->ncand; c++) {
        if (cand && &s->cand[c] != cand)
            continue;
        for (size_t i = 0; i < s->cand[c].ninst; i++)
            if (rp_find(&s->cand[c].inst[i], kind, NULL))
                return 1;
    }
    return 0;
}
