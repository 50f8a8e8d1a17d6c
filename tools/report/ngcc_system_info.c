/* ngcc-system-info: the CTest test system/info, the one writer of
 * <build>/records/system.json (kind system), the record behind section 2 of
 * every page. Records the assessment environment: processor, clock and
 * whether it is fixed, memory, OS and kernel, compiler, CMake, and the
 * counter the timing tests use (opened with harness/ngcc_counter.h as
 * ngcc-perf does: name, frequency, overhead, resolution, why better counters
 * were not available). Verdict PASS, or ERROR if the wanted counter does not
 * open or the record cannot be written. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ngcc_counter.h"
#include "ngcc_record.h"
#include "ngcc_util.h"

#define CPUFREQ "/sys/devices/system/cpu/cpu0/cpufreq/"

/* first line of a small file, trimmed; 0 or -1 */
static int read_line(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    out[strcspn(out, "\r\n")] = 0;
    return 0;
}

/* value after "key<spaces>:" or "key=" in a text file (first match); 0 or -1 */
static int read_key(const char *path, const char *key, char sep, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    int found = -1;
    size_t kl = strlen(key);
    while (found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0)
            continue;
        char *p = line + kl;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != sep)
            continue;
        p++;
        while (*p == ' ' || *p == '\t' || *p == '"')
            p++;
        p[strcspn(p, "\"\r\n")] = 0;
        snprintf(out, cap, "%s", p);
        found = 0;
    }
    fclose(f);
    return found;
}

static long read_long(const char *path)
{
    char b[64];
    return read_line(path, b, sizeof b) == 0 ? strtol(b, NULL, 10) : -1;
}

static void add_cpu(cJSON *r, const struct utsname *u)
{
    cJSON *c = cJSON_AddObjectToObject(r, "cpu");
    char v[512];
    if (read_key("/proc/cpuinfo", "model name", ':', v, sizeof v) == 0)
        cJSON_AddStringToObject(c, "model", v);
    else {
        char impl[64] = "?", part[64] = "?";
        read_key("/proc/cpuinfo", "CPU implementer", ':', impl, sizeof impl);
        read_key("/proc/cpuinfo", "CPU part", ':', part, sizeof part);
        snprintf(v, sizeof v, "CPU implementer %s, part %s", impl, part);
        cJSON_AddStringToObject(c, "model", v);
    }
    cJSON_AddStringToObject(c, "arch", u->machine);
    cJSON_AddNumberToObject(c, "cores", (double)sysconf(_SC_NPROCESSORS_CONF));
    cJSON_AddNumberToObject(c, "online", (double)sysconf(_SC_NPROCESSORS_ONLN));
    if (read_key("/proc/cpuinfo", "cpu MHz", ':', v, sizeof v) == 0)
        cJSON_AddNumberToObject(c, "mhz", atof(v));
    else if (read_long(CPUFREQ "cpuinfo_max_freq") > 0)
        cJSON_AddNumberToObject(c, "mhz", (double)read_long(CPUFREQ "cpuinfo_max_freq") / 1000.0);
    if (read_key("/proc/cpuinfo", "flags", ':', v, sizeof v) == 0) {
        char tsc[64] = "";
        if (strstr(v, " constant_tsc"))
            strcat(tsc, "constant_tsc");
        if (strstr(v, " nonstop_tsc"))
            strcat(tsc, tsc[0] ? " nonstop_tsc" : "nonstop_tsc");
        cJSON_AddStringToObject(c, "tsc", tsc);
    }
}

/* boost/turbo: 1 on, 0 off, -1 unknown */
static int boost_state(void)
{
    long b = read_long("/sys/devices/system/cpu/cpufreq/boost");
    if (b >= 0)
        return b != 0;
    long nt = read_long("/sys/devices/system/cpu/intel_pstate/no_turbo");
    return nt >= 0 ? nt == 0 : -1;
}

static void add_clock(cJSON *r)
{
    cJSON *c = cJSON_AddObjectToObject(r, "clock");
    char gov[64], how[512];
    if (read_line(CPUFREQ "scaling_governor", gov, sizeof gov) != 0) {
        const char *tsc = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "cpu"), "tsc"));
        snprintf(how, sizeof how,
                 "no cpufreq interface (virtual machine or firmware-controlled clock): the "
                 "frequency cannot be read or fixed from the OS%s%s%s",
                 tsc && tsc[0] ? "; TSC " : "", tsc && tsc[0] ? tsc : "",
                 tsc && tsc[0] ? " (ticks at a constant rate)" : "");
        cJSON_AddNullToObject(c, "fixed");
        cJSON_AddStringToObject(c, "how", how);
        return;
    }
    long lo = read_long(CPUFREQ "scaling_min_freq"), hi = read_long(CPUFREQ "scaling_max_freq");
    int boost = boost_state();
    int pinned = (!strcmp(gov, "performance") || !strcmp(gov, "userspace")) && lo > 0 && lo == hi;
    int fixed = pinned && boost != 1;
    snprintf(how, sizeof how, "cpufreq governor %s, scaling min %.2f GHz, max %.2f GHz, boost %s%s", gov,
             (double)lo / 1e6, (double)hi / 1e6,
             boost == 1   ? "on"
             : boost == 0 ? "off"
                          : "unknown",
             fixed    ? ""
             : pinned ? " (boost can raise the clock)"
                      : " (min != max or a dynamic governor)");
    cJSON_AddBoolToObject(c, "fixed", fixed);
    cJSON_AddStringToObject(c, "how", how);
    cJSON_AddStringToObject(c, "governor", gov);
    cJSON_AddNumberToObject(c, "min_khz", (double)lo);
    cJSON_AddNumberToObject(c, "max_khz", (double)hi);
}

static void add_os(cJSON *r, const struct utsname *u)
{
    cJSON *o = cJSON_AddObjectToObject(r, "os");
    char v[256], k[512];
    if (read_key("/etc/os-release", "PRETTY_NAME", '=', v, sizeof v) == 0)
        cJSON_AddStringToObject(o, "name", v);
    snprintf(k, sizeof k, "%s %s %s", u->sysname, u->release, u->version);
    cJSON_AddStringToObject(o, "kernel", k);
    double kb = -1;
    if (read_key("/proc/meminfo", "MemTotal", ':', v, sizeof v) == 0)
        kb = atof(v);
    cJSON *m = cJSON_AddObjectToObject(r, "memory");
    if (kb > 0)
        cJSON_AddNumberToObject(m, "total_kb", kb);
}

/* the counter a timing test uses here (ctr, opened as ngcc-perf opens it;
 * ok 0 if it did not open) and whether user-mode core cycles are allowed */
static void add_counter(cJSON *r, const ngcc_counter *ctr, int ok)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    int err = errno;
    char detail[512];
    cJSON *c = cJSON_AddObjectToObject(r, "counter");
    long paranoid = read_long("/proc/sys/kernel/perf_event_paranoid");
    cJSON_AddStringToObject(c, "name", ok ? ctr->name : "");
    if (fd >= 0) {
        close((int)fd);
        snprintf(detail, sizeof detail, "perf_event_open(cycles, user mode) works (perf_event_paranoid=%ld)", paranoid);
    } else
        snprintf(detail, sizeof detail, "perf_event_open(cycles, user mode): %s (perf_event_paranoid=%ld); fallback %s",
                 strerror(err), paranoid, ok ? ctr->name : "none");
    cJSON_AddBoolToObject(c, "perf_event_cycles", fd >= 0);
    cJSON_AddStringToObject(c, "detail", detail);
    cJSON_AddNumberToObject(c, "freq_hz", ok ? ctr->freq_hz : 0);
    cJSON_AddStringToObject(c, "freq_source", ok ? ctr->freq_source : "");
    cJSON_AddNumberToObject(c, "overhead_ticks", ok ? ctr->overhead_ticks : 0);
    cJSON_AddNumberToObject(c, "resolution_ticks", ok ? ctr->resolution_ticks : 0);
    cJSON_AddStringToObject(c, "fallback", ctr->fallback);
}

/* "x86_64-intel-xeon-cpu-e5-2680-v4-2c": arch, model and cores, lowercase */
static void derive_id(const cJSON *r, char *out, size_t cap)
{
    char raw[512];
    const cJSON *cpu = cJSON_GetObjectItem(r, "cpu");
    snprintf(raw, sizeof raw, "%s-%s-%dc", cJSON_GetObjectItem(cpu, "arch")->valuestring,
             cJSON_GetObjectItem(cpu, "model")->valuestring, (int)cJSON_GetObjectItem(cpu, "cores")->valuedouble);
    size_t n = 0;
    for (const char *p = raw; *p && n + 1 < cap; p++) {
        int ok = isalnum((unsigned char)*p) || *p == '_';
        if (ok)
            out[n++] = (char)tolower((unsigned char)*p);
        else if (n && out[n - 1] != '-')
            out[n++] = '-';
    }
    while (n && out[n - 1] == '-')
        n--;
    out[n] = 0;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"out", 1, 0, 'o'},           {"system-id", 1, 0, 'i'}, {"compiler", 1, 0, 'c'},
                                       {"cmake-version", 1, 0, 'm'}, {"counter", 1, 0, 'k'},   {0, 0, 0, 0}};
    const char *out = NULL, *id = NULL, *compiler = "", *cmake = "", *want = "auto";
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'i':
            id = optarg[0] ? optarg : NULL;
            break;
        case 'c':
            compiler = optarg;
            break;
        case 'm':
            cmake = optarg;
            break;
        case 'k':
            want = optarg;
            break;
        default:
            fprintf(stderr, "usage: ngcc-system-info --out <records>/system.json [--system-id ID] "
                            "[--compiler TEXT] [--cmake-version V] [--counter auto|perf|tsc|cntvct|monotonic]\n");
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "ngcc-system-info: --out <records>/system.json is required\n");
        return 2;
    }
    struct utsname u;
    uname(&u);
    cJSON *r = ngcc_record_new("system", "");
    add_cpu(r, &u);
    add_clock(r);
    add_os(r, &u);
    cJSON_AddStringToObject(r, "compiler", compiler);
    cJSON_AddStringToObject(r, "cmake_version", cmake);
    ngcc_counter ctr;
    int ok = ngcc_counter_open(&ctr, want) == 0;
    add_counter(r, &ctr, ok);
    ngcc_counter_close(&ctr);
    char sid[128];
    if (id)
        snprintf(sid, sizeof sid, "%s", id);
    else
        derive_id(r, sid, sizeof sid);
    cJSON_ReplaceItemInObject(r, "name", cJSON_CreateString(sid));
    cJSON_AddStringToObject(r, "system_id", sid);
    cJSON_AddStringToObject(r, "verdict", ok ? "PASS" : "ERROR");
    cJSON_AddStringToObject(r, "expected", "PASS");
    const cJSON *cpu = cJSON_GetObjectItem(r, "cpu");
    char detail[700];
    if (ok)
        snprintf(detail, sizeof detail,
                 "%s, %d cores; counter %s at %.6g Hz, overhead %.0f ticks, resolution %.0f ticks",
                 cJSON_GetObjectItem(cpu, "model")->valuestring, (int)cJSON_GetObjectItem(cpu, "cores")->valuedouble,
                 ctr.name, ctr.freq_hz, ctr.overhead_ticks, ctr.resolution_ticks);
    else
        snprintf(detail, sizeof detail, "no counter '%s': %s", want, ctr.fallback);
    /* user-mode emulation: the cpu and clock fields describe the host that
     * runs the emulator, and no timing is the target's */
    char why[256];
    const char *emu = ngcc_emulated(why, sizeof why);
    if (emu) {
        size_t l = strlen(detail);
        snprintf(detail + l, sizeof detail - l,
                 "; emulated: %s (cpu and clock are the host's; timings are not the target's)", emu);
        cJSON *e = cJSON_AddObjectToObject(r, "emulated");
        cJSON_AddStringToObject(e, "emulator", emu);
        cJSON_AddStringToObject(e, "evidence", why);
    }
    cJSON_AddStringToObject(r, "detail", detail);
    int rc = ngcc_record_write(r, out);
    printf("<DartMeasurement name=\"cores\" type=\"numeric/integer\">%d</DartMeasurement>\n",
           (int)cJSON_GetObjectItem(cpu, "cores")->valuedouble);
    printf("ngcc: verdict system %s: %s: %s\n", sid, ok && rc == 0 ? "PASS" : "ERROR", rc == 0 ? detail : out);
    cJSON_Delete(r);
    return ok && rc == 0 ? 0 : 1;
}
