/* ngcc-sizes: static size of an instance library from its ELF headers:
 * the sum of the loadable segments' memory sizes (PT_LOAD p_memsz), and
 * text / data / bss as Berkeley size(1) counts them from the allocated
 * sections (read-only incl. code and rodata / writable / NOBITS). */
#ifndef ELF_SIZES_H
#define ELF_SIZES_H
#include <stddef.h>

typedef struct {
    unsigned long long loadable_total, text, data, bss;
} elf_sizes;

/* 64-bit ELF only; 0, or -1 with a one-line reason naming the file */
int elf_sizes_read(const char *path, elf_sizes *s, char *err, size_t errlen);

#endif
