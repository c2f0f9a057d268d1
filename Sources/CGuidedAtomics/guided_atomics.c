// Everything is in include/guided_atomics.h (inline); SwiftPM needs one source file per C target.
#include "guided_atomics.h"
