/* ngcc-security: command line. */
#ifndef SEC_OPTIONS_H
#define SEC_OPTIONS_H

typedef struct {
    const char *lib, *name, *record_out, *build_record, *log_dir;
    double timeout;       /* whole test (s); <= 0: none */
    double call_timeout;  /* one API call without progress (s); 0: timeout / 5 */
    unsigned long mem_mb; /* RLIMIT_AS of the children (plain runs only) */
    int keys;             /* key pairs from KAT record seeds 0..keys-1 */
    int kat_records;      /* KAT messages signed (records 0..kat_records-1) */
    int max_flips;        /* modified_signature: byte positions of the first signature; 0: all */
    int sanitizer;        /* the library is ASan/UBSan-instrumented */
    int ext_finding;      /* "extended_signature": "finding" */
    int expect;           /* expected verdict (ngcc_verdict) */
    double budget;        /* s the plan may take (sec_budget.h); 0: no planning */
    const char *kat_record; /* <records>/kat.json: measured operation times */
    int other_flips;      /* modified_signature: bytes of each further signature (set by the budget; 0: 32) */
    const char *iccs_note; /* official ICCS copies and what the sanitizer build did with them */
} sec_options;

/* 0 on success; otherwise prints the problem and the usage, returns -1 */
int sec_options_parse(int argc, char **argv, sec_options *o);

#endif
