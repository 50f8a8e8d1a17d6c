# Cross toolchain for the aarch64 preset: Debian's gcc-aarch64-linux-gnu and
# the arm64 multiarch libraries (libcmocka-dev:arm64, libcjson-dev:arm64,
# libssl-dev:arm64; tools/install-deps --aarch64). Tests run under qemu-user,
# -cpu max so instances built for SHA3/SVE run (loader: see below).
# Instance libraries are cross-built with this same file
# (cmake/NgccBuildInstance.cmake passes it to each instance tree).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(NGCC_CROSS_TRIPLE aarch64-linux-gnu)
find_program(NGCC_CROSS_CC ${NGCC_CROSS_TRIPLE}-gcc)
find_program(NGCC_CROSS_CXX ${NGCC_CROSS_TRIPLE}-g++)
find_program(NGCC_QEMU_AARCH64 qemu-aarch64)
if(NOT NGCC_CROSS_CC OR NOT NGCC_CROSS_CXX OR NOT NGCC_QEMU_AARCH64)
  message(FATAL_ERROR "ngcc-ctest: the aarch64 preset needs ${NGCC_CROSS_TRIPLE}-gcc, -g++ (C++ instances) and qemu-aarch64 "
    "(not found). Install them with: tools/install-deps --aarch64")
endif()
set(CMAKE_C_COMPILER ${NGCC_CROSS_CC})
set(CMAKE_CXX_COMPILER ${NGCC_CROSS_CXX})
set(CMAKE_ASM_COMPILER ${NGCC_CROSS_CC})
set(CMAKE_LIBRARY_ARCHITECTURE ${NGCC_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH /usr/${NGCC_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# multiarch: headers in /usr/include, libraries and config packages in
# /usr/lib/aarch64-linux-gnu (found through CMAKE_LIBRARY_ARCHITECTURE)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# The loader comes from the multiarch libc6:arm64 (/lib/ld-linux-aarch64.so.1,
# pulled in by libcmocka-dev:arm64), not from -L /usr/aarch64-linux-gnu:
# measured with Debian's qemu 7.2 here, with -L every fork()ed child of a
# dynamically linked program spins forever right after fork (a static one,
# or the same program without -L, does not), and the harness forks a child
# for every submission call.
if(NOT EXISTS /lib/ld-linux-aarch64.so.1)
  message(FATAL_ERROR "ngcc-ctest: the aarch64 preset needs the arm64 loader /lib/ld-linux-aarch64.so.1 "
    "(multiarch libc6:arm64). Install it with: tools/install-deps --aarch64")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${NGCC_QEMU_AARCH64};-cpu;max)
# never pick up the host's x86-64 libraries (FindOpenSSL asks pkg-config)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${NGCC_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
