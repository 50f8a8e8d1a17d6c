/* ngcc-ctest: the KEX part of the KAT replay: KAT_KEX.c's flow bit for bit
 * (iccs-kex-hash.md §2). One drng_algorithm stream per record (seeded through
 * the control surface with the record seed), buffers allocated once for all
 * records and never cleared, m1/m2/m3 of total_msg_len bytes each, in/out
 * lengths never reset (m*_len start at 0, every length carries over to the
 * next record), errors only for a return < 0, a pass returning 1 compared
 * with Pass_Num (-5), the stop after pass 3 whatever it returns, and the
 * shared-secret comparison (-6). On an error the official driver returns at
 * once, leaving the text written so far: the replay does the same and says
 * so with "#STOP <record> <code>" (kat_replay.h). */
#include <stdio.h>
#include <string.h>

#include "kat_writer.h"
#include "ngcc_child.h"
#include "ngcc_katgen.h"

/* the official driver's return codes (§2.1) */
#define KEX_CRYPTO (-3)
#define KEX_PASS (-5)
#define KEX_SS (-6)

static const char *code_meaning(int code)
{
    return code == KEX_CRYPTO ? "crypto failure" : code == KEX_PASS ? "pass error" : "SS unequal";
}

/* the official driver stops here with code: one call event with the reason
 * and the code, then #STOP */
static void kex_stop(kat_writer *w, int code, const char *why)
{
    fprintf(w->meta, "#EV %d call %s: the official driver stops with %d (%s)\n", w->record, why, code,
            code_meaning(code));
    fprintf(w->meta, "#META kex_driver_code %d\n#STOP %d %d\n", code, w->record, code);
    fflush(w->out);
}

/* "<fn> returned <rc>" stop for a return < 0 */
static void kex_stop_rc(kat_writer *w, const char *fn, int rc)
{
    char why[160];
    snprintf(why, sizeof why, "%s returned %d (< 0)", fn, rc);
    kex_stop(w, KEX_CRYPTO, why);
}

/* a pass returned 1 (finished) after pass k while Pass_Num says otherwise */
static void kex_stop_pass(kat_writer *w, int k, ull passes)
{
    char why[160];
    snprintf(why, sizeof why, "pass %d returned 1 (finished) but Pass_Num is %llu", k, passes);
    kex_stop(w, KEX_PASS, why);
}

int kat_replay_kex(kat_writer *w, ngcc_instance *in, int records)
{
    ngcc_kex_api *a = &in->kex;
    /* the getters once, in the official order */
    const ull passes = a->passes_num();
    ull pka_len = a->pk_len(), ska_len = a->sk_len(), pkb_len = a->pk_len(), skb_len = a->sk_len();
    ull sta_len = a->sta_len(), stb_len = a->stb_len(), ssa_len = a->ss_len(), ssb_len = a->ss_len();
    const ull total = a->total_msg_len();
    const ull pk_claim = pka_len, sk_claim = ska_len, sta_claim = sta_len, stb_claim = stb_len, ss_claim = ssa_len;
    fprintf(w->meta,
            "#META claimed_passes %llu\n#META claimed_pk %llu\n#META claimed_sk %llu\n#META claimed_sta %llu\n"
            "#META claimed_stb %llu\n#META claimed_ss %llu\n#META claimed_total_msg %llu\n",
            passes, pk_claim, sk_claim, sta_claim, stb_claim, ss_claim, total);
    ngcc_gbuf pka, ska, pkb, skb, sta, stb, ssa, ssb, m1, m2, m3, seed;
    ngcc_gbuf *bufs[] = {&pka, &ska, &pkb, &skb, &sta, &stb, &ssa, &ssb, &m1, &m2, &m3, &seed};
    const char *names[] = {"pka", "ska", "pkb", "skb", "sta", "stb", "ssa", "ssb", "m1", "m2", "m3", "seed"};
    const ull sizes[] = {pk_claim, sk_claim, pk_claim, sk_claim, sta_claim, stb_claim,
                         ss_claim, ss_claim, total,    total,    total,     NGCC_KAT_SEED_BYTES};
    const int nb = (int)(sizeof bufs / sizeof bufs[0]);
    ull sum = 0;
    for (int i = 0; i < nb; i++) {
        sum += sizes[i];
        /* calloc'd in the official driver: zero, and never cleared again */
        if (ngcc_gbuf_alloc(bufs[i], sizes[i], (unsigned)(i + 1), 0)) {
            ngcc_child_note_alloc_failure("claimed buffers", sum);
            fprintf(w->meta, "#LOADFAIL cannot allocate the claimed buffer sizes (%llu bytes)\n", sum);
            return 1;
        }
    }
    /* m*_len, ma_len and mb_len start at 0; ma and mb at NULL (§2.2) */
    ull m1_len = 0, m2_len = 0, m3_len = 0, ma_len = 0, mb_len = 0;
    unsigned char *ma = NULL, *mb = NULL;
    ngcc_katgen gen;
    ngcc_katgen_init(&gen, 1); /* the seed stream only, as KAT_KEM.c */
    for (int i = 0; i < records; i++) {
        int rc;
        double t0;
        w->record = i;
        fprintf(w->out, "Count = %d\n", i);
        ngcc_katgen_next(&gen, seed.p, NULL);
        fprintf(w->out, "Seed_Len = %d\n", NGCC_KAT_SEED_BYTES);
        kw_hex(w, "Seed", &seed, NGCC_KAT_SEED_BYTES);
        in->seed(seed.p, NGCC_KAT_SEED_BYTES); /* both parties draw from this one stream */
        /* "Pass_Num = 3": the official length printer, so empty in blank mode */
        if (w->blank)
            fprintf(w->out, "Pass_Num = \n");
        else
            fprintf(w->out, "Pass_Num = %llu\n", passes);

        t0 = kw_op_begin(w, "init_a");
        rc = a->init_a(pka.p, &pka_len, ska.p, &ska_len, sta.p, &sta_len);
        kw_op_end(w, "init_a", t0);
        kw_check_guards(w, "kex_init_a", bufs, names, nb);
        if (rc < 0) {
            kex_stop_rc(w, "kex_init_a", rc);
            return 2;
        }
        kw_check_len(w, "pka_len", pka_len, pk_claim);
        kw_check_len(w, "ska_len", ska_len, sk_claim);
        kw_check_len(w, "sta_len", sta_len, sta_claim);
        kw_len(w, "PKa", pka_len);
        kw_hex(w, "PKa", &pka, pka_len);
        kw_len(w, "SKa", ska_len);
        kw_hex(w, "SKa", &ska, ska_len);
        kw_len(w, "Init_Sta", sta_len);
        kw_hex(w, "Init_Sta", &sta, sta_len);

        t0 = kw_op_begin(w, "init_b");
        rc = a->init_b(pkb.p, &pkb_len, skb.p, &skb_len, stb.p, &stb_len);
        kw_op_end(w, "init_b", t0);
        kw_check_guards(w, "kex_init_b", bufs, names, nb);
        if (rc < 0) {
            kex_stop_rc(w, "kex_init_b", rc);
            return 2;
        }
        kw_check_len(w, "pkb_len", pkb_len, pk_claim);
        kw_check_len(w, "skb_len", skb_len, sk_claim);
        kw_check_len(w, "stb_len", stb_len, stb_claim);
        kw_len(w, "PKb", pkb_len);
        kw_hex(w, "PKb", &pkb, pkb_len);
        kw_len(w, "SKb", skb_len);
        kw_hex(w, "SKb", &skb, skb_len);
        kw_len(w, "Init_Stb", stb_len);
        kw_hex(w, "Init_Stb", &stb, stb_len);

        /* the official for(;;) runs once: break = go on to derive */
        do {
            t0 = kw_op_begin(w, "pass1");
            rc = a->pass1_a(ska.p, ska_len, pkb.p, pkb_len, sta.p, &sta_len, m1.p, &m1_len);
            kw_op_end(w, "pass1", t0);
            kw_check_guards(w, "kex_generate_pass1_msg_a", bufs, names, nb);
            if (rc < 0) {
                kex_stop_rc(w, "kex_generate_pass1_msg_a", rc);
                return 2;
            }
            kw_check_len(w, "sta_len", sta_len, sta_claim);
            kw_check_len(w, "m1_len", m1_len, total);
            kw_len(w, "Pass1_Sta", sta_len);
            kw_hex(w, "Pass1_Sta", &sta, sta_len);
            kw_len(w, "M1", m1_len);
            kw_hex(w, "M1", &m1, m1_len);
            ma = m1.p;
            ma_len = m1_len;
            if (rc == 1) {
                if (passes != 1) {
                    kex_stop_pass(w, 1, passes);
                    return 2;
                }
                break;
            }

            t0 = kw_op_begin(w, "pass2");
            rc = a->pass2_b(skb.p, skb_len, pka.p, pka_len, m1.p, m1_len, stb.p, &stb_len, m2.p, &m2_len);
            kw_op_end(w, "pass2", t0);
            kw_check_guards(w, "kex_generate_pass2_msg_b", bufs, names, nb);
            if (rc < 0) {
                kex_stop_rc(w, "kex_generate_pass2_msg_b", rc);
                return 2;
            }
            kw_check_len(w, "stb_len", stb_len, stb_claim);
            kw_check_len(w, "m2_len", m2_len, total);
            kw_len(w, "Pass2_Stb", stb_len);
            kw_hex(w, "Pass2_Stb", &stb, stb_len);
            kw_len(w, "M2", m2_len);
            kw_hex(w, "M2", &m2, m2_len);
            mb = m2.p;
            mb_len = m2_len;
            if (rc == 1) {
                if (passes != 2) {
                    kex_stop_pass(w, 2, passes);
                    return 2;
                }
                break;
            }

            if (!a->pass3_a) {
                kex_stop(w, KEX_CRYPTO,
                         "pass 2 returned 0 (not finished) but the library has no kex_generate_pass3_msg_a (the "
                         "official driver calls it and would not even link)");
                return 2;
            }
            t0 = kw_op_begin(w, "pass3");
            rc = a->pass3_a(ska.p, ska_len, pkb.p, pkb_len, m2.p, m2_len, sta.p, &sta_len, m3.p, &m3_len);
            kw_op_end(w, "pass3", t0);
            kw_check_guards(w, "kex_generate_pass3_msg_a", bufs, names, nb);
            if (rc < 0) {
                kex_stop_rc(w, "kex_generate_pass3_msg_a", rc);
                return 2;
            }
            kw_check_len(w, "sta_len", sta_len, sta_claim);
            kw_check_len(w, "m3_len", m3_len, total);
            kw_len(w, "Pass3_Sta", sta_len);
            kw_hex(w, "Pass3_Sta", &sta, sta_len);
            kw_len(w, "M3", m3_len);
            kw_hex(w, "M3", &m3, m3_len);
            ma = m3.p;
            ma_len = m3_len;
            if (rc == 1 && passes != 3) {
                kex_stop_pass(w, 3, passes);
                return 2;
            }
            /* the sequence stops after pass 3 whatever it returned */
        } while (0);

        t0 = kw_op_begin(w, "derive_a");
        rc = a->derive_a(ska.p, ska_len, pkb.p, pkb_len, mb, mb_len, sta.p, sta_len, ssa.p, &ssa_len);
        kw_op_end(w, "derive_a", t0);
        kw_check_guards(w, "kex_derive_ss_a", bufs, names, nb);
        if (rc < 0) {
            kex_stop_rc(w, "kex_derive_ss_a", rc);
            return 2;
        }
        kw_check_len(w, "ssa_len", ssa_len, ss_claim);
        t0 = kw_op_begin(w, "derive_b");
        rc = a->derive_b(skb.p, skb_len, pka.p, pka_len, ma, ma_len, stb.p, stb_len, ssb.p, &ssb_len);
        kw_op_end(w, "derive_b", t0);
        kw_check_guards(w, "kex_derive_ss_b", bufs, names, nb);
        if (rc < 0) {
            kex_stop_rc(w, "kex_derive_ss_b", rc);
            return 2;
        }
        kw_check_len(w, "ssb_len", ssb_len, ss_claim);
        /* never compare past the buffers we own (a longer length is lenover) */
        ull cmp_len = ssa_len > ss_claim ? ss_claim : ssa_len;
        if (ssa_len != ssb_len || memcmp(ssa.p, ssb.p, cmp_len) != 0) {
            char why[200];
            snprintf(why, sizeof why,
                     "the initiator's and the responder's shared secrets differ (ssa_len %llu, ssb_len %llu%s)",
                     ssa_len, ssb_len, ssa_len == ssb_len ? ", different bytes" : "");
            kex_stop(w, KEX_SS, why);
            return 2;
        }
        kw_len(w, "SS", ssa_len);
        kw_hex(w, "SS", &ssa, ssa_len);
        fputc('\n', w->out);
        kw_record_end(w);
        fflush(w->out);
    }
    return 0;
}
