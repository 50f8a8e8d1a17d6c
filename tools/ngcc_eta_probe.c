/* ngcc-eta-probe: how fast this machine does a test's fixed costs, now.
 *
 *   ngcc-eta-probe [--jobs J] [--rounds R]
 *
 * Prints one line "probe_us <microseconds>": the wall time of J workers run
 * side by side (as ctest -jJ runs tests), each doing R rounds of what every
 * test of the suite pays before and after its real work: a process started
 * and linked against libcrypto (as the harness drivers are), a file written
 * and read back, and a SHA-256 over it (the records' input fingerprints).
 * The campaign compares it with the value the ETA model was calibrated with
 * (cmake/NgccEta.cmake, NGCC_ETA_PROBE_REF_US) to scale its per-test
 * overheads to this machine and its present load, and runs it before each
 * label, so a load that starts or stops mid-campaign is seen. Median of three
 * runs: one probe is short enough to be hit by a single scheduling hiccup. */
#define _GNU_SOURCE
#include <openssl/evp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define PROBE_FILE_BYTES (256 * 1024)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* one round's child: write a file, read it back, hash it */
static int child_round(void)
{
    static unsigned char buf[PROBE_FILE_BYTES];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 131u + 7u);
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/ngcc-eta-probe-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    FILE *f = fdopen(fd, "w+b");
    if (!f) {
        close(fd);
        unlink(path);
        return 1;
    }
    size_t w = fwrite(buf, 1, sizeof buf, f);
    rewind(f);
    size_t r = fread(buf, 1, sizeof buf, f);
    fclose(f);
    unlink(path);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    int ok = EVP_Digest(buf, r, md, &mdlen, EVP_sha256(), NULL);
    return w == sizeof buf && r == sizeof buf && ok ? 0 : 1;
}

/* J workers of R rounds each, side by side; seconds of wall time, < 0 on error */
static double probe_once(const char *self, int jobs, int rounds)
{
    double t0 = now_s();
    pid_t workers[64];
    for (int j = 0; j < jobs; j++) {
        workers[j] = fork();
        if (workers[j] < 0)
            return -1;
        if (workers[j] == 0) {
            for (int k = 0; k < rounds; k++) {
                char *args[] = {(char *)self, "--child", NULL};
                pid_t pid;
                int st;
                if (posix_spawn(&pid, self, NULL, NULL, args, environ) != 0 || waitpid(pid, &st, 0) != pid ||
                    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
                    _exit(1);
            }
            _exit(0);
        }
    }
    int failed = 0;
    for (int j = 0; j < jobs; j++) {
        int st;
        if (waitpid(workers[j], &st, 0) != workers[j] || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            failed = 1;
    }
    return failed ? -1 : now_s() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--child"))
        return child_round();
    int jobs = 2, rounds = 15;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else {
            fprintf(stderr, "ngcc-eta-probe: unknown argument '%s'; usage: ngcc-eta-probe [--jobs J] [--rounds R]\n",
                    argv[i]);
            return 2;
        }
    }
    if (jobs < 1 || jobs > 64 || rounds < 1) {
        fprintf(stderr, "ngcc-eta-probe: --jobs must be 1..64 and --rounds at least 1\n");
        return 2;
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "ngcc-eta-probe: cannot find its own executable (/proc/self/exe)\n");
        return 1;
    }
    self[n] = 0;
    double s[3];
    for (int i = 0; i < 3; i++) {
        s[i] = probe_once(self, jobs, rounds);
        if (s[i] < 0) {
            fprintf(stderr, "ngcc-eta-probe: a probe round failed (fork, spawn, or writing to $TMPDIR or /tmp)\n");
            return 1;
        }
    }
    qsort(s, 3, sizeof s[0], cmp_double);
    printf("probe_us %.0f\n", s[1] * 1e6);
    return 0;
}
