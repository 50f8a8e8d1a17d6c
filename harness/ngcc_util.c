#define _GNU_SOURCE
#include "ngcc_util.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void ngcc_hex_upper(char *out, const unsigned char *in, size_t len)
{
    static const char digits[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long ngcc_hex_parse(unsigned char *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

int ngcc_sha256_file(const char *path, char out[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        EVP_DigestUpdate(ctx, buf, n);
    int err = ferror(f);
    fclose(f);
    unsigned char md[32];
    EVP_DigestFinal_ex(ctx, md, NULL);
    EVP_MD_CTX_free(ctx);
    if (err)
        return -1;
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
    return 0;
}

int ngcc_mkdirs(const char *path, int dir_only)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    if (!dir_only) {
        char *slash = strrchr(p, '/');
        if (!slash) {
            free(p);
            return 0;
        }
        *slash = 0;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0755) && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    }
    int rc = (mkdir(p, 0755) && errno != EEXIST) ? -1 : 0;
    free(p);
    return rc;
}

int ngcc_write_atomic(const char *path, const char *data, size_t len)
{
    if (ngcc_mkdirs(path, 0))
        return -1;
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp)
        return -1;
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            unlink(tmp);
            free(tmp);
            return -1;
        }
        off += (size_t)w;
    }
    int rc = fsync(fd);
    rc |= close(fd);
    if (rc == 0)
        rc = rename(tmp, path);
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc ? -1 : 0;
}

void ngcc_utc_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

char *ngcc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}
