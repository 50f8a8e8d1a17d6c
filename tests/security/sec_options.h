/* ngcc-security: command line. The common options (--lib, --name,
 * --record-out, --build-record, --timeout, --mem-limit-mb, --expect) are the
 * driver frame's (harness/ngcc_frame.h); the rest are security's own. */
#ifndef SEC_OPTIONS_H
#define SEC_OPTIONS_H

#include "ngcc_frame.h"

typedef struct {
    const char *lib, *name; /* the frame's (lib absolute: children run in their scratch folder) */
    const char *log_dir;
    double timeout;         /* whole test (s); <= 0: none (the frame's --timeout) */
    double call_timeout;    /* one API call without progress (s); 0: timeout / 5 */
    unsigned long mem_mb;   /* RLIMIT_AS of the children (plain runs only; the frame's --mem-limit-mb) */
    int keys;               /* key pairs from KAT record seeds 0..keys-1 */
    int kat_records;        /* KAT messages signed (records 0..kat_records-1) */
    int max_flips;          /* modified_signature|ciphertext: bytes of the first one flipped; 0: all */
    int sanitizer;          /* the library is ASan/UBSan-instrumented */
    int ext_finding;        /* "extended_signature": "finding" */
    int claims_euf;         /* "claims": "euf-cma": malleability (MALLEABLE) is reported as a FINDING */
    double claims_dfr;      /* "claims": {"dfr": x}: declared honest failure rate (KEM, KEX); 0: none */
    double scale_s;         /* honest_scale: seconds of honest operations (--scale) */
    double budget;          /* s the plan may take (sec_budget.h); 0: no planning */
    const char *kat_record; /* <records>/kat.json: measured operation times */
    int other_flips;        /* modified_signature: bytes of each further signature (set by the budget; 0: 32) */
    const char *iccs_note;  /* official ICCS copies and what the sanitizer build did with them */
} sec_options;

/* Parses the frame's options and security's own into f and o; the label is
 * "security", or "sanitizer" with --sanitizer. Adds to f->inputs what the
 * verdict depends on besides the arguments, the library and the build
 * record: with a budget, the KAT record's op_seconds (not the whole file:
 * its timestamps change on every KAT run, the plan only reads op_seconds);
 * with --sanitizer, the ASan runtime and the sanitizer options of the
 * environment. 0, or NGCC_FRAME_EXIT_USAGE after a message and the usage. */
int sec_options_parse(ngcc_frame *f, int argc, char **argv, sec_options *o);

#endif
