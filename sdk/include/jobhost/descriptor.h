/* The plain C descriptor every plugin exports: ABI version, build key, name, version, create and
   destroy. The host reads and checks it before any C++ object crosses the boundary. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the exported entry (a Boost.DLL alias) returning the descriptor. */
#define JOBHOST_ENTRY_NAME "jobhost_plugin_entry"

/* Result codes of create(). */
enum {
  JOBHOST_CREATE_OK = 0,
  JOBHOST_CREATE_FAILED = 1,        /* the plugin could not start; error text says why */
  JOBHOST_CREATE_THREW = 2,         /* the plugin threw; error text carries what() */
  JOBHOST_CREATE_ARGS_REJECTED = 3  /* the config's default args are invalid */
};

/* What the host passes to create(). Host-owned; valid only during the call. */
typedef struct jobhost_plugin_settings {
  const char* configured_name;     /* the name the config uses (may be an alias) */
  const char* const* default_args; /* config "args", Go flag syntax */
  size_t default_args_count;
} jobhost_plugin_settings;

/* Static, plugin-owned, valid for as long as the library is loaded. */
typedef struct jobhost_plugin_descriptor {
  uint32_t struct_size; /* sizeof(jobhost_plugin_descriptor) as the plugin was built */
  uint32_t abi_major;
  uint32_t abi_minor;
  const char* build_key;   /* JOBHOST_BUILD_KEY */
  const char* sdk_version; /* JOBHOST_SDK_VERSION_STRING */
  const char* plugin_name;
  const char* plugin_version;
  uint32_t capabilities; /* jobhost::Capability bits */
  /* Creates one instance. On success stores a jobhost::PluginInstance* in *instance and returns
     JOBHOST_CREATE_OK. Otherwise writes a NUL-terminated reason into error (at most error_size
     bytes) and returns another code. Called on the loading thread; never throws. */
  int (*create)(const jobhost_plugin_settings* settings, void** instance, char* error,
                size_t error_size);
  /* Destroys an instance made by create(). Never throws. */
  void (*destroy)(void* instance);
} jobhost_plugin_descriptor;

/* A plugin's entry function: returns its static descriptor. Never throws. */
typedef const jobhost_plugin_descriptor* (*jobhost_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

/* Declares the entry of a plugin built in-process (its <target>_static library, see plugin.h):
   JOBHOST_DECLARE_STATIC_PLUGIN(env) declares jobhost_plugin_entry_env(). */
#ifdef __cplusplus
#define JOBHOST_DECLARE_STATIC_PLUGIN(NAME) \
  extern "C" const jobhost_plugin_descriptor* jobhost_plugin_entry_##NAME(void)
#else
#define JOBHOST_DECLARE_STATIC_PLUGIN(NAME) \
  const jobhost_plugin_descriptor* jobhost_plugin_entry_##NAME(void)
#endif
