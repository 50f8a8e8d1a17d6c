/* ngcc-ctest: the KAT text writer shared by the SIG/KEM replay
 * (kat_replay.c) and the KEX replay (kat_replay_kex.c): the official
 * printers (length, uppercase hex) and the '#' event protocol of
 * kat_replay.h. */
#ifndef KAT_WRITER_H
#define KAT_WRITER_H
#include <stdio.h>

#include "ngcc_guard.h"
#include "ngcc_loader.h"

typedef struct {
    FILE *out;
    FILE *meta; /* '#' protocol lines: out, or a null sink in text-only mode */
    int blank;
    int record;
    char *hexbuf;
    size_t hexcap;
} kat_writer;

/* official fprintlen: "<Name>_Len = %llu", or "<Name>_Len = " in blank mode */
void kw_len(kat_writer *w, const char *name, ull v);
/* official fprintstr: "<Name> = " then %02X of each byte (clamped to g->len) */
void kw_hex(kat_writer *w, const char *name, const ngcc_gbuf *g, ull len);
/* "#EV <record> <kind> " + fmt(a, b) */
void kw_event(kat_writer *w, const char *kind, const char *fmt, const char *a, long b);
/* guards of every buffer after a call (an overflow event per broken guard) */
void kw_check_guards(kat_writer *w, const char *call, ngcc_gbuf *const *bufs, const char *const *names, int n);
/* a returned length above the claimed one (lenover event) */
void kw_check_len(kat_writer *w, const char *what, ull got, ull claimed);
/* a non-zero return (call event) */
void kw_call_rc(kat_writer *w, const char *call, int rc);
/* "#B <record> <op>" (flushed) and the start time; "#T ..." after the call */
double kw_op_begin(kat_writer *w, const char *op);
void kw_op_end(kat_writer *w, const char *op, double t0);
/* "#R <record>", flushed */
void kw_record_end(kat_writer *w);

/* KAT_KEX.c's flow (kat_replay_kex.c): 0 (all records), 2 (the official
 * driver stopped: #STOP written), or 1 after #LOADFAIL */
int kat_replay_kex(kat_writer *w, ngcc_instance *in, int records);

#endif
