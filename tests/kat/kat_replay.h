/* ngcc-ctest: the child side of a KAT test. Replays the official
 * KAT_SIG.c / KAT_KEM.c / KAT_KEX.c flow against one instance library and streams the
 * KAT text, interleaved with '#' event lines, into a pipe. */
#ifndef KAT_REPLAY_H
#define KAT_REPLAY_H

typedef struct {
    const char *lib;
    int records;
    int text_only; /* no '#' lines: exactly the official file (benchmarks) */
} kat_replay_args;

/* Protocol (one item per line; KAT text lines never start with '#'):
 *   #LOADFAIL <reason>            the library did not load
 *   #META <key> <value>           metadata, before the first record
 *   #EV <record> <kind> <detail>  kind: call (non-zero return), overflow,
 *                                 lenover (length above claimed), ssdiff
 *   #B <record> <op>              an API call starts (op: keygen sign verify enc dec;
 *                                 KEX: init_a init_b pass1 pass2 pass3 derive_a derive_b)
 *   #T <record> <op> <seconds>    it returned after that many wall seconds
 *   #R <record>                   the record is complete
 *   #STOP <record> <code>         KEX: the official driver returns <code> here
 *                                 (after a call event giving the reason); the
 *                                 text so far is its partial file
 *   #DONE                         the replay finished
 * The stream is flushed before every API call, so the text of every step
 * before a crash reaches the parent. */
int kat_replay_child(void *args, int wfd);

#endif
