#include "QuireICU.h"

#include <unicode/ubrk.h>

int32_t quire_icu_line_boundaries(const uint16_t *text, int32_t length, int32_t *boundaries,
                                  int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *it = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
  if (U_FAILURE(status) || it == NULL) return -1;
  int32_t count = 0;
  for (int32_t b = ubrk_next(it); b != UBRK_DONE && b < length && count < capacity;
       b = ubrk_next(it)) {
    boundaries[count++] = b;
  }
  ubrk_close(it);
  return count;
}
