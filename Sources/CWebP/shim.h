#pragma once
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>

// WebPConfigInit / WebPAnimEncoderOptionsInit / WebPPictureInit are macros over *Internal
// functions that take the ABI version.
static inline int cwebp_config_init(WebPConfig *c) { return WebPConfigInit(c); }
static inline int cwebp_picture_init(WebPPicture *p) { return WebPPictureInit(p); }
static inline int cwebp_anim_encoder_options_init(WebPAnimEncoderOptions *o) {
  return WebPAnimEncoderOptionsInit(o);
}
static inline WebPAnimEncoder *cwebp_anim_encoder_new(int w, int h, const WebPAnimEncoderOptions *o) {
  return WebPAnimEncoderNew(w, h, o);
}
static inline int cwebp_anim_decoder_options_init(WebPAnimDecoderOptions *o) {
  return WebPAnimDecoderOptionsInit(o);
}
static inline WebPAnimDecoder *cwebp_anim_decoder_new(const WebPData *d, const WebPAnimDecoderOptions *o) {
  return WebPAnimDecoderNew(d, o);
}
