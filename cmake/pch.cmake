# Precompiled headers for the targets with many sources that all parse the
# same big headers: the tests (Catch2's single header, ~17k lines, in every
# test file), the puzzles (tl.h in all ~50 files) and the Python module
# (pybind11). Measured on 2 cores: a test file compiles in about 2 s less
# CPU time with them, a puzzle in about 1.5 s less; CI builds twice.
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
option(TILESCOPE_PCH "Precompiled headers for the tests, the puzzles and the Python module" ${TILESCOPE_PCH_DEFAULT})

# tilescope_precompile(target header...): `header` as target_precompile_headers
# takes it (<system> or "project.h"), only where TILESCOPE_PCH is on.
function(tilescope_precompile target)
  if(TILESCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
