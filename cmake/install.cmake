# `cmake --install`: the public header with the interp headers it includes
# (in include/tilescope/), the static libraries, the tilescope executable,
# and a CMake package so that an outside project does
#   find_package(tilescope REQUIRED)
#   target_link_libraries(app PRIVATE tilescope::tilescope)
include(CMakePackageConfigHelpers)

install(FILES ${PROJECT_SOURCE_DIR}/api/include/tilescope/tilescope.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilescope)
# The interp headers tilescope.h reaches (they include each other by
# plain name, so they sit beside it).
install(FILES
  ${PROJECT_SOURCE_DIR}/interp/exec/buffer.h
  ${PROJECT_SOURCE_DIR}/interp/ir/dtype.h
  ${PROJECT_SOURCE_DIR}/interp/ir/error.h
  ${PROJECT_SOURCE_DIR}/interp/trace/findings.h
  ${PROJECT_SOURCE_DIR}/interp/exec/interpreter.h
  ${PROJECT_SOURCE_DIR}/interp/ir/ir.h
  ${PROJECT_SOURCE_DIR}/interp/frontend/kernel.h
  ${PROJECT_SOURCE_DIR}/interp/ir/source_loc.h
  ${PROJECT_SOURCE_DIR}/interp/frontend/tl.h
  ${PROJECT_SOURCE_DIR}/interp/trace/trace.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tilescope)

# Static libraries carry their dependencies along: the GPU backend when it
# was built (its harness, which links the puzzles, stays with the CLI).
set(TILESCOPE_EXPORTED_LIBS tilescope_api tilescope_interp)
if(TARGET tilescope_gpu)
  list(APPEND TILESCOPE_EXPORTED_LIBS tilescope_gpu)
endif()
install(TARGETS ${TILESCOPE_EXPORTED_LIBS} EXPORT tilescopeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tilescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT tilescopeTargets NAMESPACE tilescope::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilescope)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tilescopeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tilescopeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilescope
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tilescopeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tilescopeConfig.cmake ${PROJECT_BINARY_DIR}/tilescopeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilescope)
