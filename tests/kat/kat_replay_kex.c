/* ngcc-ctest: the KEX part of the KAT replay: KAT_KEX.c's flow bit for bit
 * (iccs-kex-hash.md §2). One drng_algorithm stream per record (seeded through
 * the control surface with the record seed), buffers allocated once for all
 * records and never cleared, m1/m2/m3 of total_msg_len bytes each, in/out
 * lengths never reset (m*_len start at 0, every length carries over to the
 * next record), errors only for a return < 0, a pass returning 1 compared
 * with Pass_Num (-5), the stop after pass 3 whatever it returns (after pass
 * Pass_Num when it is above 3: the package's extended driver, §1.2a), and the
 * shared-secret comparison (-6). On an error the official driver returns at
 * once, leaving the text written so far: the replay does the same and says
 * so with "#STOP <record> <code>" (kat_replay.h). */
#include <stdio.h>
#include <string.h>

#include "kat_writer.h"
#include "ngcc_child.h"
#include "ngcc_katgen.h"
#include "ngcc_kex_pass.h"

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
    /* m1..m<last>: one total_msg_len buffer per pass, as m1/m2/m3 officially */
    const int last = ngcc_kex_last_pass(passes);
    ngcc_gbuf pka, ska, pkb, skb, sta, stb, ssa, ssb, seed, m[NGCC_KEX_MAXP];
    ngcc_gbuf *bufs[9 + NGCC_KEX_MAXP] = {&pka, &ska, &pkb, &skb, &sta, &stb, &ssa, &ssb};
    const char *names[9 + NGCC_KEX_MAXP] = {"pka", "ska", "pkb", "skb", "sta", "stb", "ssa", "ssb"};
    ull sizes[9 + NGCC_KEX_MAXP] = {pk_claim, sk_claim, pk_claim, sk_claim, sta_claim, stb_claim, ss_claim, ss_claim};
    static const char *const m_names[NGCC_KEX_MAXP] = {"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"};
    int nb = 8;
    for (int k = 0; k < last; k++, nb++) {
        bufs[nb] = &m[k];
        names[nb] = m_names[k];
        sizes[nb] = total;
    }
    bufs[nb] = &seed;
    names[nb] = "seed";
    sizes[nb++] = NGCC_KAT_SEED_BYTES;
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
    ull m_len[NGCC_KEX_MAXP] = {0}, ma_len = 0, mb_len = 0;
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

        /* the official for(;;) runs once: break = go on to derive. Pass k
         * >= 2 takes m(k-1); it stops after pass 3 whatever pass 3 returns,
         * or after the claimed pass when the claim is above 3 (§1.2a) */
        for (int k = 1; k <= last; k++) {
            const int by_a = k % 2;
            const char *fn = ngcc_kex_pass_symbol(k);
            ngcc_gbuf *st = by_a ? &sta : &stb;
            ull *st_len = by_a ? &sta_len : &stb_len;
            ngcc_gbuf *mk = &m[k - 1];
            if (k >= 2 && !a->pass[k]) {
                char why[200];
                snprintf(why, sizeof why,
                         "pass %d returned 0 (not finished) but the library has no %s (the official driver calls "
                         "it and would not even link)",
                         k - 1, fn);
                kex_stop(w, KEX_CRYPTO, why);
                return 2;
            }
            t0 = kw_op_begin(w, ngcc_kex_pass_op(k));
            if (k == 1)
                rc = a->pass1_a(ska.p, ska_len, pkb.p, pkb_len, sta.p, &sta_len, m[0].p, &m_len[0]);
            else if (by_a)
                rc = a->pass[k](ska.p, ska_len, pkb.p, pkb_len, m[k - 2].p, m_len[k - 2], sta.p, &sta_len, mk->p,
                                &m_len[k - 1]);
            else
                rc = a->pass[k](skb.p, skb_len, pka.p, pka_len, m[k - 2].p, m_len[k - 2], stb.p, &stb_len, mk->p,
                                &m_len[k - 1]);
            kw_op_end(w, ngcc_kex_pass_op(k), t0);
            kw_check_guards(w, fn, bufs, names, nb);
            if (rc < 0) {
                kex_stop_rc(w, fn, rc);
                return 2;
            }
            char field[24];
            kw_check_len(w, by_a ? "sta_len" : "stb_len", *st_len, by_a ? sta_claim : stb_claim);
            snprintf(field, sizeof field, "m%d_len", k);
            kw_check_len(w, field, m_len[k - 1], total);
            snprintf(field, sizeof field, "Pass%d_St%c", k, by_a ? 'a' : 'b');
            kw_len(w, field, *st_len);
            kw_hex(w, field, st, *st_len);
            snprintf(field, sizeof field, "M%d", k);
            kw_len(w, field, m_len[k - 1]);
            kw_hex(w, field, mk, m_len[k - 1]);
            if (by_a) {
                ma = mk->p;
                ma_len = m_len[k - 1];
            } else {
                mb = mk->p;
                mb_len = m_len[k - 1];
            }
            if (rc == 1) {
                if (passes != (ull)k) {
                    kex_stop_pass(w, k, passes);
                    return 2;
                }
                break;
            }
        }

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
