#pragma once
#include <stdio.h>
#include <hyphen.h>
