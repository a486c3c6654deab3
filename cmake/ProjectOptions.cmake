# Project-wide compile settings. Warnings are errors for project code only:
# third-party headers come in as SYSTEM includes.

# -O2 for Release too: GCC 12 at -O3 reports false -Wrestrict/-Warray-bounds
# warnings inside libstdc++'s std::string (GCC bug 105329), which -Werror turns
# into build failures.
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG" CACHE STRING "Release flags" FORCE)

add_library(codepayload_options INTERFACE)
target_compile_options(codepayload_options INTERFACE
  -Wall -Wextra -Werror -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)

if(CODEPAYLOAD_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

# The include layering (cmake/CheckLayers.cmake), checked before any project
# target compiles: an include against it fails the build.
file(GLOB_RECURSE CODEPAYLOAD_LAYERED_SOURCES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/common/*.h ${PROJECT_SOURCE_DIR}/common/*.cpp
  ${PROJECT_SOURCE_DIR}/engine/*.h ${PROJECT_SOURCE_DIR}/engine/*.cpp
  ${PROJECT_SOURCE_DIR}/plugins/*.h ${PROJECT_SOURCE_DIR}/plugins/*.cpp
  ${PROJECT_SOURCE_DIR}/db/*.h ${PROJECT_SOURCE_DIR}/db/*.cpp
  ${PROJECT_SOURCE_DIR}/auth/*.h ${PROJECT_SOURCE_DIR}/auth/*.cpp
  ${PROJECT_SOURCE_DIR}/app/*.h ${PROJECT_SOURCE_DIR}/app/*.cpp
  ${PROJECT_SOURCE_DIR}/server/*.h ${PROJECT_SOURCE_DIR}/server/*.cpp
  ${PROJECT_SOURCE_DIR}/tools/*.h ${PROJECT_SOURCE_DIR}/tools/*.cpp)
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/layers.checked
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DSTAMP=${PROJECT_BINARY_DIR}/layers.checked
          -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake
  DEPENDS ${CODEPAYLOAD_LAYERED_SOURCES} ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake
  COMMENT "Checking the include layering"
  VERBATIM)
add_custom_target(codepayload_layer_check DEPENDS ${PROJECT_BINARY_DIR}/layers.checked)

# codepayload_apply_warnings(target): every project target calls this.
function(codepayload_apply_warnings target)
  target_link_libraries(${target} PRIVATE codepayload_options)
  add_dependencies(${target} codepayload_layer_check)
endfunction()

# simdjson's on-demand parser picks its SIMD kernel at compile time. Build for
# the instruction set of the machine that builds (CI builds where it runs):
# AVX2 (haswell) when present, else SSE4.2 + PCLMUL (westmere).
include(CheckCXXSourceRuns)
check_cxx_source_runs("int main() { return __builtin_cpu_supports(\"avx2\") ? 0 : 1; }" CODEPAYLOAD_HAS_AVX2)
# A build for installation runs elsewhere: SSE4.2 + PCLMUL, which every
# x86-64 since 2010 has (D-V4).
if(CODEPAYLOAD_HAS_AVX2 AND NOT CODEPAYLOAD_PACKAGE)
  add_compile_options(-march=haswell)
else()
  add_compile_options(-march=westmere)
endif()

# A build for installation carries no path of the source or build tree
# (__FILE__ in assertions, debug information).
if(CODEPAYLOAD_PACKAGE)
  add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/= -ffile-prefix-map=${PROJECT_BINARY_DIR}/=)
endif()
