# What `cmake --install` puts into the SDK besides the firmware side (sw/cmake/sdk_install.cmake):
# the simulator in bin/ and, in share/namp-vp/, the examples and (from a full build) hello.elf.
# CPack makes a Debian package of the same tree under /opt/namp-vp (docs/firmware-sdk.md).
install(TARGETS namp-vp RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/sw/examples/ DESTINATION share/namp-vp/examples)
if(NOT NAMP_SDK_ONLY)
  install(FILES ${FIRMWARE_DIR}/hello.elf DESTINATION share/namp-vp/firmware)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME namp-vp)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "namp-vp developers <namp-vp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "virtual platform of a tiled many-core SoC with the NAMP, and its firmware SDK")
set(CPACK_PACKAGING_INSTALL_PREFIX /opt/namp-vp)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The simulator's shared libraries (dpkg-shlibdeps), and the cross toolchain the SDK builds with.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf, binutils-riscv64-unknown-elf, cmake (>= 3.20)")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
