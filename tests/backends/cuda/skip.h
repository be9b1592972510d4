// Moved to tests/support/skip.h (skip() now ends only its own case; the main exits 77).
#pragma once

#include "tests/support/skip.h"
