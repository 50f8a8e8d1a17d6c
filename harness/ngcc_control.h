/* ngcc-ctest: the control surface every instance library exports besides the
 * official API. Shared by the glue compiled into the library and by the
 * harness that loads it, so both sides agree on the layout (checked by abi). */
#ifndef NGCC_CONTROL_H
#define NGCC_CONTROL_H

#define NGCC_CONTROL_ABI 1

typedef struct ngcc_meta {
    int abi;                        /* NGCC_CONTROL_ABI of the glue */
    const char *candidate;          /* candidate id, e.g. "sign-07" */
    const char *instance;           /* instance label (folder), e.g. "CS-128" */
    const char *algorithm_instance; /* ALGORITHM_INSTANCE string */
    const char *type;               /* "SIG" or "KEM" */
    const char *impl_variant;       /* Reference / Optimized / Additional / "" */
    const char *build_variant;      /* plain / prof / asan */
    const char *flagset;            /* guide / permissive */
    const char *compiler;           /* compiler id and version */
    const char *flags;              /* full compile flags used */
    int blank;                      /* OUTPUT_BLANK_TEST_VECTORS */
    int drng_defined_by_submission; /* 1: the glue did not define drng_algorithm */
} ngcc_meta;

typedef const ngcc_meta *(*ngcc_meta_fn)(void);
/* init_random_number(&drng_algorithm, seed, len) inside the library */
typedef int (*ngcc_seed_fn)(const unsigned char *seed, unsigned long long len_bytes);

#endif /* NGCC_CONTROL_H */
