#pragma once
#include <jxl/decode.h>
