/* ngcc-ctest: small shared helpers (hex, files, SHA-256, time). */
#ifndef NGCC_UTIL_H
#define NGCC_UTIL_H
#include <stddef.h>
#include <stdio.h>

/* writes 2*len uppercase hex chars (as the official fprintstr) */
void ngcc_hex_upper(char *out, const unsigned char *in, size_t len);
/* parses hex into out (max cap bytes); returns byte count or -1 */
long ngcc_hex_parse(unsigned char *out, size_t cap, const char *hex);
/* lowercase hex SHA-256 of a file into out[65]; 0 or -1 */
int ngcc_sha256_file(const char *path, char out[65]);
/* mkdir -p of the directory part of path (path itself if dir_only) */
int ngcc_mkdirs(const char *path, int dir_only);
/* writes data to path atomically (temp file, fsync, rename); 0 or -1 */
int ngcc_write_atomic(const char *path, const char *data, size_t len);
/* "2026-11-30T10:00:00Z" */
void ngcc_utc_now(char out[32]);
/* reads a whole (small) file; caller frees; NULL on error */
char *ngcc_read_file(const char *path, size_t *len);

#endif
