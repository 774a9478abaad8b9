# Installs the CMake package (find_package(jobhost CONFIG): jobhost::sdk, jobhost::testing,
# jobhost_add_plugin) with its version file, and the pkg-config file jobhost-sdk.pc.
include(CMakePackageConfigHelpers)

install(EXPORT jobhostTargets NAMESPACE jobhost:: DESTINATION ${JOBHOST_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/jobhostConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/jobhostConfig.cmake
  INSTALL_DESTINATION ${JOBHOST_INSTALL_CMAKEDIR}
  PATH_VARS JOBHOST_INSTALL_PLUGINDIR CMAKE_INSTALL_BINDIR)
# 0.x: a new minor release may break the SDK, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/jobhostConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/jobhost-sdk.pc.in ${PROJECT_BINARY_DIR}/package/jobhost-sdk.pc @ONLY)

install(FILES
  ${PROJECT_BINARY_DIR}/package/jobhostConfig.cmake
  ${PROJECT_BINARY_DIR}/package/jobhostConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/JobhostPlugin.cmake
  DESTINATION ${JOBHOST_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/package/jobhost-sdk.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
