#pragma once
// uchardet (Mozilla's universal charset detector, as a C library): guesses the legacy
// encoding of BOM-less, non-UTF-8 plain text. Debian 12 ships 0.0.7, which names one
// charset and reports no confidence; QuireIngest weighs the answer itself.
#include <uchardet/uchardet.h>
