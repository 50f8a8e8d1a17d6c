#include "elf_sizes.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_util.h"

/* 1 if [off, off + n * size) lies inside the file */
static int inside(size_t len, unsigned long long off, unsigned long long n, unsigned long long size)
{
    return off <= len && n <= (len - off) / (size ? size : 1);
}

static void from_sections(const unsigned char *f, size_t len, const Elf64_Ehdr *eh, elf_sizes *s)
{
    if (!inside(len, eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr)))
        return;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, f + eh->e_shoff + (size_t)i * sizeof sh, sizeof sh);
        if (!(sh.sh_flags & SHF_ALLOC))
            continue;
        if (sh.sh_type == SHT_NOBITS)
            s->bss += sh.sh_size;
        else if (sh.sh_flags & SHF_WRITE)
            s->data += sh.sh_size;
        else
            s->text += sh.sh_size;
    }
}

int elf_sizes_read(const char *path, elf_sizes *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    size_t len;
    unsigned char *f = (unsigned char *)ngcc_read_file(path, &len);
    if (!f) {
        snprintf(err, errlen, "%s: cannot read the library; run its build test first (ctest -L build)", path);
        return -1;
    }
    Elf64_Ehdr eh;
    int ok = len >= sizeof eh && memcmp(f, ELFMAG, SELFMAG) == 0 && f[EI_CLASS] == ELFCLASS64;
    if (ok)
        memcpy(&eh, f, sizeof eh);
    ok = ok && inside(len, eh.e_phoff, eh.e_phnum, sizeof(Elf64_Phdr));
    if (!ok) {
        snprintf(err, errlen, "%s: not a readable 64-bit ELF file", path);
        free(f);
        return -1;
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, f + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD)
            s->loadable_total += ph.p_memsz;
    }
    from_sections(f, len, &eh, s);
    free(f);
    return 0;
}
