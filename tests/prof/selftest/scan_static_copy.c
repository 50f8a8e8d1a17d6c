/* prof scan selftest object: a private static sm3hash of the scheme's own;
 * its calls are not calls of the ICCS symbol and are never counted. */
__attribute__((noinline)) static int sm3hash(int bits, const unsigned char *m, unsigned long long n, unsigned char *d)
{
    for (int i = 0; i < bits / 8; i++)
        d[i] = (unsigned char)(i ^ (n ? m[0] : 0));
    return 0;
}

int scan_static_copy_op(const unsigned char *m, unsigned char *d)
{
    return sm3hash(256, m, 8, d) | sm3hash(256, d, 256, d);
}
