#pragma once
// libxml2 pulls in the system ICU headers, whose types clash with Foundation's private ICU
// module on a clean build ('UErrorCode' has different definitions). We never use libxml2's
// ICU encoding support, so switch it off before any other libxml2 header is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a mutable C global; Swift 6 refuses to touch it directly.
static inline void cxml_free(void *p) { xmlFree(p); }
