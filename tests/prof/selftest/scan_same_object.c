/* prof scan selftest object: defines its own pseudoXOF and calls it in the
 * same file; -Wl,--wrap cannot see these calls (relocation to a symbol the
 * object defines). */
#include "auxfunc.h"

int pseudoXOF(unsigned long long out_bits, const unsigned char *m, unsigned long long m_bits, unsigned char *out)
{
    for (unsigned long long i = 0; i < (out_bits + 7) / 8; i++)
        out[i] = (unsigned char)(i + (m_bits ? m[0] : 0));
    return 0;
}

unsigned char scan_same_object_op(const unsigned char *m)
{
    unsigned char out[32];
    pseudoXOF(256, m, 8, out);
    return out[0];
}
