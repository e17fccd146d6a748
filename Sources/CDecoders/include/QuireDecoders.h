#pragma once
// The SVG, AVIF and JPEG XL decoders, loaded with dlopen() on first use.
//
// librsvg (with cairo, pango, glib, gio), libavif (with its AV1 codecs) and libjxl bring
// about sixty shared libraries; linked at build time, every `quire` process paid for their
// relocation before main(), though most books hold no such image. Here each library is
// opened by its versioned soname the first time an image needs it (once per process,
// pthread_once), and the few functions used are resolved with dlsym. A library that
// cannot be opened, or whose version differs from the headers the structs below were
// compiled against, makes `quire_*_unavailable()` return the reason; the Swift decoders
// turn it into a typed error (the image's warning path), never a crash.
//
// AVIF and JPEG XL structs come from their headers (plain /usr/include paths); the
// functions are this file's forwarders, never the libraries' own symbols, so nothing links
// against them. librsvg's API needs glib's and cairo's headers, which live under
// architecture-specific directories: the SVG side is a few plain-C functions instead.
#include <avif/avif.h>
#include <jxl/decode.h>
#include <stddef.h>
#include <stdint.h>

// MARK: - Availability

/// NULL when libavif is loaded; otherwise why it is not ("libavif.so.15: cannot open…").
const char *quire_avif_unavailable(void);
/// NULL when libjxl is loaded; otherwise why not.
const char *quire_jxl_unavailable(void);
/// NULL when librsvg (and cairo, pango, fontconfig through it) is loaded; otherwise why not.
const char *quire_svg_unavailable(void);

// MARK: - libavif (call only after quire_avif_unavailable() returned NULL)

avifDecoder *quire_avifDecoderCreate(void);
void quire_avifDecoderDestroy(avifDecoder *decoder);
avifResult quire_avifDecoderSetIOMemory(avifDecoder *decoder, const uint8_t *data, size_t size);
avifResult quire_avifDecoderParse(avifDecoder *decoder);
avifResult quire_avifDecoderNextImage(avifDecoder *decoder);
const char *quire_avifResultToString(avifResult result);
void quire_avifRGBImageSetDefaults(avifRGBImage *rgb, const avifImage *image);
avifResult quire_avifImageYUVToRGB(const avifImage *image, avifRGBImage *rgb);
avifBool quire_avifCropRectConvertCleanApertureBox(avifCropRect *rect,
                                                   const avifCleanApertureBox *clap,
                                                   uint32_t width, uint32_t height,
                                                   avifPixelFormat format,
                                                   avifDiagnostics *diagnostics);
avifImage *quire_avifImageCreateEmpty(void);
avifResult quire_avifImageSetViewRect(avifImage *view, const avifImage *image,
                                      const avifCropRect *rect);
void quire_avifImageDestroy(avifImage *image);

// MARK: - libjxl (call only after quire_jxl_unavailable() returned NULL)

JxlDecoder *quire_JxlDecoderCreate(void);
void quire_JxlDecoderDestroy(JxlDecoder *decoder);
JxlDecoderStatus quire_JxlDecoderSubscribeEvents(JxlDecoder *decoder, int events);
JxlDecoderStatus quire_JxlDecoderSetInput(JxlDecoder *decoder, const uint8_t *data, size_t size);
void quire_JxlDecoderCloseInput(JxlDecoder *decoder);
JxlDecoderStatus quire_JxlDecoderProcessInput(JxlDecoder *decoder);
JxlDecoderStatus quire_JxlDecoderGetBasicInfo(const JxlDecoder *decoder, JxlBasicInfo *info);
JxlDecoderStatus quire_JxlDecoderImageOutBufferSize(const JxlDecoder *decoder,
                                                    const JxlPixelFormat *format, size_t *size);
JxlDecoderStatus quire_JxlDecoderSetImageOutBuffer(JxlDecoder *decoder,
                                                   const JxlPixelFormat *format, void *buffer,
                                                   size_t size);

// MARK: - librsvg (call only after quire_svg_unavailable() returned NULL)

/// One parsed SVG document (a librsvg handle at 96 dpi).
typedef struct QuireSVG QuireSVG;
/// A font configuration for SVG text: the system's fonts plus a book's embedded fonts.
typedef struct QuireSVGFonts QuireSVGFonts;

/// Parses `count` bytes with no base file (no relative or file: URL resolves); NULL on
/// failure with librsvg's message in `error` (NUL-terminated, at most `capacity` bytes).
QuireSVG *quire_svg_load(const uint8_t *bytes, size_t count, char *error, size_t capacity);
void quire_svg_free(QuireSVG *svg);
/// The absolute intrinsic size in pixels at 96 dpi; 0 when the document has none.
int quire_svg_intrinsic_pixels(QuireSVG *svg, double *width, double *height);
/// The viewBox's size; 0 when the document has none.
int quire_svg_viewbox(QuireSVG *svg, double *width, double *height);
/// Draws the document fitted into width×height on `pixels` (cairo ARGB32: premultiplied,
/// native-endian, rows of 4×width bytes, cleared by the caller). With `fonts`, `<text>`
/// is set with that configuration's fonts. Returns 0 with librsvg's message in `error`.
int quire_svg_render(QuireSVG *svg, uint8_t *pixels, int width, int height, QuireSVGFonts *fonts,
                     char *error, size_t capacity);

/// A fresh fontconfig configuration with the system's fonts (no process-wide state is
/// touched); NULL when fontconfig fails.
QuireSVGFonts *quire_svg_fonts_create(void);
/// Adds a font file's bytes (TrueType, OpenType, WOFF, collection) without writing a file:
/// they are held in an anonymous memory file (memfd) registered by its /proc/self/fd path.
/// `family` (the book's @font-face name, may be NULL) is added to the faces' own family
/// names, so `font-family` in the SVG finds them by either. Returns 1 when fontconfig took
/// at least one face, 0 otherwise.
int quire_svg_fonts_add(QuireSVGFonts *fonts, const uint8_t *bytes, size_t count,
                        const char *family);
/// Faces registered with quire_svg_fonts_add.
int quire_svg_fonts_count(QuireSVGFonts *fonts);
void quire_svg_fonts_free(QuireSVGFonts *fonts);
