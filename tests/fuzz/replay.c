/*
 * replay.c -- a main for the fuzz harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named (directories: on each
 * file inside), so every CTest build -- gcc, MPICH, the sanitizer build --
 * replays the seed corpora and the regression inputs of tests/fuzz/corpus
 * (an invariant that fails aborts, and the test fails).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t size = 0, capacity = 4096;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data && (got = fread(data + size, 1, capacity - size, file)) > 0) {
        size += got;
        if (size == capacity) data = realloc(data, capacity *= 2);
    }
    fclose(file);
    if (!data) return 1;
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int failures = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) == 0 && S_ISDIR(info.st_mode)) {
            DIR *dir = opendir(argv[i]);
            for (struct dirent *entry; dir && (entry = readdir(dir));) {
                if (entry->d_name[0] == '.') continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
                failures += replay_file(path);
                files++;
            }
            if (dir) closedir(dir);
        } else {
            failures += replay_file(argv[i]);
            files++;
        }
    }
    printf("replay: %d inputs, %d unreadable\n", files, failures);
    return failures || files == 0;
}
