# jobhost_add_plugin(<target> SOURCES <src>... [NAME <name>] [OUTPUT_DIR <dir>] [LINK_LIBRARIES <lib>...])
# Builds a jobhost plugin (in tree and from the installed package, jobhostConfig.cmake):
#  <target>         MODULE libjobhost_<name>.so: hidden visibility, only the entry alias exported,
#                   linked against jobhost::sdk, the build key stamped by JOBHOST_PLUGIN (version.h).
#  <target>_static  STATIC, EXCLUDE_FROM_ALL: the same sources with JOBHOST_PLUGIN_STATIC_ENTRY,
#                   exporting jobhost_plugin_entry_<name>() for in-process use (adoptPlugin, the
#                   jobhost::testing harness's inProcess(), benchmarks of static vs .so plugins).
function(jobhost_add_plugin target)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIR" "SOURCES;LINK_LIBRARIES" ${ARGN})
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  if(NOT ARG_NAME MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "jobhost_add_plugin(${target}): NAME \"${ARG_NAME}\" must match [a-z][a-z0-9_]*")
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  add_library(${target}_static STATIC EXCLUDE_FROM_ALL ${ARG_SOURCES})
  target_compile_definitions(${target}_static PRIVATE
    JOBHOST_PLUGIN_STATIC_ENTRY=jobhost_plugin_entry_${ARG_NAME})
  foreach(t ${target} ${target}_static)
    set_target_properties(${t} PROPERTIES
      CXX_VISIBILITY_PRESET hidden
      VISIBILITY_INLINES_HIDDEN ON
      POSITION_INDEPENDENT_CODE ON
      CXX_STANDARD 20
      CXX_STANDARD_REQUIRED ON)
  endforeach()
  # Installed into <prefix>/lib/jobhost/plugins: libjobhost_sdk.so is two levels up.
  set_target_properties(${target} PROPERTIES OUTPUT_NAME jobhost_${ARG_NAME} PREFIX lib
    INSTALL_RPATH "$ORIGIN/../..")
  set_target_properties(${target}_static PROPERTIES OUTPUT_NAME jobhost_${ARG_NAME}_static)
  if(ARG_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  elseif(DEFINED JOBHOST_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${JOBHOST_PLUGIN_OUTPUT_DIR})
  endif()
  target_link_libraries(${target} PRIVATE jobhost::sdk ${ARG_LINK_LIBRARIES})
  target_link_libraries(${target}_static PUBLIC jobhost::sdk ${ARG_LINK_LIBRARIES})
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
endfunction()
