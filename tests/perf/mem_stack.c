#define _GNU_SOURCE
#include "mem_stack.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAINT 0xA5

typedef struct {
    void (*fn)(void *);
    void *arg;
} job;

static void *trampoline(void *v)
{
    job *j = v;
    j->fn(j->arg);
    return NULL;
}

int mem_stack_init(mem_stack *s, size_t size)
{
    memset(s, 0, sizeof *s);
    s->page = (size_t)sysconf(_SC_PAGESIZE);
    s->size = (size + s->page - 1) / s->page * s->page;
    s->map = mmap(NULL, s->size + s->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (s->map == MAP_FAILED) {
        s->map = NULL;
        return -1;
    }
    mprotect(s->map, s->page, PROT_NONE); /* an overflow is a clean SIGSEGV, not silent corruption */
    s->stack = s->map + s->page;
    memset(s->stack, PAINT, s->size);
    return 0;
}

long mem_stack_run(mem_stack *s, void (*fn)(void *), void *arg)
{
    pthread_attr_t at;
    pthread_t t;
    job j = {fn, arg};
    long depth = -1;
    if (pthread_attr_init(&at) != 0)
        return -1;
    if (pthread_attr_setstack(&at, s->stack, s->size) == 0 && pthread_create(&t, &at, trampoline, &j) == 0) {
        pthread_join(t, NULL);
        size_t low = 0;
        while (low < s->size && s->stack[low] == PAINT)
            low++;
        depth = (long)(s->size - low);
        memset(s->stack + low, PAINT, s->size - low);
    }
    pthread_attr_destroy(&at);
    return depth;
}

void mem_stack_free(mem_stack *s)
{
    if (s->map)
        munmap(s->map, s->size + s->page);
    s->map = NULL;
}
