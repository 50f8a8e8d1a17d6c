/* prof scan selftest object: compiled with -flto; wrapping happens before
 * link-time optimisation, which may inline or bind across files. */
#include "auxfunc.h"

int scan_lto_op(unsigned char *out)
{
    return sm3hash(256, out, 256, out);
}
