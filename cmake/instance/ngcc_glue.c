/* ngcc-ctest glue, compiled into every instance library. It defines the
 * global DRNG context the official KAT driver would define (unless the
 * submission does), and exports metadata and a seed entry point. It must not
 * include any scheme header: submission macros (n, k, q...) would break it. */
#include "drng.h"
#include "ngcc_control.h"

#ifndef NGCC_SUBMISSION_DEFINES_DRNG
DRNG_ctx drng_algorithm;
#define NGCC_DRNG_BY_SUBMISSION 0
#else
extern DRNG_ctx drng_algorithm;
#define NGCC_DRNG_BY_SUBMISSION 1
#endif

#ifndef NGCC_BLANK
#define NGCC_BLANK 0
#endif
#ifndef NGCC_DIGEST_BITS
#define NGCC_DIGEST_BITS 0
#endif

static const ngcc_meta meta = {
    NGCC_CONTROL_ABI,  NGCC_CANDIDATE,          NGCC_INSTANCE,    NGCC_ALGORITHM_INSTANCE, NGCC_TYPE,
    NGCC_IMPL_VARIANT, NGCC_BUILD_VARIANT,      NGCC_FLAGSET,     NGCC_COMPILER,           NGCC_FLAGS,
    NGCC_BLANK,        NGCC_DRNG_BY_SUBMISSION, NGCC_DIGEST_BITS,
};

const ngcc_meta *ngcc_meta_get(void)
{
    return &meta;
}

int ngcc_seed(const unsigned char *seed, unsigned long long len_bytes)
{
    return init_random_number(&drng_algorithm, seed, len_bytes);
}

int ngcc_drng_draw(unsigned char *out, unsigned long long len_bytes)
{
    return get_random_number(&drng_algorithm, out, 8 * len_bytes);
}
