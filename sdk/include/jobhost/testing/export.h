// JOBHOST_TESTING_API: marks what libjobhost_testing.so exports. The library is built with hidden
// visibility so the host it contains (and header-only code it instantiates) stays private to it.
#pragma once

#define JOBHOST_TESTING_API __attribute__((visibility("default")))
