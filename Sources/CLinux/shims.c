// Everything CLinux needs is in its header; SwiftPM wants a source file per C target.
#include "CLinux.h"
