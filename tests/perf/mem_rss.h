/* ngcc-mem: resident set size of this process from /proc/self/status. */
#ifndef MEM_RSS_H
#define MEM_RSS_H

/* VmRSS / VmHWM in kB, -1 if unreadable */
long mem_rss_kb(void);
long mem_hwm_kb(void);
/* resets VmHWM to the current RSS (writes "5" to /proc/self/clear_refs,
 * Linux >= 4.0); 0, or -1 if the kernel does not allow it */
int mem_hwm_reset(void);

#endif
