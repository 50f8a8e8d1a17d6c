/* ngcc-prof: expectation files. One per candidate (<tree>/ngcc-prof.json for
 * fixtures, ${NGCC_OVERRIDES_DIR}/<id>.prof.json otherwise):
 *
 *   {"schema": 1, "kind": "prof-expectation", "candidate": "<id>",
 *    "instances": {"<key>": {"<op>": {"records": 10,
 *        "calls": {"<symbol>": [<calls in record 0>, ..., <record 9>], ...}}}}}
 *
 * Symbols: sm3hash pseudohash pseudoXOF get_random_number init_random_number
 * (DRNG calls on drng_algorithm) and get_random_number@other_ctx /
 * init_random_number@other_ctx (calls on any other DRNG context). A symbol
 * absent from "calls" is expected to be called 0 times. A measured run has
 * the same shape ("gate" in the prof record), so gating is an exact
 * per-record comparison. */
#ifndef PROF_EXPECT_H
#define PROF_EXPECT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define PROF_EXPECT_SCHEMA 1
#define PROF_DIFF_LINES 24

typedef struct {
    int differing;        /* (record, symbol) pairs that differ */
    int compared_records; /* records gated */
    int nlines;
    char lines[PROF_DIFF_LINES][200]; /* per symbol summaries, then per record differences */
    char note[200];                   /* e.g. records in one side only */
} prof_diff;

/* Loads the first existing file of paths[0..n-1]. *used = that path, or NULL
 * if none exists (not an error: "no expectation"). On a malformed file
 * returns NULL and sets err (naming the file and the fix). */
cJSON *prof_expect_load(char *const *paths, int n, const char **used, char *err, size_t errlen);

/* The entry {"records", "calls"} of one instance and operation, or NULL. */
const cJSON *prof_expect_entry(const cJSON *root, const char *instance, const char *op);

/* Compares a measured gate with an expectation entry. Returns the number of
 * differing (record, symbol) pairs, or -1 (err set) if the entry is malformed. */
int prof_expect_compare(const cJSON *expected, const cJSON *gate, const char *op, prof_diff *d, char *err,
                        size_t errlen);

/* Sets instances/<instance>/<op> = gate in root (creating what is missing). */
void prof_expect_put(cJSON *root, const char *instance, const char *op, const cJSON *gate);

#endif
