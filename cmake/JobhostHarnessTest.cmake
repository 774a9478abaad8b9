# jobhost_harness_test(<name> <sources>... [PLUGINS <name>...]): a GoogleTest executable written with
# the jobhost::testing harness only (no host headers), depending on the shipped plugins it loads.
include(GoogleTest)
function(jobhost_harness_test name)
  cmake_parse_arguments(ARG "" "" "PLUGINS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE jobhost::testing GTest::gtest_main)
  foreach(p ${ARG_PLUGINS})
    add_dependencies(${name} jobhost_plugin_${p})
  endforeach()
  gtest_discover_tests(${name} TEST_PREFIX "${name}." DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "JOBHOST_LOG_LEVEL=off")
endfunction()
