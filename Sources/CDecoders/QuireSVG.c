// librsvg behind plain-C functions (see QuireDecoders.h), and fonts for SVG text.
//
// librsvg sets `<text>` with Pango on the calling thread's default PangoCairo font map,
// which reads fontconfig's configuration, which knows font FILES. A book's embedded fonts
// are bytes inside a zip (often obfuscated), so they are given to fontconfig as anonymous
// memory files: memfd_create, the bytes written once, the path /proc/self/fd/N. Nothing
// is written to disk. A memfd is kept for the life of the process and shared by content
// (cairo caches font faces by path, so a path must never come to mean other bytes), within
// a process-wide bound. Each book gets its own FcConfig (the system's fonts plus its own)
// and its own font map, made the thread's default only while one of its SVGs is drawn, and
// under that book's lock (Pango objects are not thread-safe): no book's fonts leak into
// another's pages, and the process-wide fontconfig configuration is never changed.
#define _GNU_SOURCE
#include "Library.h"
#include "QuireDecoders.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  uint32_t domain;
  int code;
  char *message;
} GError;
typedef struct {
  double x, y, width, height;
} RsvgRectangle;
typedef struct {
  double length;
  int unit;
} RsvgLength;

static Library rsvg = {.soname = "librsvg-2.so.2"};
static pthread_once_t rsvg_once = PTHREAD_ONCE_INIT;
static struct {
  void *(*bytesNew)(const void *, size_t);
  void (*bytesUnref)(void *);
  void *(*memoryStream)(void *);
  void *(*objectRef)(void *);
  void (*objectUnref)(void *);
  void (*errorFree)(GError *);
  void *(*handleNew)(void *, void *, int, void *, GError **);
  void (*setDPI)(void *, double);
  int (*intrinsicPixels)(void *, double *, double *);
  void (*intrinsicDimensions)(void *, int *, RsvgLength *, int *, RsvgLength *, int *,
                              RsvgRectangle *);
  int (*renderDocument)(void *, void *, const RsvgRectangle *, GError **);
  void *(*surfaceForData)(unsigned char *, int, int, int, int);
  int (*surfaceStatus)(void *);
  void (*surfaceFlush)(void *);
  void (*surfaceDestroy)(void *);
  void *(*cairoCreate)(void *);
  int (*cairoStatus)(void *);
  void (*cairoDestroy)(void *);
  void *(*fontMapNew)(int);
  void *(*fontMapDefault)(void);
  void (*fontMapSetDefault)(void *);
  void (*fontMapSetConfig)(void *, FcConfig *);
} api;

static void load_rsvg(void) {
  static const char *const names[] = {
      "g_bytes_new", "g_bytes_unref", "g_memory_input_stream_new_from_bytes", "g_object_ref",
      "g_object_unref", "g_error_free", "rsvg_handle_new_from_stream_sync", "rsvg_handle_set_dpi",
      "rsvg_handle_get_intrinsic_size_in_pixels", "rsvg_handle_get_intrinsic_dimensions",
      "rsvg_handle_render_document", "cairo_image_surface_create_for_data",
      "cairo_surface_status", "cairo_surface_flush", "cairo_surface_destroy", "cairo_create",
      "cairo_status", "cairo_destroy", "pango_cairo_font_map_new_for_font_type",
      "pango_cairo_font_map_get_default", "pango_cairo_font_map_set_default",
      "pango_fc_font_map_set_config"};
  _Static_assert(sizeof names / sizeof *names == sizeof api / sizeof(void *), "rsvg slots");
  quire_open_library(&rsvg, names, (void **)&api, (int)(sizeof names / sizeof *names));
}

const char *quire_svg_unavailable(void) {
  pthread_once(&rsvg_once, load_rsvg);
  return quire_library_failure(&rsvg);
}

/// Copies a GError's message (or `fallback`) into `error`, then frees the GError.
static void take_message(GError *gerror, const char *fallback, char *error, size_t capacity) {
  const char *text = gerror && gerror->message ? gerror->message : fallback;
  if (capacity > 0) snprintf(error, capacity, "%s", text);
  if (gerror) api.errorFree(gerror);
}

// MARK: - Documents

struct QuireSVG {
  void *handle;
};

QuireSVG *quire_svg_load(const uint8_t *bytes, size_t count, char *error, size_t capacity) {
  void *data = api.bytesNew(bytes, count);
  void *stream = api.memoryStream(data);
  GError *gerror = NULL;
  void *handle = api.handleNew(stream, NULL, 0, NULL, &gerror);
  api.objectUnref(stream);
  api.bytesUnref(data);
  if (handle == NULL) {
    take_message(gerror, "unknown error", error, capacity);
    return NULL;
  }
  api.setDPI(handle, 96);
  QuireSVG *svg = malloc(sizeof *svg);
  if (svg == NULL) {
    api.objectUnref(handle);
    take_message(NULL, "out of memory", error, capacity);
    return NULL;
  }
  svg->handle = handle;
  return svg;
}

void quire_svg_free(QuireSVG *svg) {
  if (svg == NULL) return;
  api.objectUnref(svg->handle);
  free(svg);
}

int quire_svg_intrinsic_pixels(QuireSVG *svg, double *width, double *height) {
  return api.intrinsicPixels(svg->handle, width, height) != 0;
}

int quire_svg_viewbox(QuireSVG *svg, double *width, double *height) {
  int has = 0;
  RsvgRectangle box = {0, 0, 0, 0};
  api.intrinsicDimensions(svg->handle, NULL, NULL, NULL, NULL, &has, &box);
  *width = box.width;
  *height = box.height;
  return has != 0;
}

// MARK: - Fonts

/// The process's font memfds: one per distinct font content, kept open.
enum { MAX_MEMFDS = 512 };
static const size_t MAX_MEMFD_BYTES = 256u << 20;
static struct {
  pthread_mutex_t lock;
  int count;
  size_t bytes;
  uint64_t hashes[MAX_MEMFDS];
  size_t sizes[MAX_MEMFDS];
  int fds[MAX_MEMFDS];
} memfds = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uint64_t fnv1a(const uint8_t *bytes, size_t count) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (size_t i = 0; i < count; i++) hash = (hash ^ bytes[i]) * 0x100000001b3u;
  return hash;
}

/// Writes all of `bytes` to `fd`; 0 on failure.
static int write_all(int fd, const uint8_t *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = write(fd, bytes, count);
    if (n <= 0) return 0;
    bytes += n;
    count -= (size_t)n;
  }
  return 1;
}

/// The memfd holding `bytes` (made on first sight, matched by hash, size and content), or −1.
static int memfd_for(const uint8_t *bytes, size_t count) {
  uint64_t hash = fnv1a(bytes, count);
  pthread_mutex_lock(&memfds.lock);
  int fd = -1;
  for (int i = 0; i < memfds.count && fd < 0; i++) {
    if (memfds.hashes[i] != hash || memfds.sizes[i] != count) continue;
    void *mapped = mmap(NULL, count, PROT_READ, MAP_PRIVATE, memfds.fds[i], 0);
    if (mapped == MAP_FAILED) continue;
    if (memcmp(mapped, bytes, count) == 0) fd = memfds.fds[i];
    munmap(mapped, count);
  }
  if (fd < 0 && memfds.count < MAX_MEMFDS && memfds.bytes + count <= MAX_MEMFD_BYTES) {
    int made = memfd_create("quire-font", MFD_CLOEXEC);
    if (made >= 0 && write_all(made, bytes, count)) {
      memfds.hashes[memfds.count] = hash;
      memfds.sizes[memfds.count] = count;
      memfds.fds[memfds.count++] = made;
      memfds.bytes += count;
      fd = made;
    } else if (made >= 0) {
      close(made);
    }
  }
  pthread_mutex_unlock(&memfds.lock);
  return fd;
}

struct QuireSVGFonts {
  pthread_mutex_t lock;
  FcConfig *config;
  void *fontMap;
  int faces;
};

QuireSVGFonts *quire_svg_fonts_create(void) {
  FcConfig *config = FcInitLoadConfigAndFonts();
  if (config == NULL) return NULL;
  QuireSVGFonts *fonts = calloc(1, sizeof *fonts);
  if (fonts == NULL) {
    FcConfigDestroy(config);
    return NULL;
  }
  pthread_mutex_init(&fonts->lock, NULL);
  fonts->config = config;
  return fonts;
}

static int application_faces(FcConfig *config) {
  FcFontSet *set = FcConfigGetFonts(config, FcSetApplication);
  return set ? set->nfont : 0;
}

/// Gives every application face read from `path` the extra family name `family`.
static void alias_faces(FcConfig *config, const char *path, const char *family) {
  FcFontSet *set = FcConfigGetFonts(config, FcSetApplication);
  for (int i = 0; set != NULL && i < set->nfont; i++) {
    FcChar8 *file = NULL;
    if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
    if (strcmp((const char *)file, path) != 0) continue;
    FcChar8 *name = NULL;
    int known = 0;
    for (int n = 0; FcPatternGetString(set->fonts[i], FC_FAMILY, n, &name) == FcResultMatch; n++) {
      known |= FcStrCmpIgnoreCase(name, (const FcChar8 *)family) == 0;
    }
    if (!known) FcPatternAddString(set->fonts[i], FC_FAMILY, (const FcChar8 *)family);
  }
}

int quire_svg_fonts_add(QuireSVGFonts *fonts, const uint8_t *bytes, size_t count,
                        const char *family) {
  if (count == 0) return 0;
  int fd = memfd_for(bytes, count);
  if (fd < 0) return 0;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  pthread_mutex_lock(&fonts->lock);
  int before = application_faces(fonts->config);
  int added = FcConfigAppFontAddFile(fonts->config, (const FcChar8 *)path) &&
              application_faces(fonts->config) > before;
  if (added && family != NULL && family[0] != 0) alias_faces(fonts->config, path, family);
  // A font map made earlier caches the old configuration's answers: drop it.
  if (added && fonts->fontMap != NULL) {
    api.objectUnref(fonts->fontMap);
    fonts->fontMap = NULL;
  }
  fonts->faces = application_faces(fonts->config);
  pthread_mutex_unlock(&fonts->lock);
  return added;
}

int quire_svg_fonts_count(QuireSVGFonts *fonts) {
  pthread_mutex_lock(&fonts->lock);
  int faces = fonts->faces;
  pthread_mutex_unlock(&fonts->lock);
  return faces;
}

void quire_svg_fonts_free(QuireSVGFonts *fonts) {
  if (fonts == NULL) return;
  if (fonts->fontMap != NULL) api.objectUnref(fonts->fontMap);
  FcConfigDestroy(fonts->config);
  pthread_mutex_destroy(&fonts->lock);
  free(fonts);
}

// MARK: - Drawing

/// Draws on a cairo surface over `pixels` with the thread's current default font map.
static int draw(QuireSVG *svg, uint8_t *pixels, int width, int height, char *error,
                size_t capacity) {
  enum { CAIRO_FORMAT_ARGB32 = 0, CAIRO_STATUS_SUCCESS = 0 };
  void *surface = api.surfaceForData(pixels, CAIRO_FORMAT_ARGB32, width, height, width * 4);
  if (api.surfaceStatus(surface) != CAIRO_STATUS_SUCCESS) {
    api.surfaceDestroy(surface);
    take_message(NULL, "cairo could not make the surface", error, capacity);
    return 0;
  }
  void *cr = api.cairoCreate(surface);
  int ok = api.cairoStatus(cr) == CAIRO_STATUS_SUCCESS;
  GError *gerror = NULL;
  RsvgRectangle viewport = {0, 0, width, height};
  if (!ok) {
    take_message(NULL, "cairo is out of memory", error, capacity);
  } else if (!api.renderDocument(svg->handle, cr, &viewport, &gerror)) {
    take_message(gerror, "unknown error", error, capacity);
    ok = 0;
  }
  api.cairoDestroy(cr);
  api.surfaceFlush(surface);
  api.surfaceDestroy(surface);
  return ok;
}

int quire_svg_render(QuireSVG *svg, uint8_t *pixels, int width, int height, QuireSVGFonts *fonts,
                     char *error, size_t capacity) {
  if (fonts == NULL) return draw(svg, pixels, width, height, error, capacity);
  enum { CAIRO_FONT_TYPE_FT = 1 };
  pthread_mutex_lock(&fonts->lock);
  if (fonts->fontMap == NULL && fonts->faces > 0) {
    fonts->fontMap = api.fontMapNew(CAIRO_FONT_TYPE_FT);
    if (fonts->fontMap != NULL) api.fontMapSetConfig(fonts->fontMap, fonts->config);
  }
  if (fonts->fontMap == NULL) {
    pthread_mutex_unlock(&fonts->lock);
    return draw(svg, pixels, width, height, error, capacity);
  }
  void *previous = api.objectRef(api.fontMapDefault());
  api.fontMapSetDefault(fonts->fontMap);
  int ok = draw(svg, pixels, width, height, error, capacity);
  api.fontMapSetDefault(previous);
  api.objectUnref(previous);
  pthread_mutex_unlock(&fonts->lock);
  return ok;
}
