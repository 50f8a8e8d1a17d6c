/* Selftest of the profiling glue (cmake/instance/ngcc_glue_prof.c) on the
 * probe library: the counters, the nested-call rule, the drng_algorithm /
 * other-context split, the histograms, reset and calibration, read through
 * the control surface exactly as ngcc-prof reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ngcc_control.h"
#include "ngcc_loader.h"

static ngcc_instance in;
static ngcc_prof_reset_fn reset;
static ngcc_prof_read_fn readc;
static ngcc_prof_hist_fn hist;
static ngcc_prof_calibrate_fn calibrate;
static unsigned char seed[64], pk[64], sk[64], sn[96], m[128];

static int setup(void **state)
{
    (void)state;
    const char *lib = getenv("PROBE_LIB");
    char err[512];
    if (!lib || ngcc_instance_open(lib, &in, err, sizeof err)) {
        fprintf(stderr, "cannot open PROBE_LIB=%s: %s\n", lib ? lib : "(unset)", lib ? err : "");
        return -1;
    }
    ngcc_prof_abi_fn abi = (ngcc_prof_abi_fn)ngcc_instance_sym(&in, "ngcc_prof_abi");
    *(void **)&reset = ngcc_instance_sym(&in, "ngcc_prof_reset");
    *(void **)&readc = ngcc_instance_sym(&in, "ngcc_prof_read");
    *(void **)&hist = ngcc_instance_sym(&in, "ngcc_prof_hist");
    *(void **)&calibrate = ngcc_instance_sym(&in, "ngcc_prof_calibrate");
    return abi && abi() == NGCC_PROF_ABI && reset && readc && hist && calibrate ? 0 : -1;
}

static ngcc_prof_counters keygen_profile(void)
{
    ull pl = 64, sl = 64;
    in.seed(seed, sizeof seed);
    reset();
    assert_int_equal(in.sig.keygen(pk, &pl, sk, &sl), 0);
    ngcc_prof_counters c;
    readc(&c);
    return c;
}

static void drng_split_and_nesting(void **state)
{
    (void)state;
    ngcc_prof_counters c = keygen_profile();
    assert_int_equal(c.abi, NGCC_PROF_ABI);
    const ngcc_prof_sym *g = &c.sym[NGCC_PROF_GET_RANDOM], *i = &c.sym[NGCC_PROF_INIT_RANDOM];
    const ngcc_prof_sym *h = &c.sym[NGCC_PROF_SM3HASH], *x = &c.sym[NGCC_PROF_PSEUDOXOF];
    assert_int_equal(g->calls, 1);     /* on drng_algorithm */
    assert_int_equal(g->other_ctx, 1); /* on the private context */
    assert_int_equal(i->calls, 0);
    assert_int_equal(i->other_ctx, 1);
    assert_int_equal(g->nested + i->nested, 0);
    /* the 3 sm3hash calls all run inside DRNG calls: counted once each,
     * nested, and their time is not added to sm3hash (it is the DRNG's) */
    assert_int_equal(h->calls, 3);
    assert_int_equal(h->nested, 3);
    assert_int_equal(h->outer_ticks, 0);
    assert_true(g->outer_ticks > 0 && i->outer_ticks > 0);
    assert_int_equal(x->calls, 1);
    assert_int_equal(x->bits_in, 100);
    assert_int_equal(x->bits_out, 512);
    assert_int_equal(g->bits_out, 256); /* other-context calls are not in the bit sums */
}

static void histograms(void **state)
{
    (void)state;
    keygen_profile();
    ngcc_prof_bin b[4];
    assert_int_equal(hist(NGCC_PROF_PSEUDOXOF, 0, b, 4), 1);
    assert_int_equal(b[0].bits, 100);
    assert_int_equal(b[0].calls, 1);
    assert_int_equal(hist(NGCC_PROF_PSEUDOXOF, 1, b, 4), 1);
    assert_int_equal(b[0].bits, 512);
    /* sm3hash (nested calls too): the 32-byte private seed (256 bits) once,
     * the 55-byte V (440 bits) twice */
    int n = hist(NGCC_PROF_SM3HASH, 0, b, 4);
    assert_int_equal(n, 2);
    int i440 = b[0].bits == 440 ? 0 : 1;
    assert_int_equal(b[i440].bits, 440);
    assert_int_equal(b[i440].calls, 2);
    assert_int_equal(b[1 - i440].bits, 256);
    assert_int_equal(b[1 - i440].calls, 1);
    assert_int_equal(hist(NGCC_PROF_PSEUDOHASH, 0, b, 4), 0);
    assert_int_equal(hist(99, 0, b, 4), 0);
}

static void message_dependent_counts(void **state)
{
    (void)state;
    ull pl = 64, sl = 64, snl = 96;
    in.seed(seed, sizeof seed);
    assert_int_equal(in.sig.keygen(pk, &pl, sk, &sl), 0);
    for (ull mlen = 56; mlen <= 128; mlen += 8) {
        reset();
        assert_int_equal(in.sig.sign(sk, sl, m, mlen, sn, &snl), 0);
        ngcc_prof_counters c;
        readc(&c);
        assert_int_equal(c.sym[NGCC_PROF_SM3HASH].calls, mlen / 8);
        assert_int_equal(c.sym[NGCC_PROF_PSEUDOHASH].calls, 1);
        assert_int_equal(c.sym[NGCC_PROF_PSEUDOHASH].bits_in, 8 * mlen);
        assert_true(c.sym[NGCC_PROF_SM3HASH].outer_ticks > 0);
    }
}

/* seeding goes through the wrapper too: the driver resets after seeding */
static void seeding_is_counted_until_reset(void **state)
{
    (void)state;
    reset();
    in.seed(seed, sizeof seed);
    ngcc_prof_counters c;
    readc(&c);
    assert_int_equal(c.sym[NGCC_PROF_INIT_RANDOM].calls, 1);
    reset();
    readc(&c);
    for (int s = 0; s < NGCC_PROF_NSYM; s++) {
        assert_int_equal(c.sym[s].calls + c.sym[s].other_ctx + c.sym[s].nested, 0);
        assert_int_equal(c.sym[s].outer_ticks, 0);
    }
}

static void calibration(void **state)
{
    (void)state;
    ngcc_prof_calib cal;
    reset();
    calibrate(2000, &cal);
    assert_int_equal(cal.iterations, 31 * 2000);
    assert_true(cal.total > 0);
    assert_true(cal.inside >= 0 && cal.inside <= cal.total);
    assert_true(cal.total < 10000);
    ngcc_prof_counters c;
    readc(&c); /* the calibration leaves no trace in the counters */
    for (int s = 0; s < NGCC_PROF_NSYM; s++)
        assert_int_equal(c.sym[s].calls, 0);
}

int main(void)
{
    for (int i = 0; i < 64; i++)
        seed[i] = (unsigned char)i;
    for (int i = 0; i < 128; i++)
        m[i] = (unsigned char)(3 * i);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(drng_split_and_nesting),
        cmocka_unit_test(histograms),
        cmocka_unit_test(message_dependent_counts),
        cmocka_unit_test(seeding_is_counted_until_reset),
        cmocka_unit_test(calibration),
    };
    return cmocka_run_group_tests_name("prof_glue", tests, setup, NULL);
}
