/* ngcc-ct: DRNG draws that are public by construction. A draw whose bytes
 * reappear verbatim in a public output (pk, a ciphertext, a signature, a KEX
 * message) was published by the candidate itself: a seed that keygen draws
 * and copies into pk (then expands into a public matrix by rejection
 * sampling), a nonce copied into a message, a salt into a signature. Marking
 * it secret makes every branch on that public data a false "leak".
 *
 * The flow registers the public outputs and which operation made which draws;
 * ct_public_draws_report() then prints one line per copied range:
 *   #DRAWPUB <draw> <op> <from> <to> <draw length> <output> <offset>
 * (draw numbered from 0 in call order; [from, to) bytes of the draw equal
 * output[offset, offset + to - from)). A copy is a run of at least 16 bytes
 * (the whole draw for a draw of 8 to 15 bytes) whose window holds at least
 * half as many distinct byte values as it is long, so zero runs or other
 * low-entropy bytes present in both are not taken for a copy. The driver
 * runs the flow natively to find them, then declares them public to the run
 * under valgrind (ngcc_ct_public_draw in the ct glue). */
#ifndef CT_PUBLIC_DRAWS_H
#define CT_PUBLIC_DRAWS_H

typedef const unsigned char *(*ct_draw_fn)(unsigned long long index, unsigned long long *len, unsigned long long *kept,
                                           int *secret);

/* a defined copy of a public output (name: "pk", "ct", "sig", "m1", ...) */
void ct_public_output(const char *name, const unsigned char *p, unsigned long long len);
/* draws [first, end) were made by op */
void ct_public_draws_op(const char *op, unsigned long long first, unsigned long long end);
/* prints the #DRAWPUB lines of the secret draws copied into an output */
void ct_public_draws_report(ct_draw_fn get);

#endif
