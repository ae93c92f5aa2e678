/* bcast/export.h - which symbols the shared library exports.
 *
 * The library is compiled with hidden visibility, so only the functions
 * declared with BCAST_API in include/bcast/ are visible to programs linking
 * libbcast.so; the internal bcast__ helpers stay private to it.  The static
 * library keeps every symbol linkable, which the unit tests rely on.  On
 * compilers without a visibility attribute BCAST_API expands to nothing and
 * everything is exported, as before.
 */
#ifndef BCAST_EXPORT_H
#define BCAST_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define BCAST_API __attribute__((visibility("default")))
#else
#define BCAST_API
#endif

#endif /* BCAST_EXPORT_H */
