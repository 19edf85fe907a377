#ifndef WSTAT_VEC_H
#define WSTAT_VEC_H

#include <stddef.h>

/* A growable array of doubles. Start with VEC_INIT, release with vec_free. */
struct vec {
    double *items;
    size_t len;
    size_t cap;
};

#define VEC_INIT { NULL, 0, 0 }

/* Append x; returns 0, or -1 when out of memory (v is unchanged). */
int vec_push(struct vec *v, double x);

/* Sort the items in ascending order. */
void vec_sort(struct vec *v);

void vec_free(struct vec *v);

#endif
