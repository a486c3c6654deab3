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

# codepayload_apply_warnings(target): every project target calls this.
function(codepayload_apply_warnings target)
  target_link_libraries(${target} PRIVATE codepayload_options)
endfunction()

# simdjson's on-demand parser picks its SIMD kernel at compile time. Build for
# the instruction set of the machine that builds (CI builds where it runs):
# AVX2 (haswell) when present, else SSE4.2 + PCLMUL (westmere).
include(CheckCXXSourceRuns)
check_cxx_source_runs("int main() { return __builtin_cpu_supports(\"avx2\") ? 0 : 1; }" CODEPAYLOAD_HAS_AVX2)
if(CODEPAYLOAD_HAS_AVX2)
  add_compile_options(-march=haswell)
else()
  add_compile_options(-march=westmere)
endif()
