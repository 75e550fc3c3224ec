#include "cgd.h"

#include <dlfcn.h>
#include <pthread.h>

// Every libgd function podcli uses, as (return type, name, parameters).
#define CGD_FUNCTIONS(X)                                                                          \
    X(gdImagePtr, gdImageCreateFromPngPtr, (int, void *))                                         \
    X(gdImagePtr, gdImageCreateFromJpegPtr, (int, void *))                                        \
    X(gdImagePtr, gdImageCreateFromGifPtr, (int, void *))                                         \
    X(gdImagePtr, gdImageCreateFromWebpPtr, (int, void *))                                        \
    X(gdImagePtr, gdImageCreateTrueColor, (int, int))                                             \
    X(void, gdImageDestroy, (gdImagePtr))                                                         \
    X(void, gdImageFilledRectangle, (gdImagePtr, int, int, int, int, int))                        \
    X(void, gdImageAlphaBlending, (gdImagePtr, int))                                              \
    X(void, gdImageCopyResampled, (gdImagePtr, gdImagePtr, int, int, int, int, int, int, int, int)) \
    X(void *, gdImageJpegPtr, (gdImagePtr, int *, int))                                           \
    X(void, gdFree, (void *))                                                                     \
    X(int, gdImageGetTrueColorPixel, (gdImagePtr, int, int))                                      \
    X(void, gdSetErrorMethod, (void (*)(int, const char *, va_list)))

// Written once, under pthread_once, before any reader can see `loaded` set.
static struct {
#define CGD_POINTER(type, name, parameters) type(*name) parameters;
    CGD_FUNCTIONS(CGD_POINTER)
#undef CGD_POINTER
    int loaded;
} gd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void ignore_error(int priority, const char *format, va_list arguments) {
    (void)priority;
    (void)format;
    (void)arguments;
}

static void load(void) {
    void *library = dlopen("libgd.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define CGD_LOOKUP(type, name, parameters)                                                        \
    if (!(*(void **)&gd.name = dlsym(library, #name))) return;
    CGD_FUNCTIONS(CGD_LOOKUP)
#undef CGD_LOOKUP
    gd.gdSetErrorMethod(ignore_error);
    gd.loaded = 1;
}

int cgd_load(void) {
    pthread_once(&load_once, load);
    return gd.loaded ? 0 : -1;
}

gdImagePtr cgd_create_from_png(int size, void *data) { return gd.gdImageCreateFromPngPtr(size, data); }
gdImagePtr cgd_create_from_jpeg(int size, void *data) { return gd.gdImageCreateFromJpegPtr(size, data); }
gdImagePtr cgd_create_from_gif(int size, void *data) { return gd.gdImageCreateFromGifPtr(size, data); }
gdImagePtr cgd_create_from_webp(int size, void *data) { return gd.gdImageCreateFromWebpPtr(size, data); }
gdImagePtr cgd_create_true_color(int width, int height) { return gd.gdImageCreateTrueColor(width, height); }
void cgd_destroy(gdImagePtr image) { gd.gdImageDestroy(image); }

void cgd_filled_rectangle(gdImagePtr image, int x1, int y1, int x2, int y2, int color) {
    gd.gdImageFilledRectangle(image, x1, y1, x2, y2, color);
}

void cgd_alpha_blending(gdImagePtr image, int blending) { gd.gdImageAlphaBlending(image, blending); }

void cgd_copy_resampled(gdImagePtr destination, gdImagePtr source, int destinationX, int destinationY,
                        int sourceX, int sourceY, int destinationWidth, int destinationHeight, int sourceWidth,
                        int sourceHeight) {
    gd.gdImageCopyResampled(destination, source, destinationX, destinationY, sourceX, sourceY, destinationWidth,
                            destinationHeight, sourceWidth, sourceHeight);
}

void *cgd_jpeg(gdImagePtr image, int *size, int quality) { return gd.gdImageJpegPtr(image, size, quality); }
void cgd_free(void *memory) { gd.gdFree(memory); }
int cgd_true_color_pixel(gdImagePtr image, int x, int y) { return gd.gdImageGetTrueColorPixel(image, x, y); }
