#include <stdlib.h>

#include "vec.h"

int vec_append(struct vec *v, double x)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        double *items = realloc(v->items, cap * sizeof *items);

        if (items == NULL)
            return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = x;
    return 0;
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

void vec_sort(struct vec *v)
{
    qsort(v->items, v->len, sizeof *v->items, ascending);
}

void vec_free(struct vec *v)
{
    free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
}
