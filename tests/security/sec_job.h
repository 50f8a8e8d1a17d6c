/* ngcc-security: everything a child needs for its piece of work. Built by
 * the parent before fork; the child sees a copy, except the shared parts
 * (material and result). */
#ifndef SEC_JOB_H
#define SEC_JOB_H

#include "sec_call.h"
#include "sec_material.h"
#include "sec_options.h"
#include "sec_plan.h"
#include "sec_result.h"

struct sec_check;

typedef struct {
    const sec_options *opt;
    const sec_plan *plan;
    sec_material *mat;
    sec_claims claims;
    sec_result *res;               /* this child's result (shared) */
    const struct sec_check *check; /* the check to run */
    int start;                     /* making material: the first item */
    int end;                       /* making material: stop before this item (0: all) */
    int time_first;                /* making material: time the first item's calls (sec_result.op_seconds) */
} sec_job;

/* the child's entry points (fn of sec_child_run) */
int sec_material_child(void *job, int unused_fd);
int sec_check_child(void *job, int unused_fd);

#endif
