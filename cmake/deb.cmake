# The Debian package (make deb): CPack's DEB generator packs what
# `cmake --install` installs -- libbcast.so and libbcast.a, the headers,
# the CMake package and bcast.pc, the CLI and its man page, and the Python
# module built for Debian's /usr/bin/python3 -- into one bcast_<version>_<arch>.deb.
# Configure with -DCMAKE_INSTALL_PREFIX=/usr for it: GNUInstallDirs then
# picks the multiarch libdir (lib/x86_64-linux-gnu) and the module goes to
# /usr/lib/python3/dist-packages (see BCAST_PYTHON_INSTALL_DIR).
# docs/packaging.md describes the package.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bcast)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(BCAST_DEB_MAINTAINER
  "Seed ac2b7bf2 maintainers <maintainers@users.noreply.a-seed-ac2b7bf2.example>"
  CACHE STRING "The Debian package's Maintainer field: NAME <EMAIL>")
set(CPACK_PACKAGE_CONTACT ${BCAST_DEB_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "tensor broadcasting library, command-line tool and Python module")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION [=[
bcast decides whether tensor shapes broadcast and infers and verifies result
shapes as MLIR's Broadcastable trait, MLIR's TOSA dialect and NumPy specify.
It broadcasts NumPy .npy tensors without copying, runs the TOSA and NumPy
element-wise ops on broadcast operands and lowers them to linalg.generic.
.
This package holds the C11 library (libbcast.so, libbcast.a, headers, CMake
package and pkg-config file), the bcast command-line tool with its manual
page, and the Python 3 module bcast for NumPy arrays.]=])
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# bcast_0.1.0_amd64.deb: Debian's own name for the package file.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends: dpkg-shlibdeps reads the ELF files' needs (libc6, libgomp1,
# zlib1g); the Python module's are stated below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libbcast.so.0's shlibs entry, for dpkg-shlibdeps of packages linking it.
# (CPack's GENERATE_SHLIBS would warn that the Python module, a shared
# object too, has no soname.)  The library cache is refreshed by dpkg's
# ldconfig trigger (triggers: activate-noawait ldconfig, as debhelper does
# and lintian wants); postinst byte-compiles the module (py3compile), prerm
# removes what that wrote (py3clean); postrm exists so that CPack does not
# write one calling ldconfig.
get_target_property(bcast_soversion bcast_shared SOVERSION)
file(WRITE ${PROJECT_BINARY_DIR}/deb/shlibs
  "libbcast ${bcast_soversion} ${CPACK_PACKAGE_NAME} (>= ${PROJECT_VERSION})\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/deb/shlibs
  ${PROJECT_SOURCE_DIR}/cmake/deb/postinst ${PROJECT_SOURCE_DIR}/cmake/deb/prerm
  ${PROJECT_SOURCE_DIR}/cmake/deb/postrm ${PROJECT_SOURCE_DIR}/cmake/deb/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Executables and shared libraries stripped by CPack, libbcast.a's debug
# sections and the manual page's compression by cmake/deb-prebuild.cmake.
set(CPACK_STRIP_FILES ON)
set(CPACK_BCAST_STRIP ${CMAKE_STRIP})
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/deb-prebuild.cmake)

set(BCAST_DEB_DEPENDS)
if(BCAST_BUILD_PYTHON)
  # The extension is built for this interpreter's ABI
  # (_bcast.cpython-311-x86_64-linux-gnu.so): that python3 release only.
  math(EXPR py_minor_next "${Python3_VERSION_MINOR} + 1")
  list(APPEND BCAST_DEB_DEPENDS
    "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})"
    "python3 (<< ${Python3_VERSION_MAJOR}.${py_minor_next})")
  # NumPy's C ABI and the oldest NumPy of its C API, as Debian's dh_numpy3
  # states them, from python3-numpy's own record of both.
  set(numpy_versions /usr/share/numpy3/versions)
  if(EXISTS ${numpy_versions})
    file(STRINGS ${numpy_versions} numpy_abi REGEX "^abi ")
    file(STRINGS ${numpy_versions} numpy_min REGEX "^api-min-version ")
    string(REGEX REPLACE "^abi +" "" numpy_abi "${numpy_abi}")
    string(REGEX REPLACE "^api-min-version +" "" numpy_min "${numpy_min}")
    list(APPEND BCAST_DEB_DEPENDS "python3-numpy (>= ${numpy_min})"
      "python3-numpy-abi${numpy_abi}")
  else()
    list(APPEND BCAST_DEB_DEPENDS python3-numpy)
  endif()
endif()
list(JOIN BCAST_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)

include(CPack)
