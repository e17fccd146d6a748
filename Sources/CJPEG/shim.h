#pragma once
#include <stddef.h>
#include <stdio.h>
#include <turbojpeg.h>
