/* wstat: summary statistics of numbers.
 *
 *   wstat [-t PERCENT] [FILE]      numbers from FILE (or standard input), one per line
 *   wstat [-t PERCENT] -- NUMBER...  numbers from the command line
 *
 * Blank lines and lines starting with '#' are skipped. With -t, wstat also prints
 * the trimmed mean: the mean without the lowest and the highest PERCENT percent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "vec.h"

#define MAX_LINE 256

static const char *program = "wstat";

static void usage(void)
{
    fprintf(stderr, "usage: %s [-t PERCENT] [FILE]\n"
                    "       %s [-t PERCENT] -- NUMBER...\n", program, program);
    exit(2);
}

/* Parse a whole string as a number; returns 0 on success. */
static int parse_number(const char *text, double *out)
{
    char *end;

    errno = 0;
    *out = strtod(text, &end);
    if (end == text || errno == ERANGE)
        return -1;
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    return *end == '\0' ? 0 : -1;
}

static int read_numbers(FILE *in, const char *name, struct vec *values)
{
    char line[MAX_LINE];
    unsigned long lineno = 0;
    double x;

    while (fgets(line, sizeof line, in) != NULL) {
        const char *p = line;

        lineno++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '\n' || *p == '#')
            continue;
        if (parse_number(p, &x) != 0) {
            fprintf(stderr, "%s: %s:%lu: not a number: %s", program, name, lineno, p);
            return -1;
        }
        if (vec_push(values, x) != 0) {
            fprintf(stderr, "%s: out of memory\n", program);
            return -1;
        }
    }
    return 0;
}

static int add_arguments(char **args, int count, struct vec *values)
{
    double x;
    int i;

    for (i = 0; i < count; i++) {
        if (parse_number(args[i], &x) != 0) {
            fprintf(stderr, "%s: not a number: %s\n", program, args[i]);
            return -1;
        }
        if (vec_push(values, x) != 0) {
            fprintf(stderr, "%s: out of memory\n", program);
            return -1;
        }
    }
    return 0;
}

static void report(struct vec *values, double percent)
{
    vec_sort(values);
    printf("count   %zu\n", values->len);
    printf("min     %g\n", values->items[0]);
    printf("max     %g\n", values->items[values->len - 1]);
    printf("mean    %g\n", stats_mean(values->items, values->len));
    printf("stddev  %g\n", stats_stddev(values->items, values->len));
    printf("median  %g\n", stats_median(values->items, values->len));
    if (percent > 0)
        printf("trimmed %g\n", stats_trimmed_mean(values->items, values->len, percent));
}

int main(int argc, char **argv)
{
    struct vec values = VEC_INIT;
    double percent = 0.0;
    int i = 1, status;

    if (argc > 0 && argv[0][0] != '\0') {
        program = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    }
    if (i + 1 < argc && strcmp(argv[i], "-t") == 0) {
        if (parse_number(argv[i + 1], &percent) != 0 || percent <= 0 || percent >= 50)
            usage();
        i += 2;
    }
    if (i < argc && strcmp(argv[i], "--") == 0) {
        status = add_arguments(argv + i + 1, argc - i - 1, &values);
    } else if (i + 1 == argc && strcmp(argv[i], "-") != 0) {
        FILE *in = fopen(argv[i], "r");

        if (in == NULL) {
            fprintf(stderr, "%s: %s: %s\n", program, argv[i], strerror(errno));
            return 1;
        }
        status = read_numbers(in, argv[i], &values);
        fclose(in);
    } else if (i + 1 >= argc) {
        status = read_numbers(stdin, "-", &values);
    } else {
        usage();
        return 2;
    }
    if (status == 0 && values.len == 0) {
        fprintf(stderr, "%s: no numbers\n", program);
        status = -1;
    }
    if (status == 0)
        report(&values, percent);
    vec_free(&values);
    return status == 0 ? 0 : 1;
}
