// The shims are `static inline` functions in include/CombineShims.h; SwiftPM needs one source file
// to build the module.
#include "CombineShims.h"
