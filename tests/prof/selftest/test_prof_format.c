/* selftest/prof/format: the campaign-format figures. drng counts every
 * get_random_number call (drng_algorithm and other contexts), as the
 * published tables do, with the split shown beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "prof_format.h"

static cJSON *calls(double own, double other, double xof)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(c, "get_random_number"), "mean", own);
    if (other >= 0)
        cJSON_AddNumberToObject(cJSON_AddObjectToObject(c, "get_random_number@other_ctx"), "mean", other);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(c, "pseudoXOF"), "mean", xof);
    return c;
}

static void test_all_contexts_with_split(void **state)
{
    (void)state;
    char out[400];
    cJSON *c = calls(75.6, 4.4, 16.5);
    prof_fmt_calls(c, out, sizeof out);
    assert_string_equal(out, "drng 80 (drng_algorithm 75.6, other contexts 4.4), pseudoXOF 16.5");
    prof_fmt_drng(c, out, sizeof out);
    assert_string_equal(out, "drng 80 (drng_algorithm 75.6, other contexts 4.4)");
    double all, own, other;
    prof_drng_split(c, &all, &own, &other);
    assert_true(all == 80 && own == 75.6 && other == 4.4);
    cJSON_Delete(c);
}

static void test_only_drng_algorithm(void **state)
{
    (void)state;
    char out[400];
    cJSON *c = calls(16, -1, 2); /* no other-context key at all: the published "drng 16, pseudoXOF 2" */
    prof_fmt_calls(c, out, sizeof out);
    assert_string_equal(out, "drng 16, pseudoXOF 2");
    prof_fmt_drng(c, out, sizeof out);
    assert_string_equal(out, "drng 16 (drng_algorithm 16, other contexts 0)");
    cJSON_Delete(c);
}

static void test_only_other_contexts(void **state)
{
    (void)state;
    char out[400];
    cJSON *c = calls(0, 3, 1); /* a candidate with its own context only still shows its DRNG calls */
    prof_fmt_calls(c, out, sizeof out);
    assert_string_equal(out, "drng 3 (drng_algorithm 0, other contexts 3), pseudoXOF 1");
    cJSON_Delete(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_contexts_with_split),
        cmocka_unit_test(test_only_drng_algorithm),
        cmocka_unit_test(test_only_other_contexts),
    };
    return cmocka_run_group_tests_name("selftest/prof/format", tests, NULL, NULL);
}
