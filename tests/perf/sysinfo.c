/* ngcc-sysinfo: the system/info test. Writes <build>/records/system.json
 * (kind system): the system id of the thresholds file, CPU, cores, clock
 * and counter (name, frequency, overhead, resolution, why better counters
 * were not available), memory, OS and kernel, compiler and CMake version,
 * so every figure of a campaign can be read against the host it came from.
 * Verdict PASS, or ERROR if no counter opens. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ngcc_counter.h"
#include "ngcc_record.h"

static const char usage[] = "usage: ngcc-sysinfo --record-out <records/system.json> --system <id> [--compiler <text>]\n"
                            "       [--cmake-version <text>] [--counter auto]\n";

/* first line of a file, without its newline ("" if unreadable) */
static void first_line(const char *path, char *out, size_t len)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = 0;
    fclose(f);
}

/* value of "key<sep>value" lines of a file (first match), quotes stripped */
static void keyed(const char *path, const char *key, char sep, char *out, size_t len)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, n) != 0)
            continue;
        char *v = strchr(line + n, sep);
        if (!v || strspn(line + n, " \t") != (size_t)(v - (line + n)))
            continue;
        v += 1 + strspn(v + 1, " \t\"");
        v[strcspn(v, "\"\n")] = 0;
        snprintf(out, len, "%s", v);
        break;
    }
    fclose(f);
}

static void add_file_line(cJSON *o, const char *name, const char *path)
{
    char v[512];
    first_line(path, v, sizeof v);
    if (v[0])
        cJSON_AddStringToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

static cJSON *cpu_json(void)
{
    cJSON *c = cJSON_CreateObject();
    static const char *const keys[][2] = {{"model name", "model"},
                                          {"vendor_id", "vendor"},
                                          {"cpu family", "family"},
                                          {"model", "model_number"},
                                          {"stepping", "stepping"},
                                          {"cpu MHz", "mhz_reported"},
                                          {"CPU implementer", "implementer"},
                                          {"CPU part", "part"}};
    char v[512];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        keyed("/proc/cpuinfo", keys[i][0], ':', v, sizeof v);
        if (v[0])
            cJSON_AddStringToObject(c, keys[i][1], v);
    }
    keyed("/proc/cpuinfo", "flags", ':', v, sizeof v);
    cJSON_AddBoolToObject(c, "constant_tsc", strstr(v, "constant_tsc") != NULL);
    cJSON_AddBoolToObject(c, "nonstop_tsc", strstr(v, "nonstop_tsc") != NULL);
    cJSON_AddBoolToObject(c, "hypervisor", strstr(v, "hypervisor") != NULL);
    cJSON_AddNumberToObject(c, "logical_cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
    return c;
}

static cJSON *clock_json(const ngcc_counter *ctr, int ok)
{
    cJSON *k = cJSON_CreateObject();
    add_file_line(k, "clocksource", "/sys/devices/system/clocksource/clocksource0/current_clocksource");
    add_file_line(k, "cpufreq_governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    add_file_line(k, "cpufreq_max_khz", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq");
    add_file_line(k, "boost", "/sys/devices/system/cpu/cpufreq/boost");
    add_file_line(k, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
    cJSON *c = cJSON_AddObjectToObject(k, "counter");
    cJSON_AddStringToObject(c, "name", ok ? ctr->name : "");
    cJSON_AddNumberToObject(c, "freq_hz", ctr->freq_hz);
    cJSON_AddStringToObject(c, "freq_source", ctr->freq_source);
    cJSON_AddNumberToObject(c, "overhead_ticks", ctr->overhead_ticks);
    cJSON_AddNumberToObject(c, "resolution_ticks", ctr->resolution_ticks);
    cJSON_AddStringToObject(c, "fallback", ctr->fallback);
    return k;
}

static cJSON *os_json(void)
{
    cJSON *o = cJSON_CreateObject();
    char v[512];
    keyed("/etc/os-release", "PRETTY_NAME", '=', v, sizeof v);
    cJSON_AddStringToObject(o, "name", v);
    struct utsname u;
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(o, "kernel", u.release);
        cJSON_AddStringToObject(o, "kernel_version", u.version);
        cJSON_AddStringToObject(o, "machine", u.machine);
    }
    return o;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"record-out", 1, 0, 'o'},    {"system", 1, 0, 's'},  {"compiler", 1, 0, 'c'},
                                       {"cmake-version", 1, 0, 'm'}, {"counter", 1, 0, 'k'}, {0, 0, 0, 0}};
    const char *out = NULL, *system = NULL, *compiler = "", *cmake = "", *want = "auto";
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 's':
            system = optarg;
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
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!out || !system || optind < argc) {
        fputs(usage, stderr);
        return 2;
    }
    ngcc_counter ctr;
    int ok = ngcc_counter_open(&ctr, want) == 0;
    cJSON *r = ngcc_record_new("system", system);
    cJSON_AddStringToObject(r, "system_id", system);
    cJSON_AddStringToObject(r, "verdict", ok ? "PASS" : "ERROR");
    char detail[600];
    if (ok)
        snprintf(detail, sizeof detail, "counter %s at %.6g Hz, overhead %.0f ticks, resolution %.0f ticks", ctr.name,
                 ctr.freq_hz, ctr.overhead_ticks, ctr.resolution_ticks);
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
    cJSON_AddStringToObject(r, "expected", "PASS");
    cJSON_AddItemToObject(r, "cpu", cpu_json());
    cJSON_AddItemToObject(r, "clock", clock_json(&ctr, ok));
    cJSON_AddStringToObject(r, "counter", ok ? ctr.name : "");
    char v[128];
    keyed("/proc/meminfo", "MemTotal", ':', v, sizeof v);
    cJSON_AddNumberToObject(r, "memory_kb", atof(v));
    cJSON_AddItemToObject(r, "os", os_json());
    cJSON_AddStringToObject(r, "compiler", compiler);
    cJSON_AddStringToObject(r, "cmake_version", cmake);
    int rc = ngcc_record_write(r, out);
    cJSON_Delete(r);
    ngcc_counter_close(&ctr);
    printf("ngcc: verdict system %s: %s: %s\n", system, ok ? "PASS" : "ERROR", detail);
    return ok && rc == 0 ? 0 : 1;
}
