/* A small shared library with text, data and bss for unit.perf_elf_sizes. */
int elf_probe_data[64] = {1};
int elf_probe_bss[512];

int elf_probe(int i)
{
    return elf_probe_data[i & 63] + elf_probe_bss[i & 511];
}
