// jobhost SDK version and plugin ABI version: the one place both numbers live.
// Plugins are stamped with these at compile time by JOBHOST_PLUGIN (plugin.h); the host checks them at load.
#pragma once

// SDK release version (semantic versioning). The one source of the version: the top-level
// CMakeLists.txt reads these three lines for project(VERSION), so the CMake package version
// (jobhostConfigVersion.cmake), jobhost.pc (and jobhost-sdk.pc, its alias under the earlier name)
// and libjobhost_sdk.so's version follow them.
#define JOBHOST_SDK_VERSION_MAJOR 0
#define JOBHOST_SDK_VERSION_MINOR 1
#define JOBHOST_SDK_VERSION_PATCH 5

// Plugin ABI version (also exported by the CMake package as JOBHOST_ABI_MAJOR/MINOR). Rules (docs/sdk.md, "ABI rules"):
//  - MAJOR bumps on any change to the layout or meaning of a type that crosses the boundary
//    (value types, interface vtables, the descriptor). A plugin loads only when MAJOR matches.
//  - MINOR bumps when something is only added in a compatible way (a new extension point queried
//    through PluginInstance, a new helper, a virtual appended with a default body to a host service
//    interface, JobContext or ResourceClient). A plugin loads when its MINOR <= the host's.
//    1.1: JobContext::pluginData, ResourceClient::hasConfigMapData.
//    1.2: the header-only volcano::Marker and ignoredFlagWarning.
//    1.3: the header-only volcano::openPort, volcano::controllerRef and volcano::ownedBy.
//    1.4: ResourceClient::configMapVersion, the header-only volcano::HostsSource and
//         volcano::createOrUpdateConfigMap.
//    1.5: the header-only volcano::withoutTemplateEnv.
#define JOBHOST_ABI_MAJOR 1
#define JOBHOST_ABI_MINOR 5

#define JOBHOST_STR_INNER(x) #x
#define JOBHOST_STR(x) JOBHOST_STR_INNER(x)

#define JOBHOST_SDK_VERSION_STRING                                                         \
  JOBHOST_STR(JOBHOST_SDK_VERSION_MAJOR) "." JOBHOST_STR(JOBHOST_SDK_VERSION_MINOR) "." \
      JOBHOST_STR(JOBHOST_SDK_VERSION_PATCH)

// The C++ ABI family: GCC and Clang on ELF both follow the Itanium C++ ABI.
#if defined(_MSC_VER) && !defined(__clang__)
#define JOBHOST_BUILD_ABI_FAMILY "msvc"
#else
#define JOBHOST_BUILD_ABI_FAMILY "itanium"
#endif

// The C++ standard library and, for libstdc++, its dual-ABI flag (std::string layout).
#if defined(_LIBCPP_VERSION)
#define JOBHOST_BUILD_STDLIB "libc++"
#elif defined(__GLIBCXX__)
#if defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define JOBHOST_BUILD_STDLIB "libstdc++-cxx11abi"
#else
#define JOBHOST_BUILD_STDLIB "libstdc++-oldabi"
#endif
#else
#define JOBHOST_BUILD_STDLIB "unknown-stdlib"
#endif

// The build key: everything beyond the ABI numbers that must be equal on both sides of the
// boundary because SDK value types (std::string, std::vector, std::map) cross it.
#define JOBHOST_BUILD_KEY                                                                      \
  JOBHOST_BUILD_ABI_FAMILY "/" JOBHOST_BUILD_STDLIB "/sdk-" JOBHOST_STR(JOBHOST_SDK_VERSION_MAJOR)
