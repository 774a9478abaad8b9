# jobhost_add_plugin(<target> SOURCES <src>... [NAME <name>] [OUTPUT_DIR <dir>])
# Builds a jobhost plugin: a MODULE library named libjobhost_<name>.so, hidden visibility (only the
# entry alias is exported), linked against the SDK. Used in tree and by the installed package.
function(jobhost_add_plugin target)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIR" "SOURCES" ${ARGN})
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME jobhost_${ARG_NAME}
    PREFIX lib
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON)
  if(ARG_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  elseif(DEFINED JOBHOST_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${JOBHOST_PLUGIN_OUTPUT_DIR})
  endif()
  target_link_libraries(${target} PRIVATE jobhost::sdk)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
endfunction()
