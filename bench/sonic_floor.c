/* The floor of speed with the pitch kept: libsonic alone (as Debian ships it, the library podcli
 * plays faster with) on raw 16-bit PCM from stdin, nothing else. Prints its CPU time (user + sys,
 * from getrusage) and the frames in and out, so bench/listening.sh can set what libsonic costs
 * against what the whole of mpg123 costs.
 *
 *   cc -O2 -o sonic_floor sonic_floor.c -lsonic
 *   mpg123 -s FILE | ./sonic_floor RATE CHANNELS SPEED */
#include <sonic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: sonic_floor RATE CHANNELS SPEED < pcm\n");
        return 64;
    }
    int rate = atoi(argv[1]), channels = atoi(argv[2]);
    float speed = (float)atof(argv[3]);
    if (rate <= 0 || channels <= 0 || speed <= 0) {
        fprintf(stderr, "sonic_floor: bad RATE, CHANNELS or SPEED\n");
        return 64;
    }
    /* All the input first, so reading it is not counted. */
    size_t size = 0, capacity = 1 << 20;
    short *pcm = malloc(capacity);
    size_t got;
    while (pcm && (got = fread((char *)pcm + size, 1, capacity - size, stdin)) > 0) {
        size += got;
        if (size == capacity) pcm = realloc(pcm, capacity *= 2);
    }
    if (!pcm) return 71;
    int frames = (int)(size / (2 * (size_t)channels));
    /* The chunks podcli hands it at this speed (2048 media frames at 1x, as many more as the speed). */
    int chunk = (int)(2048 * (speed > 1 ? speed : 1));
    short *out = malloc(sizeof(short) * (size_t)channels * 65536);
    double start = cpu_seconds();
    sonicStream stream = sonicCreateStream(rate, channels);
    if (!stream || !out) return 71;
    sonicSetSpeed(stream, speed);
    long produced = 0;
    for (int at = 0; at < frames; at += chunk) {
        int n = frames - at < chunk ? frames - at : chunk;
        if (!sonicWriteShortToStream(stream, pcm + (size_t)at * channels, n)) return 71;
        int read;
        while ((read = sonicReadShortFromStream(stream, out, 65536)) > 0) produced += read;
    }
    sonicFlushStream(stream);
    int read;
    while ((read = sonicReadShortFromStream(stream, out, 65536)) > 0) produced += read;
    sonicDestroyStream(stream);
    printf("{\"cpu_s\": %.4f, \"frames_in\": %d, \"frames_out\": %ld}\n", cpu_seconds() - start, frames, produced);
    return 0;
}
