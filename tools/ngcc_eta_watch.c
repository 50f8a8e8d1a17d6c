/* ngcc-eta-watch: the campaign's ETA refreshed after every test of a label.
 *
 *   ctest ... | ngcc-eta-watch --predicted FILE --jobs J --later-s S [--every-s E]
 *
 * Copies ctest's output through unchanged; on each line that ends a test
 * ("  3/40 Test  #12: security/fx-wots/WOTS-128 ...   Passed    3.21 sec")
 * it charges the test's measured seconds against its predicted ones (FILE:
 * "<test name> <predicted us>" per line, what cmake/NgccEta.cmake predicted
 * when the label started) and, at most every E seconds (default 15) and
 * after the last test, prints the time left: the predicted work of the tests
 * not done, scaled by measured/predicted of those done, over J jobs, plus S
 * seconds of later labels. Prediction lines name the tests; a test missing
 * from FILE counts as predicted = measured (it says nothing either way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char *name;
    double predicted_s;
    int done;
} predicted_test;

static predicted_test *tests;
static size_t ntests;

static void load_predictions(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ngcc-eta-watch: cannot read %s: no ETA refresh\n", path);
        return;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *sp = strrchr(line, ' ');
        if (!sp)
            continue;
        *sp = 0;
        tests = realloc(tests, (ntests + 1) * sizeof *tests);
        tests[ntests].name = strdup(line);
        tests[ntests].predicted_s = strtod(sp + 1, NULL) / 1e6;
        tests[ntests].done = 0;
        ntests++;
    }
    fclose(f);
}

static predicted_test *find(const char *name)
{
    for (size_t i = 0; i < ntests; i++)
        if (!tests[i].done && strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

/* the test name and seconds of a line ending a test, else 0 */
static int parse_end(const char *line, char *name, size_t cap, double *seconds)
{
    int k, n, no;
    char rest[4096];
    if (sscanf(line, " %d/%d Test #%d: %4095[^\n]", &k, &n, &no, rest) != 4)
        return 0;
    const char *sec = strstr(rest, " sec");
    if (!sec || strncmp(sec, " sec", 4) != 0 || (sec[4] != 0 && sec[4] != '\r' && sec[4] != '\n'))
        return 0;
    const char *num = sec;
    while (num > rest && (num[-1] == '.' || (num[-1] >= '0' && num[-1] <= '9')))
        num--;
    *seconds = strtod(num, NULL);
    size_t len = strcspn(rest, " ");
    if (len >= cap)
        len = cap - 1;
    memcpy(name, rest, len);
    name[len] = 0;
    return 1;
}

int main(int argc, char **argv)
{
    const char *predicted_path = NULL;
    double jobs = 1, later_s = 0, every_s = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--predicted"))
            predicted_path = argv[i + 1];
        else if (!strcmp(argv[i], "--jobs"))
            jobs = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--later-s"))
            later_s = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--every-s"))
            every_s = atof(argv[i + 1]);
    }
    if (jobs < 1)
        jobs = 1;
    if (predicted_path)
        load_predictions(predicted_path);
    double predicted_all = 0;
    for (size_t i = 0; i < ntests; i++)
        predicted_all += tests[i].predicted_s;
    double measured_done = 0, predicted_done = 0;
    size_t ndone = 0;
    time_t last_print = time(NULL);
    char line[8192], name[4096];
    while (fgets(line, sizeof line, stdin)) {
        fputs(line, stdout);
        double seconds;
        if (ntests == 0 || !parse_end(line, name, sizeof name, &seconds)) {
            fflush(stdout);
            continue;
        }
        predicted_test *t = find(name);
        double p = seconds;
        if (t) {
            t->done = 1;
            p = t->predicted_s;
            predicted_done += p;
        } else {
            predicted_all += p; /* a fixture test the prediction did not list */
            predicted_done += p;
        }
        measured_done += seconds;
        ndone++;
        time_t now = time(NULL);
        int last = ndone >= ntests;
        if (!last && difftime(now, last_print) < every_s) {
            fflush(stdout);
            continue;
        }
        last_print = now;
        double ratio = predicted_done > 0 ? measured_done / predicted_done : 1;
        double left = (predicted_all - predicted_done) * ratio / jobs;
        if (left < 0)
            left = 0;
        double all = left + later_s;
        printf("[ngcc eta] %zu tests done (measured/predicted %.2f): this label ~%.0f s left, the campaign ~%d min "
               "%d s\n",
               ndone, ratio, left, (int)all / 60, (int)all % 60);
        fflush(stdout);
    }
    return 0;
}
