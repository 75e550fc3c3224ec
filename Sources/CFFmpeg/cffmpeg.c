#include "cffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>

struct cffmpeg_table cffmpeg_table;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *missing = "";

// The sonames of FFmpeg 5.1 (Debian 12), whose headers podcli is compiled against: another
// major version has another ABI, and is not loaded.
static const char *const libraries[] = {"libavutil.so.57", "libswresample.so.4", "libavcodec.so.59",
                                        "libavformat.so.59"};

static void *find(void *const handles[], const char *name) {
    for (int index = 0; index < 4; index++) {
        void *symbol = dlsym(handles[index], name);
        if (symbol) return symbol;
    }
    missing = name;
    return NULL;
}

static void load(void) {
    void *handles[4];
    for (int index = 0; index < 4; index++) {
        handles[index] = dlopen(libraries[index], RTLD_NOW | RTLD_LOCAL);
        if (!handles[index]) {
            missing = libraries[index];
            return;
        }
    }
#define CFFMPEG_LOOKUP(type, name, parameters, arguments)                                                     \
    if (!(*(void **)&cffmpeg_table.name = find(handles, #name))) return;
#define CFFMPEG_PROCEDURE_LOOKUP(name, parameters, arguments)                                                 \
    if (!(*(void **)&cffmpeg_table.name = find(handles, #name))) return;
    CFFMPEG_FUNCTIONS(CFFMPEG_LOOKUP)
    CFFMPEG_PROCEDURES(CFFMPEG_PROCEDURE_LOOKUP)
#undef CFFMPEG_LOOKUP
#undef CFFMPEG_PROCEDURE_LOOKUP
    cffmpeg_table.av_log_set_level(AV_LOG_QUIET);
    loaded = 1;
}

int cffmpeg_load(void) {
    pthread_once(&load_once, load);
    return loaded ? 0 : -1;
}

const char *cffmpeg_missing(void) { return missing; }
