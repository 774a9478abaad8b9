# Installs the CMake package (find_package(jobhost CONFIG): jobhost::sdk, jobhost_add_plugin, and
# jobhost::testing from sdk/testing's export set) with its version file, and the pkg-config file
# jobhost.pc (plus jobhost-sdk.pc, its earlier name, as an alias).
include(CMakePackageConfigHelpers)

install(EXPORT jobhostTargets NAMESPACE jobhost:: DESTINATION ${JOBHOST_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/jobhostConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/jobhostConfig.cmake
  INSTALL_DESTINATION ${JOBHOST_INSTALL_CMAKEDIR}
  PATH_VARS JOBHOST_INSTALL_PLUGINDIR CMAKE_INSTALL_BINDIR)
# Semantic versioning of the SDK (docs/sdk.md, "Versions"): while the major is 0 a new minor release
# may break the SDK, so only the same major.minor is compatible (find_package(jobhost 0.1) accepts
# 0.1.x at or above the request, refuses 0.2 and 1.x); from 1.0 on, the same major is.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(JOBHOST_PACKAGE_COMPATIBILITY SameMinorVersion)
else()
  set(JOBHOST_PACKAGE_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/jobhostConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${JOBHOST_PACKAGE_COMPATIBILITY})

# pkg-config: paths relative to the .pc file (${pcfiledir}), so the installed tree can be moved.
file(RELATIVE_PATH JOBHOST_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
set(JOBHOST_PC_BOOST_CFLAGS "")
foreach(dir ${Boost_INCLUDE_DIRS})
  if(NOT dir MATCHES "^/usr(/local)?/include/?$")
    string(APPEND JOBHOST_PC_BOOST_CFLAGS " -I${dir}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/jobhost.pc.in ${PROJECT_BINARY_DIR}/package/jobhost.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/jobhost-sdk.pc.in ${PROJECT_BINARY_DIR}/package/jobhost-sdk.pc @ONLY)

install(FILES
  ${PROJECT_BINARY_DIR}/package/jobhostConfig.cmake
  ${PROJECT_BINARY_DIR}/package/jobhostConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/JobhostPlugin.cmake
  DESTINATION ${JOBHOST_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/package/jobhost.pc ${PROJECT_BINARY_DIR}/package/jobhost-sdk.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
