# Run by cpack (CPACK_PRE_BUILD_SCRIPTS, cmake/deb.cmake) on the staged
# files before they are packed, as Debian's dh_strip and dh_compress
# would: static libraries lose their debug sections (dpkg-buildflags'
# -g; CPack strips only executables and shared libraries) and manual
# pages are compressed with gzip -9n (no name or time stamp inside).
set(root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
file(GLOB_RECURSE archives "${root}/*.a")
foreach(archive IN LISTS archives)
  execute_process(COMMAND "${CPACK_BCAST_STRIP}" --strip-debug
    --enable-deterministic-archives "${archive}" COMMAND_ERROR_IS_FATAL ANY)
endforeach()
file(GLOB_RECURSE pages "${root}/*/share/man/man[1-9]/*.[1-9]")
foreach(page IN LISTS pages)
  execute_process(COMMAND gzip -9nf "${page}" COMMAND_ERROR_IS_FATAL ANY)
endforeach()
