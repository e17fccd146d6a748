#pragma once
#include <zlib.h>

// Function-like macros Swift cannot import.
static inline int czlib_inflate_init2(z_streamp s, int window_bits) {
  return inflateInit2(s, window_bits);
}
static inline int czlib_deflate_init2(z_streamp s, int level, int method, int window_bits,
                                      int mem_level, int strategy) {
  return deflateInit2(s, level, method, window_bits, mem_level, strategy);
}
