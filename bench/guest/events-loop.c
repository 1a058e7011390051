// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of make bench-events, in the guest: openat() and close()
 * of one file as fast as one CPU can, for a number of seconds; prints
 * the calls per second.  Every openat() passes through the probed
 * functions once.
 *
 *   events-loop PATH SECONDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
		(double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	struct timespec t0;
	double secs, elapsed;
	long calls = 0;
	int i, fd;

	if (argc != 3 || (secs = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: events-loop PATH SECONDS\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (i = 0; i < 64; i++) {
			fd = open(argv[1], O_RDONLY);
			if (fd < 0) {
				perror(argv[1]);
				return 1;
			}
			close(fd);
		}
		calls += 64;
		elapsed = since(&t0);
	} while (elapsed < secs);
	printf("%.0f\n", (double)calls / elapsed);
	return 0;
}
