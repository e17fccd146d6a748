// See QuireDecoders.h for why these libraries are opened at run time.
#include "QuireDecoders.h"
#include "Library.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// MARK: - libavif

static Library avif = {.soname = "libavif.so.15"};
static pthread_once_t avif_once = PTHREAD_ONCE_INIT;
static struct {
  const char *(*version)(void);
  avifDecoder *(*decoderCreate)(void);
  void (*decoderDestroy)(avifDecoder *);
  avifResult (*setIOMemory)(avifDecoder *, const uint8_t *, size_t);
  avifResult (*parse)(avifDecoder *);
  avifResult (*nextImage)(avifDecoder *);
  const char *(*resultToString)(avifResult);
  void (*rgbSetDefaults)(avifRGBImage *, const avifImage *);
  avifResult (*yuvToRGB)(const avifImage *, avifRGBImage *);
  avifBool (*cropRect)(avifCropRect *, const avifCleanApertureBox *, uint32_t, uint32_t,
                       avifPixelFormat, avifDiagnostics *);
  avifImage *(*createEmpty)(void);
  avifResult (*setViewRect)(avifImage *, const avifImage *, const avifCropRect *);
  void (*imageDestroy)(avifImage *);
} avifAPI;

static void load_avif(void) {
  static const char *const names[] = {
      "avifVersion",           "avifDecoderCreate",      "avifDecoderDestroy",
      "avifDecoderSetIOMemory", "avifDecoderParse",      "avifDecoderNextImage",
      "avifResultToString",    "avifRGBImageSetDefaults", "avifImageYUVToRGB",
      "avifCropRectConvertCleanApertureBox", "avifImageCreateEmpty", "avifImageSetViewRect",
      "avifImageDestroy"};
  _Static_assert(sizeof names / sizeof *names == sizeof avifAPI / sizeof(void *), "avif slots");
  quire_open_library(&avif, names, (void **)&avifAPI, (int)(sizeof names / sizeof *names));
  if (quire_library_failure(&avif)) return;
  // The structs above are laid out by the headers of one minor version; refuse another.
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
  const char *version = avifAPI.version();
  if (strncmp(version, expected, strlen(expected)) != 0) {
    snprintf(avif.failure, sizeof avif.failure, "%s is version %s, built for %s*", avif.soname,
             version, expected);
  }
}

const char *quire_avif_unavailable(void) {
  pthread_once(&avif_once, load_avif);
  return quire_library_failure(&avif);
}

avifDecoder *quire_avifDecoderCreate(void) { return avifAPI.decoderCreate(); }
void quire_avifDecoderDestroy(avifDecoder *d) { avifAPI.decoderDestroy(d); }
avifResult quire_avifDecoderSetIOMemory(avifDecoder *d, const uint8_t *data, size_t size) {
  return avifAPI.setIOMemory(d, data, size);
}
avifResult quire_avifDecoderParse(avifDecoder *d) { return avifAPI.parse(d); }
avifResult quire_avifDecoderNextImage(avifDecoder *d) { return avifAPI.nextImage(d); }
const char *quire_avifResultToString(avifResult r) { return avifAPI.resultToString(r); }
void quire_avifRGBImageSetDefaults(avifRGBImage *rgb, const avifImage *image) {
  avifAPI.rgbSetDefaults(rgb, image);
}
avifResult quire_avifImageYUVToRGB(const avifImage *image, avifRGBImage *rgb) {
  return avifAPI.yuvToRGB(image, rgb);
}
avifBool quire_avifCropRectConvertCleanApertureBox(avifCropRect *rect,
                                                   const avifCleanApertureBox *clap,
                                                   uint32_t width, uint32_t height,
                                                   avifPixelFormat format,
                                                   avifDiagnostics *diagnostics) {
  return avifAPI.cropRect(rect, clap, width, height, format, diagnostics);
}
avifImage *quire_avifImageCreateEmpty(void) { return avifAPI.createEmpty(); }
avifResult quire_avifImageSetViewRect(avifImage *view, const avifImage *image,
                                      const avifCropRect *rect) {
  return avifAPI.setViewRect(view, image, rect);
}
void quire_avifImageDestroy(avifImage *image) { avifAPI.imageDestroy(image); }

// MARK: - libjxl

static Library jxl = {.soname = "libjxl.so.0.7"};
static pthread_once_t jxl_once = PTHREAD_ONCE_INIT;
static struct {
  uint32_t (*version)(void);
  JxlDecoder *(*create)(const JxlMemoryManager *);
  void (*destroy)(JxlDecoder *);
  JxlDecoderStatus (*subscribe)(JxlDecoder *, int);
  JxlDecoderStatus (*setInput)(JxlDecoder *, const uint8_t *, size_t);
  void (*closeInput)(JxlDecoder *);
  JxlDecoderStatus (*process)(JxlDecoder *);
  JxlDecoderStatus (*basicInfo)(const JxlDecoder *, JxlBasicInfo *);
  JxlDecoderStatus (*outSize)(const JxlDecoder *, const JxlPixelFormat *, size_t *);
  JxlDecoderStatus (*setOut)(JxlDecoder *, const JxlPixelFormat *, void *, size_t);
} jxlAPI;

static void load_jxl(void) {
  static const char *const names[] = {
      "JxlDecoderVersion",        "JxlDecoderCreate",         "JxlDecoderDestroy",
      "JxlDecoderSubscribeEvents", "JxlDecoderSetInput",      "JxlDecoderCloseInput",
      "JxlDecoderProcessInput",   "JxlDecoderGetBasicInfo",   "JxlDecoderImageOutBufferSize",
      "JxlDecoderSetImageOutBuffer"};
  _Static_assert(sizeof names / sizeof *names == sizeof jxlAPI / sizeof(void *), "jxl slots");
  quire_open_library(&jxl, names, (void **)&jxlAPI, (int)(sizeof names / sizeof *names));
  if (quire_library_failure(&jxl)) return;
  // JxlDecoderVersion() is major·10⁶ + minor·10³ + patch.
  uint32_t version = jxlAPI.version();
  uint32_t built = JPEGXL_MAJOR_VERSION * 1000000u + JPEGXL_MINOR_VERSION * 1000u;
  if (version / 1000 != built / 1000) {
    snprintf(jxl.failure, sizeof jxl.failure, "%s is version %u, built for %u", jxl.soname,
             (unsigned)version, (unsigned)built);
  }
}

const char *quire_jxl_unavailable(void) {
  pthread_once(&jxl_once, load_jxl);
  return quire_library_failure(&jxl);
}

JxlDecoder *quire_JxlDecoderCreate(void) { return jxlAPI.create(NULL); }
void quire_JxlDecoderDestroy(JxlDecoder *d) { jxlAPI.destroy(d); }
JxlDecoderStatus quire_JxlDecoderSubscribeEvents(JxlDecoder *d, int events) {
  return jxlAPI.subscribe(d, events);
}
JxlDecoderStatus quire_JxlDecoderSetInput(JxlDecoder *d, const uint8_t *data, size_t size) {
  return jxlAPI.setInput(d, data, size);
}
void quire_JxlDecoderCloseInput(JxlDecoder *d) { jxlAPI.closeInput(d); }
JxlDecoderStatus quire_JxlDecoderProcessInput(JxlDecoder *d) { return jxlAPI.process(d); }
JxlDecoderStatus quire_JxlDecoderGetBasicInfo(const JxlDecoder *d, JxlBasicInfo *info) {
  return jxlAPI.basicInfo(d, info);
}
JxlDecoderStatus quire_JxlDecoderImageOutBufferSize(const JxlDecoder *d,
                                                    const JxlPixelFormat *format, size_t *size) {
  return jxlAPI.outSize(d, format, size);
}
JxlDecoderStatus quire_JxlDecoderSetImageOutBuffer(JxlDecoder *d, const JxlPixelFormat *format,
                                                   void *buffer, size_t size) {
  return jxlAPI.setOut(d, format, buffer, size);
}
