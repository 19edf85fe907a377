#ifndef WSTAT_STATS_H
#define WSTAT_STATS_H

#include <stddef.h>

/* All functions take n >= 1 values; the ones named for sorted input need them
 * in ascending order. */

double stats_mean(const double *values, size_t n);

/* The sample standard deviation (n - 1 in the denominator); 0 for one value. */
double stats_stddev(const double *values, size_t n);

double stats_median(const double *sorted, size_t n);

/* The mean without the lowest and the highest `percent` percent of the values
 * (rounded down to whole values); at least one value is always kept. */
double stats_trimmed_mean(const double *sorted, size_t n, double percent);

#endif
