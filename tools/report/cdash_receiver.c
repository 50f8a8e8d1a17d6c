/* ngcc-cdash-receiver: a minimal CDash stand-in on loopback, for testing
 * dashboard submissions without a server. It listens on 127.0.0.1 (a free
 * port chosen by the kernel), runs the given command with NGCC_CDASH_URL
 * pointing at itself, stores every uploaded file (HTTP PUT or POST body)
 * under --out, logs each request, answers like CDash, and exits with the
 * command's exit status once it has ended.
 *
 *   ngcc-cdash-receiver --out <dir> [--timeout S] -- <command> [args...]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEADER 65536

static const char *out_dir;
static int requests;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* reads until "\r\n\r\n"; returns the header length incl. terminator, extra body bytes in *extra */
static ssize_t read_header(int fd, char *buf, size_t cap, size_t *got)
{
    *got = 0;
    while (*got < cap - 1) {
        ssize_t n = recv(fd, buf + *got, cap - 1 - *got, 0);
        if (n <= 0)
            return -1;
        *got += (size_t)n;
        buf[*got] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (end)
            return end + 4 - buf;
    }
    return -1;
}

/* a header's value (case-insensitive name), copied into out; 0 or -1 */
static int header(const char *head, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p && p[2]; p = strstr(p + 2, "\r\n")) {
        const char *line = p + 2;
        if (strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            line += nl + 1;
            while (*line == ' ')
                line++;
            size_t len = strcspn(line, "\r\n");
            snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), line);
            return 0;
        }
    }
    return -1;
}

/* a query parameter of the request URL, percent-decoded; 0 or -1 */
static int query_param(const char *url, const char *name, char *out, size_t cap)
{
    const char *q = strchr(url, '?');
    size_t nl = strlen(name);
    while (q) {
        q++;
        if (strncmp(q, name, nl) == 0 && q[nl] == '=') {
            const char *v = q + nl + 1;
            size_t o = 0;
            while (*v && *v != '&' && o + 1 < cap) {
                if (*v == '%' && isxdigit((unsigned char)v[1]) && isxdigit((unsigned char)v[2])) {
                    char hex[3] = {v[1], v[2], 0};
                    out[o++] = (char)strtol(hex, NULL, 16);
                    v += 3;
                } else {
                    out[o++] = *v == '+' ? ' ' : *v;
                    v++;
                }
            }
            out[o] = 0;
            return 0;
        }
        q = strchr(q, '&');
    }
    return -1;
}

static int recv_exact(int fd, char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = recv(fd, buf + got, n - got, 0);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* the body after the header: Content-Length or chunked; malloc'd, NULL on error */
static char *read_body(int fd, const char *head, const char *extra, size_t nextra, size_t *len)
{
    char v[64];
    if (header(head, "Content-Length", v, sizeof v) == 0) {
        *len = strtoull(v, NULL, 10);
        char *body = malloc(*len + 1);
        size_t pre = nextra < *len ? nextra : *len;
        memcpy(body, extra, pre);
        if (recv_exact(fd, body + pre, *len - pre) != 0) {
            free(body);
            return NULL;
        }
        return body;
    }
    if (header(head, "Transfer-Encoding", v, sizeof v) != 0 || strcasecmp(v, "chunked") != 0) {
        *len = 0;
        return calloc(1, 1);
    }
    /* chunked: keep it simple by reading everything the client sends into a buffer first */
    size_t cap = nextra + 65536, used = nextra;
    char *raw = malloc(cap);
    memcpy(raw, extra, nextra);
    for (;;) {
        raw[used] = 0;
        if (used >= 5 && memmem(raw, used, "0\r\n\r\n", 5))
            break;
        if (used + 4096 + 1 > cap)
            raw = realloc(raw, cap *= 2);
        ssize_t r = recv(fd, raw + used, cap - used - 1, 0);
        if (r <= 0)
            break;
        used += (size_t)r;
    }
    char *body = malloc(used + 1), *p = raw;
    *len = 0;
    for (;;) {
        unsigned long n = strtoul(p, &p, 16);
        p = strstr(p, "\r\n");
        if (!p || n == 0)
            break;
        p += 2;
        memcpy(body + *len, p, n);
        *len += n;
        p += n + 2;
    }
    free(raw);
    return body;
}

static void md5_hex(const char *data, size_t len, char out[33])
{
    unsigned char md[16];
    unsigned int n = 0;
    EVP_Digest(data, len, md, &n, EVP_md5(), NULL);
    for (int i = 0; i < 16; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

/* stores the body; the file name is CDash's FileName parameter, made safe */
static void store(const char *url, const char *method, const char *body, size_t len, const char *status)
{
    char name[512], path[1024];
    if (query_param(url, "FileName", name, sizeof name) != 0)
        snprintf(name, sizeof name, "request-%d.bin", requests);
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '\\')
            *p = '_';
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(body, 1, len, f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/requests.log", out_dir);
    f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %s %zu %s %s\n", method, name, len, status, url);
        fclose(f);
    }
}

static void serve(int fd)
{
    char *buf = malloc(MAX_HEADER);
    size_t got;
    ssize_t hl = read_header(fd, buf, MAX_HEADER, &got);
    if (hl < 0) {
        free(buf);
        return;
    }
    char method[16] = "", url[4096] = "", v[64];
    char *head = strndup(buf, (size_t)hl); /* body bytes that came with the header stay in buf */
    sscanf(head, "%15s %4095s", method, url);
    if (header(head, "Expect", v, sizeof v) == 0 && strcasecmp(v, "100-continue") == 0)
        send(fd, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_NOSIGNAL);
    size_t len = 0;
    char *body = read_body(fd, head, buf + hl, got - (size_t)hl, &len);
    free(head);
    requests++;
    char md5[33] = "", want[64] = "";
    const char *status = "OK";
    if (body) {
        md5_hex(body, len, md5);
        if (query_param(url, "MD5", want, sizeof want) == 0 && strcasecmp(want, md5) != 0)
            status = "ERROR";
        store(url, method, body, len, status);
    } else
        status = "ERROR";
    char reply[512], resp[1024];
    int rl = snprintf(reply, sizeof reply,
                      "<cdash version=\"3.0.0\">\n<status>%s</status>\n<message>%s</message>\n"
                      "<md5>%s</md5>\n</cdash>\n",
                      status, strcmp(status, "OK") ? "checksum mismatch or truncated upload" : "", md5);
    int n = snprintf(resp, sizeof resp,
                     "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: %d\r\n"
                     "Connection: close\r\n\r\n%s",
                     rl, reply);
    send(fd, resp, (size_t)n, MSG_NOSIGNAL);
    free(body);
    free(buf);
}

static int listen_loopback(int *port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t al = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 16) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &al) != 0) {
        perror("ngcc-cdash-receiver: cannot listen on 127.0.0.1");
        return -1;
    }
    *port = ntohs(a.sin_port);
    return s;
}

static pid_t start_command(char **argv, int port)
{
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/submit.php?project=ngcc-ctest", port);
    setenv("NGCC_CDASH_URL", url, 1);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "ngcc-cdash-receiver: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

int main(int argc, char **argv)
{
    static const struct option lo[] = {{"out", 1, 0, 'o'}, {"timeout", 1, 0, 't'}, {0, 0, 0, 0}};
    double timeout = 300;
    int c;
    while ((c = getopt_long(argc, argv, "+", lo, NULL)) != -1) {
        if (c == 'o')
            out_dir = optarg;
        else if (c == 't')
            timeout = atof(optarg);
        else
            return 2;
    }
    if (!out_dir || optind >= argc) {
        fprintf(stderr, "usage: ngcc-cdash-receiver --out <dir> [--timeout S] -- <command> [args...]\n");
        return 2;
    }
    mkdir(out_dir, 0755);
    int port, s = listen_loopback(&port);
    if (s < 0)
        return 2;
    printf("ngcc-cdash-receiver: listening on 127.0.0.1:%d, files go to %s\n", port, out_dir);
    fflush(stdout);
    pid_t pid = start_command(argv + optind, port);
    double deadline = now() + timeout;
    int status = 0, done = 0;
    while (!done) {
        struct pollfd p = {s, POLLIN, 0};
        if (poll(&p, 1, 200) > 0) {
            int fd = accept(s, NULL, NULL);
            if (fd >= 0) {
                serve(fd);
                close(fd);
            }
            continue;
        }
        done = waitpid(pid, &status, WNOHANG) == pid;
        if (!done && now() > deadline) {
            fprintf(stderr, "ngcc-cdash-receiver: the command ran longer than %.0f s; stopped\n", timeout);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 124;
        }
    }
    close(s);
    printf("ngcc-cdash-receiver: %d request(s) received\n", requests);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
