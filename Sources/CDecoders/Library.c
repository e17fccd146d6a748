// See QuireDecoders.h for why these libraries are opened at run time.
#include "Library.h"

#include <dlfcn.h>
#include <stdio.h>

/// Opens `library` and resolves `count` symbols into `slots`; records the first failure.
void quire_open_library(Library *library, const char *const *names, void **slots, int count) {
  library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
  if (library->handle == NULL) {
    const char *why = dlerror();
    snprintf(library->failure, sizeof library->failure, "%s", why ? why : library->soname);
    return;
  }
  for (int i = 0; i < count; i++) {
    slots[i] = dlsym(library->handle, names[i]);
    if (slots[i] == NULL) {
      snprintf(library->failure, sizeof library->failure, "%s: no symbol %s", library->soname,
               names[i]);
      return;
    }
  }
}

const char *quire_library_failure(const Library *library) {
  return library->failure[0] ? library->failure : NULL;
}

