// version.h is the one source of the version: the CMake project version (and so the package,
// pkg-config and library versions) is read from it, and the string form is built from the numbers.
#include <gtest/gtest.h>

#include "jobhost/version.h"

namespace {

TEST(SdkVersion, ProjectVersionIsTheHeaders) {
  EXPECT_STREQ(JOBHOST_SDK_VERSION_STRING, JOBHOST_PROJECT_VERSION);
  EXPECT_EQ(JOBHOST_ABI_MAJOR, JOBHOST_PROJECT_ABI_MAJOR);
  EXPECT_EQ(JOBHOST_ABI_MINOR, JOBHOST_PROJECT_ABI_MINOR);
}

TEST(SdkVersion, BuildKeyNamesAbiFamilyLibraryAndSdkMajor) {
  EXPECT_STREQ(JOBHOST_BUILD_KEY, "itanium/libstdc++-cxx11abi/sdk-0");
}

}  // namespace
