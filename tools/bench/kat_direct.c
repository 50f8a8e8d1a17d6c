/* kat_direct: the "instance's own generator program" for benchmarking the
 * KAT test's overhead. The same replay code as ngcc-kat (tests/kat/
 * kat_replay.c), but linked directly with the instance's objects and writing
 * the KAT text straight to a file in-process, as the official KAT_SIG.c /
 * KAT_KEM.c generator would: no dlopen, no child, no pipe, no comparison.
 * Built and timed by tools/bench/kat-overhead.cmake; never part of a test. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kat_replay.h"
#include "ngcc_loader.h"

/* The instance's API, resolved by the static linker instead of dlsym. */
const ngcc_meta *ngcc_meta_get(void);
int ngcc_seed(const unsigned char *seed, unsigned long long len);
#ifdef NGCC_DIRECT_KEM
int kem_keygen(unsigned char *, ull *, unsigned char *, ull *);
int kem_enc(unsigned char *, ull, unsigned char *, ull *, unsigned char *, ull *);
int kem_dec(unsigned char *, ull, unsigned char *, ull, unsigned char *, ull *);
ull kem_get_pk_len_bytes(void), kem_get_sk_len_bytes(void), kem_get_ss_len_bytes(void), kem_get_ct_len_bytes(void);
#else
int sig_keygen(unsigned char *, ull *, unsigned char *, ull *);
int sig_sign(unsigned char *, ull, unsigned char *, ull, unsigned char *, ull *);
int sig_verify(unsigned char *, ull, unsigned char *, ull, unsigned char *, ull);
ull sig_get_pk_len_bytes(void), sig_get_sk_len_bytes(void), sig_get_sn_len_bytes(void);
#endif

int ngcc_instance_open(const char *path, ngcc_instance *in, char *err, int errlen)
{
    (void)path, (void)err, (void)errlen;
    memset(in, 0, sizeof *in);
    in->meta = ngcc_meta_get();
    in->seed = ngcc_seed;
#ifdef NGCC_DIRECT_KEM
    in->is_kem = 1;
    in->kem = (ngcc_kem_api){
        kem_keygen,          kem_enc, kem_dec, kem_get_pk_len_bytes, kem_get_sk_len_bytes, kem_get_ss_len_bytes,
        kem_get_ct_len_bytes};
#else
    in->sig = (ngcc_sig_api){sig_keygen,          sig_sign, sig_verify, sig_get_pk_len_bytes, sig_get_sk_len_bytes,
                             sig_get_sn_len_bytes};
#endif
    return 0;
}

/* the replay's stream (KAT text and '#' meta lines) split: the KAT text to
 * kat, the "#T <record> <op> <seconds>" operation times to times */
static int split_stream(FILE *stream, const char *kat, const char *times)
{
    FILE *k = fopen(kat, "w"), *t = fopen(times, "w");
    char *line = NULL;
    size_t cap = 0;
    int rc = k && t ? 0 : 1;
    rewind(stream);
    while (rc == 0 && getline(&line, &cap, stream) >= 0)
        if (line[0] != '#')
            fputs(line, k);
        else if (strncmp(line, "#T ", 3) == 0)
            fputs(line, t);
    free(line);
    if (k && fclose(k))
        rc = 1;
    if (t && fclose(t))
        rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: kat_direct <output KAT file> [<operation times file>]\n");
        return 2;
    }
    if (argc == 3) {
        /* with the meta lines, as the kat child writes them (flushed before each call) */
        FILE *stream = tmpfile();
        if (!stream) {
            perror("tmpfile");
            return 1;
        }
        kat_replay_args args = {"(static)", 10, 0};
        int rc = kat_replay_child(&args, dup(fileno(stream)));
        return rc ? rc : split_stream(stream, argv[1], argv[2]);
    }
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    kat_replay_args args = {"(static)", 10, 1};
    return kat_replay_child(&args, fd);
}
