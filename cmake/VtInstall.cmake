# Installs vt::policy, vt::runtime, the kernels and the vt tool with a package
# config, so a consumer writes find_package(vt) (proven by tests/consumer).
include(CMakePackageConfigHelpers)

set(vt_installed_targets vt_policy vt_runtime vt_kernels_cpu vt_cli)
if(TARGET vt_kernels_gpu)
  list(APPEND vt_installed_targets vt_kernels_gpu)
endif()
install(TARGETS ${vt_installed_targets}
  EXPORT vtTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/vt DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT vtTargets NAMESPACE vt:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)

configure_package_config_file(cmake/vtConfig.cmake.in
  ${PROJECT_BINARY_DIR}/vtConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vtConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vtConfig.cmake ${PROJECT_BINARY_DIR}/vtConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)
