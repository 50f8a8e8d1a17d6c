/* ngcc-security: the time budget of the CryptHash sweeps (sec_budget.h). A
 * slow hash (a lattice or a big-state permutation: milliseconds a call) must
 * not turn collision_probes' ~10 000 hashes into the test's whole timeout:
 * the sweep ends at a shorter length instead, and says so. */
#include <stdio.h>

#include "sec_budget.h"

int sec_budget_hash_sweep(double per_call, double allowance, int per_len, int want, int least, char *why,
                          unsigned long why_cap)
{
    why[0] = 0;
    if (per_call <= 0 || allowance <= 0 || per_len <= 0)
        return want;
    double fit = allowance / (per_call * per_len) - 1; /* byte lengths 0..L: L + 1 of them */
    if (fit >= want)
        return want;
    int got = fit < least ? least : (int)fit;
    snprintf(why, why_cap,
             "budget: byte lengths 0..%d -> 0..%d (CryptHash %.3g s a call on a %d-byte message, %.3g s "
             "for this check)",
             want, got, per_call, want, allowance);
    return got;
}
