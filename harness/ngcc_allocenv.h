/* ngcc-ctest: glibc malloc settings a child inherits from the environment.
 * glibc reads them once, at process start, so a child forked from the
 * harness runs the submission with them; they can slow an allocation-heavy
 * instance several times over (a fixed mmap threshold: ~5x on
 * fxq-runtime/ALLOC-128), and every timed or budgeted label inherits that. */
#ifndef NGCC_ALLOCENV_H
#define NGCC_ALLOCENV_H

/* Once per process: one line on stderr naming each such setting, so the
 * test's output says why operation times are inflated. */
void ngcc_allocenv_warn(void);

#endif
