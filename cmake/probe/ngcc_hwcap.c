/* Cross builds: prints the target CPU's features under the test emulator
 * (qemu-aarch64 -cpu max), named as /proc/cpuinfo names them, so the ISA
 * decision of cmake/NgccIsa.cmake is the one the tests will run with. */
#include <stdio.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_AES
#define HWCAP_AES (1UL << 3)
#endif
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1UL << 6)
#endif
#ifndef HWCAP_SHA3
#define HWCAP_SHA3 (1UL << 17)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
int main(void)
{
    unsigned long h = getauxval(AT_HWCAP);
    printf("aarch64");
    if (h & HWCAP_AES)
        printf(" aes");
    if (h & HWCAP_SHA2)
        printf(" sha2");
    if (h & HWCAP_SHA3)
        printf(" sha3");
    if (h & HWCAP_SVE)
        printf(" sve");
    printf("\n");
    return 0;
}
#else
int main(void)
{
    printf("unknown\n");
    return 0;
}
#endif
