#pragma once
// Internal: one run-time loaded library (see QuireDecoders.h).

/// One library: its soname, the dlopen handle, and why it is unusable (empty when usable).
typedef struct {
  const char *soname;
  void *handle;
  char failure[256];
} Library;

/// Opens `library` and resolves `count` symbols into `slots`; records the first failure.
void quire_open_library(Library *library, const char *const *names, void **slots, int count);
/// The recorded failure, or NULL when the library is usable.
const char *quire_library_failure(const Library *library);
