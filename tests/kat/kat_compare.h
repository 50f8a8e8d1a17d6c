/* ngcc-ctest: streaming comparison of produced KAT text with a submitted KAT
 * file, canonical line by canonical line (CR, trailing blanks and empty lines
 * ignored; a blank "<Name>_Len =" in the reference is tolerated and counted). */
#ifndef KAT_COMPARE_H
#define KAT_COMPARE_H
#include <stdio.h>

typedef struct {
    FILE *ref;
    long ref_line;   /* physical line number in the reference */
    long records;    /* compare the first N records */
    long cur_record; /* record of the current produced line */
    int stopped;     /* past the compared records */
    int ref_done;    /* the reference has no more lines */
    char *rbuf;
    size_t rcap;
    /* results */
    long tolerated_blank_len;
    int mismatch; /* a difference was found */
    long mm_record, mm_line, mm_col;
    char mm_expected[136], mm_got[136];
    unsigned char *record_bad; /* [records]: 1 if a line of record r differed */
    /* the first difference is the reference's own damage (the file ends in
     * the middle of a record, or its last line is cut short): said here */
    int ref_damaged;
    char damage[300];
} kat_compare;

/* opens the reference; 0 or -1 */
int kat_compare_open(kat_compare *c, const char *ref_path, long records);
/* one produced canonical line (stripped, non-empty) */
void kat_compare_line(kat_compare *c, const char *line, size_t len);
/* after the last produced line: checks the reference has nothing more
 * within the compared records (only meaningful if the run completed) */
void kat_compare_finish(kat_compare *c, int run_complete);
void kat_compare_close(kat_compare *c);

#endif
