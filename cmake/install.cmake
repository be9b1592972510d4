# What `cmake --install` puts under the prefix, and the .deb CPack makes of it
# (issue #18):
#   bin/gkrun, bin/gkocr
#   <libdir>/libgkrun.so.0.2.0 (SONAME libgkrun.so.0.2), libgkrun.so, libgkrun.a
#   include/gkrun/gkrun.h, gkrun.hpp (the C API; the header-only C++ wrapper over it)
#   <libdir>/cmake/gkrun/  gkrunConfig.cmake, gkrunConfigVersion.cmake, targets:
#                          find_package(gkrun 0.2 REQUIRED) -> gkrun::gkrun (shared),
#                          gkrun::gkrun_static
#   <libdir>/pkgconfig/gkrun.pc (pkg-config --cflags --libs gkrun; --static for libgkrun.a)
#   lib/python3/dist-packages/gkrun/  the Python module (tools/python), where
#                          Debian's python3 looks
# Every file is found relative to where it was installed, so an install into any
# prefix (cmake --install build --prefix /tmp/x) works without reconfiguring.
include(CMakePackageConfigHelpers)

set(GK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gkrun)

install(TARGETS gkrun_shared gkrun_static EXPORT gkrunTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/runtime/api/gkrun.h ${PROJECT_SOURCE_DIR}/runtime/api/gkrun.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gkrun)
install(EXPORT gkrunTargets NAMESPACE gkrun:: DESTINATION ${GK_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gkrunConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/gkrunConfig.cmake INSTALL_DESTINATION ${GK_CMAKE_DIR})
# 0.x: a minor version may change the API, so 0.2 accepts 0.2.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/gkrunConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/gkrunConfig.cmake ${PROJECT_BINARY_DIR}/package/gkrunConfigVersion.cmake
        DESTINATION ${GK_CMAKE_DIR})

# pkg-config: the prefix is computed from the .pc file's own folder (${pcfiledir}).
file(RELATIVE_PATH GK_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
get_filename_component(GK_ONNX_PROTO_DIR ${ONNX_PROTO_LIB} DIRECTORY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/gkrun.pc.in ${PROJECT_BINARY_DIR}/package/gkrun.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/gkrun.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The .deb: `cpack -G DEB` in the build folder (or `cmake --build build -t package`).
# Depends comes from dpkg-shlibdeps, so it names exactly the Debian packages
# whose libraries the binaries link (libfmt9, libspdlog1.10, libprotobuf32,
# libonnx1, libstdc++6, libc6, ...). The build tunes for this machine unless
# configured with -DGK_NATIVE=OFF, which a package meant for other machines needs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gkrun)
set(CPACK_PACKAGE_VENDOR "gkrun")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ONNX inference runtime: gkrun CLI, libgkrun (C API), Python module")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "gkrun developers <gkrun@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Python module needs the python3 whose ABI it was built for and numpy at run
# time; it links no library of its own. Recommends, not Depends: the CLI and the
# C/C++ library need neither (tests/package/deb_clean_install.sh runs them on a
# clean Debian 12 with the Depends alone), a plain `apt install ./gkrun_*.deb`
# installs Recommends too (so `import gkrun` works), and --no-install-recommends
# (containers) keeps the ~60 MB of python3 + numpy out.
if(TARGET gkrun_python AND GK_PYTHON_VERSION MATCHES "^([0-9]+)\\.([0-9]+)$")
  math(EXPR gk_py_next "${CMAKE_MATCH_2} + 1")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
      "python3 (>= ${GK_PYTHON_VERSION}~), python3 (<< ${CMAKE_MATCH_1}.${gk_py_next}), python3-numpy")
endif()
include(CPack)
