/* ngcc-security: the time budget (quirk class 21). A slow instance (a 20-s
 * keygen, a 1-s verify) must still get every check class within its CTest
 * timeout. The per-call timeout is 5 x the slowest operation, kept between a
 * fifth and half of the test's timeout (the first, untimed call gets half).
 * The operation times come from the KAT record (<records>/kat.json,
 * "op_seconds": {"keygen": {"max": s, ...}, "sign"|"enc": ..., "verify"|"dec": ...})
 * or, when it has none, from timing the first item's calls. From them:
 *   - the per-call timeout (a stalled call is killed after it),
 *   - the plan: fewer flips of further signatures, fewer KAT messages, fewer
 *     key pairs (at least 2), and a stratified sample of the first
 *     signature's bytes, each step taken only while the estimate exceeds
 *     the budget. Every check class still runs; each decision is recorded.
 *     KAT messages up to the record in which the KAT test stopped (TIMEOUT,
 *     CRASH) are never cut: that record's message is the finding, and the
 *     KAT's times say nothing about it. */
#ifndef SEC_BUDGET_H
#define SEC_BUDGET_H

typedef struct {
    double op[3];     /* keygen, sign|enc, verify|dec: seconds per call (max) */
    int known;        /* op[] is usable */
    int keep_records; /* the KAT stopped (TIMEOUT, CRASH) inside this record (1-based count to keep); 0: none */
    char source[300]; /* where op[] came from */
} sec_costs;

typedef struct {
    double budget;         /* seconds the plan may take */
    double estimate;       /* seconds the chosen plan should take */
    double call_timeout;   /* derived per-call timeout */
    int keys, kat_records; /* the plan */
    int max_flips;         /* first signature|ciphertext: bytes flipped (0: all up to the driver's maximum) */
    int other_flips;       /* each further signature */
    int reduced;           /* any step taken */
    char decisions[900];   /* "keys 3 -> 2 (keygen 21.3 s)", ... */
} sec_budget;

/* 1 and c filled if the record holds op_seconds, else 0 (c->source says why) */
int sec_costs_from_kat(const char *kat_json, int is_kem, sec_costs *c);
/* the plan for these costs: opt_keys/opt_records/opt_flips are the asked-for
 * values, sig_bytes the claimed signature size (SIG) or ciphertext size (KEM:
 * its first ciphertext's flips are planned as the first signature's) */
void sec_budget_plan(sec_budget *b, const sec_costs *c, int is_kem, double budget, int opt_keys, int opt_records,
                     int opt_flips, unsigned long long sig_bytes);

/* CryptHash sweeps (collision_probes): the largest byte length up to `want`
 * whose sweep, per_len hashes per byte length 0..L, fits `allowance` seconds
 * at `per_call` seconds a hash, never below `least`; when that is below
 * `want`, why says so (sec_budget_hash.c) */
int sec_budget_hash_sweep(double per_call, double allowance, int per_len, int want, int least, char *why,
                          unsigned long why_cap);

#endif
