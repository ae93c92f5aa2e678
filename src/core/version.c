/* The run-time version: the string the library was compiled with. */
#include "bcast/version.h"

const char *bcast_version(void) { return BCAST_VERSION_STRING; }
