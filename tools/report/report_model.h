/* ngcc-report: the records of one campaign, read from one or more records
 * folders (one per system: <records>/system.json and
 * <records>/<candidate>/<instance>/<name>.json). Nothing is recomputed: the pages
 * show what the records hold, and every unreadable record is kept as a gap. */
#ifndef REPORT_MODEL_H
#define REPORT_MODEL_H
#include <cjson/cJSON.h>
#include <stddef.h>

typedef struct {
    char *file; /* path relative to the records folder ("fx-wots/WOTS-128/kat.json") */
    char *path; /* path as opened */
    char sha256[65];
    cJSON *json; /* NULL when the file could not be read or parsed */
    char *error; /* why json is NULL */
    char *kind;  /* "kind" field, else guessed from the file name; never NULL */
    char *op;    /* operation of perf/mem/prof records, or the build variant; may be NULL */
} rp_record;

typedef struct {
    char *key; /* instance key = folder name (e.g. WOTS-128~always-accept) */
    rp_record **recs;
    size_t nrecs;
} rp_instance;

typedef struct {
    char *id;
    rp_instance *inst;
    size_t ninst;
    rp_record *discover; /* <id>/discover.json: the tree (or a folder of it) was left out, or NULL */
} rp_candidate;

typedef struct {
    char *id;          /* system id from system.json, unique in the campaign */
    char *root;        /* the records folder as given */
    rp_record *system; /* system.json, or NULL if absent */
    rp_candidate *cand;
    size_t ncand;
    rp_record **all; /* every record incl. system.json, sorted by file */
    size_t nall;
    char start_utc[40], end_utc[40]; /* earliest start / latest end in the records */
    char **shards;                   /* "K/N" of each joined folder's shard.json (campaign bookkeeping, not a record) */
    size_t nshards;
    size_t nroots; /* records folders joined into this system (shards of one machine class) */
} rp_system;

typedef struct {
    rp_system *sys;
    size_t nsys;
    int gaps;      /* unreadable or malformed records seen while loading */
    int conflicts; /* records that differ between joined folders (counted in gaps too) */
} rp_campaign;

/* Adds the records folder root as one system; -1 (message on stderr naming
 * the folder) if it is not a readable folder. */
int rp_load(rp_campaign *c, const char *root);
/* Joins folders of one machine class (equal system_id in system.json) into one
 * system: records of the same file are kept once when identical; when their
 * content differs the record becomes a gap with the conflict as its error (one
 * line on stderr), never one copy picked. The first folder's system.json
 * describes the joined system. Then sorts systems by id and makes ids unique;
 * call once after loading. */
void rp_finish(rp_campaign *c);
void rp_free(rp_campaign *c);

/* the first record of an instance with this kind (and op, if op != NULL) */
rp_record *rp_find(const rp_instance *in, const char *kind, const char *op);
/* the records of one kind in operation order (keygen sign verify enc dec,
 * then others by name); returns the count, fills out (max cap) */
size_t rp_find_ops(const rp_instance *in, const char *kind, rp_record **out, size_t cap);
/* rank of an operation name for sorting */
int rp_op_rank(const char *op);
/* the instance's "meta" object (kat.json first, then any record), or NULL */
const cJSON *rp_meta(const rp_instance *in);
/* a record's file name without folders ("kat.json") */
const char *rp_basename(const rp_record *r);
/* 1 if any instance of the candidate (NULL: of the system) has a record of kind */
int rp_has_kind(const rp_system *s, const rp_candidate *cand, const char *kind);

#endif
