#include <math.h>

#include "stats.h"

/* Plain summation: exact enough for the few thousand values wstat is meant for. */
double stats_mean(const double *values, size_t n)
{
    double sum = 0.0;
    size_t i;

    for (i = 0; i < n; i++)
        sum += values[i];
    return sum / (double)n;
}

double stats_stddev(const double *values, size_t n)
{
    double mean = stats_mean(values, n);
    double squares = 0.0;
    size_t i;

    if (n < 2)
        return 0.0;
    for (i = 0; i < n; i++)
        squares += (values[i] - mean) * (values[i] - mean);
    return sqrt(squares / (double)(n - 1));
}

double stats_median(const double *sorted, size_t n)
{
    if (n % 2 == 1)
        return sorted[n / 2];
    return (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

double stats_trimmed_mean(const double *sorted, size_t n, double percent)
{
    size_t lo = (size_t)((double)n * percent / 100.0);
    size_t hi = n - 1 - lo; /* the last value kept */

    if (lo > hi)
        lo = hi = (n - 1) / 2;
    return stats_mean(sorted + lo, hi - lo);
}
