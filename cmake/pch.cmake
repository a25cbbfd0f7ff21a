# Precompiled headers for the targets with many sources that all parse the
# same big headers: the puzzles (tl.h in ~45 files) and the Python module
# (pybind11): a puzzle file then compiles in a fraction of the CPU time,
# and CI builds twice. (The tests would gain as much, but with Catch2's header precompiled GCC 12 reports false positives in
# libstdc++ there: tests/CMakeLists.txt.)
#
# ccache caches a compile that uses a precompiled header only with
# `sloppiness = pch_defines,time_macros` in its configuration, and compiles
# it again every time otherwise; so where ccache is the compiler launcher
# they are off unless asked for (-DTILESCOPE_PCH=ON).
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(TILESCOPE_PCH_DEFAULT OFF)
else()
  set(TILESCOPE_PCH_DEFAULT ON)
endif()
option(TILESCOPE_PCH "Precompiled headers for the puzzles and the Python module" ${TILESCOPE_PCH_DEFAULT})

# tilescope_precompile(target header...): `header` as target_precompile_headers
# takes it (<system> or "project.h"), only where TILESCOPE_PCH is on.
function(tilescope_precompile target)
  if(TILESCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
