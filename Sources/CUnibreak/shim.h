#pragma once
#include <linebreak.h>
#include <wordbreak.h>
