#ifndef CGD_H
#define CGD_H
// libgd's types, and its functions reached through a library loaded when first needed: linked
// at build time, libgd would bring some eighty libraries (HEIF, AVIF, TIFF, X11, ...) into every
// podcli process, about 10 MB and 8 ms at each start, for a feature few runs use.
#include <gd.h>

/// Loads libgd (libgd.so.3) once, and silences its diagnostics ("gd-jpeg: JPEG library reports
/// unrecoverable error", ...) which it would print to stderr through a handler that takes a
/// va_list, which Swift cannot supply. Returns 0, or -1 when libgd cannot be loaded. The other
/// functions may be called only after it returned 0.
int cgd_load(void);

gdImagePtr cgd_create_from_png(int size, void *data);
gdImagePtr cgd_create_from_jpeg(int size, void *data);
gdImagePtr cgd_create_from_gif(int size, void *data);
gdImagePtr cgd_create_from_webp(int size, void *data);
gdImagePtr cgd_create_true_color(int width, int height);
void cgd_destroy(gdImagePtr image);
void cgd_filled_rectangle(gdImagePtr image, int x1, int y1, int x2, int y2, int color);
void cgd_alpha_blending(gdImagePtr image, int blending);
void cgd_copy_resampled(gdImagePtr destination, gdImagePtr source, int destinationX, int destinationY,
                        int sourceX, int sourceY, int destinationWidth, int destinationHeight, int sourceWidth,
                        int sourceHeight);
/// The image as JPEG, allocated by libgd: free it with cgd_free.
void *cgd_jpeg(gdImagePtr image, int *size, int quality);
void cgd_free(void *memory);
int cgd_true_color_pixel(gdImagePtr image, int x, int y);

#endif
