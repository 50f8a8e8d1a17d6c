/* ngcc-ctest: the isolation a child gets before submission code runs
 * (used by ngcc_child.c; the policy is documented in ngcc_child.h). */
#ifndef NGCC_SANDBOX_H
#define NGCC_SANDBOX_H
#include <stddef.h>

typedef struct {
    const char *scratch;        /* working folder, the only writable one */
    unsigned long mem_limit_mb; /* address space on top of the current mappings; 0: none */
    long long log_limit_bytes;  /* RLIMIT_FSIZE of the files the child writes; 0: none */
} ngcc_sandbox_spec;

/* Parent side: the scratch folder ($NGCC_SCRATCH_DIR, else ./ngcc-scratch)
 * made absolute and created; 0 or -1 (message on stderr). */
int ngcc_sandbox_scratch(char *out, size_t len);
/* Child side, right after fork: cwd, TMPDIR, network namespace, Landlock,
 * file size and address space limits. Describes what it got in note; the
 * applied memory limit (0: none) goes to *mem_applied_mb. Never fails: a
 * missing feature is described, not fatal. */
void ngcc_sandbox_enter(const ngcc_sandbox_spec *s, char *note, size_t len, unsigned long *mem_applied_mb);

#endif
