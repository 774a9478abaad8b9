// Loader tests: each deliberately broken .so fixture is loaded through the production loader and
// must produce its own one-line error naming the file and what to do; good plugins load.
#include "host/plugin/loader.h"

#include <gtest/gtest.h>

#include <elf.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "jobhost/version.h"

namespace jobhost {
namespace {

LoadRequest fixture(const std::string& name, std::vector<std::string> args = {}) {
  return LoadRequest{name, "", "", {JOBHOST_FIXTURE_DIR}, std::move(args)};
}
std::string fixtureFile(const std::string& name) {
  return std::string(JOBHOST_FIXTURE_DIR) + "/libjobhost_" + name + ".so";
}

TEST(Loader, LoadsShippedPluginFromSearchPath) {
  auto p = loadPlugin(LoadRequest{"env", "", "", {JOBHOST_PLUGIN_DIR}, {}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->name, "env");
  EXPECT_EQ(p->file, std::string(JOBHOST_PLUGIN_DIR) + "/libjobhost_env.so");
  EXPECT_EQ(p->abiMajor, static_cast<uint32_t>(JOBHOST_ABI_MAJOR));
  EXPECT_NE(p->instance, nullptr);
}

TEST(Loader, MissingByNameListsEveryPlaceTried) {
  auto p = loadPlugin(LoadRequest{"nosuch", "", "", {"/opt/a", "/opt/b"}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(),
            "libjobhost_nosuch.so: plugin \"nosuch\" not found (looked in: /opt/a/libjobhost_nosuch.so, "
            "/opt/b/libjobhost_nosuch.so); build it, set \"pluginPath\" in the config or "
            "JOBHOST_PLUGIN_PATH, or give its \"path\"");
}

TEST(Loader, MissingExplicitPathNamesTheFile) {
  auto p = loadPlugin(LoadRequest{"", "/nonexistent/libx.so", "", {}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(),
            "/nonexistent/libx.so: plugin file does not exist; fix the plugin's \"path\" in the config");
}

TEST(Loader, RelativePathResolvesAgainstConfigDir) {
  auto p = loadPlugin(LoadRequest{"", "libjobhost_withargs.so", JOBHOST_FIXTURE_DIR, {}, {}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->name, "withargs");
  EXPECT_EQ(p->version, "1.2.3");
}

// A scratch directory of this test process, for plugin files made by the tests.
std::filesystem::path scratchDir() {
  const auto dir = std::filesystem::temp_directory_path() / ("jobhost-loader-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// The bytes of the shipped env plugin, which the tests below copy, damage or cut.
std::string envPluginBytes() {
  std::ifstream in(std::string(JOBHOST_PLUGIN_DIR) + "/libjobhost_env.so", std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Writes the first `bytes` of `content` to scratch file `name`; returns its path.
std::string writeScratch(const std::string& name, const std::string& content, size_t bytes) {
  const auto file = scratchDir() / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(content.data(), static_cast<std::streamsize>(bytes));
  return file.string();
}

TEST(Loader, NotASharedObject) {
  auto p = loadPlugin(fixture("garbage"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("garbage") +
                           ": not a loadable shared object (dlopen: file too short); point the config at a plugin "
                           "built with jobhost_add_plugin()");
}

TEST(Loader, StaticInitialisationThatThrowsIsNamed) {
  auto p = loadPlugin(fixture("initthrows"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("initthrows") +
                           ": threw while it was loaded (in its static initialisation): cannot read "
                           "/etc/fixture-vendor.conf; fix the plugin's global objects");
}

TEST(Loader, SymlinkLoopIsAnErrorNamingTheFile) {
  const auto dir = scratchDir() / "loop";
  std::filesystem::create_directories(dir);
  std::error_code ec;
  std::filesystem::remove(dir / "a", ec);
  std::filesystem::remove(dir / "libjobhost_loop.so", ec);
  std::filesystem::create_symlink("libjobhost_loop.so", dir / "a");
  std::filesystem::create_symlink("a", dir / "libjobhost_loop.so");
  auto byPath = loadPlugin(LoadRequest{"", (dir / "a").string(), "", {}, {}});
  ASSERT_FALSE(byPath);
  EXPECT_EQ(byPath.error(), (dir / "a").string() +
                                ": cannot read the plugin file (Too many levels of symbolic links); fix the plugin's "
                                "\"path\" in the config");
  auto byName = loadPlugin(LoadRequest{"loop", "", "", {dir.string()}, {}});
  ASSERT_FALSE(byName);
  EXPECT_EQ(byName.error(), (dir / "libjobhost_loop.so").string() +
                                ": cannot read the plugin file (Too many levels of symbolic links); fix the plugin's "
                                "name, \"pluginPath\" in the config or JOBHOST_PLUGIN_PATH");
}

// A damaged file that passes every header check yet crashes the dynamic loader (here: the first
// dynamic relocation of a copy of the env plugin points far outside the library) is refused from
// the probe process's crash; the host itself never dlopens it.
TEST(Loader, AFileThatCrashesTheDynamicLoaderIsRefused) {
  std::string content = envPluginBytes();
  Elf64_Ehdr header;
  std::memcpy(&header, content.data(), sizeof header);
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), content.data() + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  const char* names = content.data() + sections[header.e_shstrndx].sh_offset;
  bool damaged = false;
  for (const auto& section : sections)
    if (std::string(names + section.sh_name) == ".rela.dyn" && section.sh_size >= sizeof(Elf64_Rela)) {
      const uint64_t far = 0x7fff00000000;
      std::memcpy(content.data() + section.sh_offset + offsetof(Elf64_Rela, r_offset), &far, sizeof far);
      damaged = true;
    }
  ASSERT_TRUE(damaged) << "no .rela.dyn in the env plugin";
  const std::string file = writeScratch("libjobhost_damaged.so", content, content.size());
  auto p = loadPlugin(LoadRequest{"", file, "", {}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), file +
                           ": crashed the dynamic loader (SEGV in a probe process): the file is damaged or not built "
                           "for this system; copy it again or rebuild it");
}

TEST(Loader, PluginBuiltForAnotherMachineIsNamedBeforeDlopen) {
  std::string content = envPluginBytes();
  const bool hostIsArm = EM_AARCH64 == (static_cast<unsigned char>(content[18]) | static_cast<unsigned char>(content[19]) << 8);
  const uint16_t foreign = hostIsArm ? EM_X86_64 : EM_AARCH64;
  content[18] = static_cast<char>(foreign & 0xff);
  content[19] = static_cast<char>(foreign >> 8);
  const std::string file = writeScratch("libjobhost_foreign.so", content, content.size());
  auto p = loadPlugin(LoadRequest{"", file, "", {}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), file + ": is built for " + (hostIsArm ? "x86-64" : "aarch64") +
                           ", but this host runs on " + (hostIsArm ? "aarch64" : "x86-64") +
                           "; rebuild the plugin for this machine");
}

// A copy of the shipped env plugin cut to `bytes` bytes, as an interrupted copy or build leaves it.
std::string truncatedEnvPlugin(uintmax_t bytes) {
  return writeScratch("libjobhost_env_" + std::to_string(bytes) + ".so", envPluginBytes(), static_cast<size_t>(bytes));
}

uintmax_t envPluginSize() { return std::filesystem::file_size(std::string(JOBHOST_PLUGIN_DIR) + "/libjobhost_env.so"); }

TEST(Loader, TruncatedFileIsRefusedBeforeDlopenCouldCrash) {
  const std::string again = "; copy the plugin again or rebuild it";
  const std::string shortHeader = truncatedEnvPlugin(60);
  auto p = loadPlugin(LoadRequest{"", shortHeader, "", {}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), shortHeader + ": is truncated: it has 60 bytes but its ELF header would end at byte 64" + again);

  // Cut inside the code: dlopen would map pages past the end of the file and die of SIGBUS.
  const std::string cutCode = truncatedEnvPlugin(20000);
  auto q = loadPlugin(LoadRequest{"", cutCode, "", {}, {}});
  ASSERT_FALSE(q);
  const std::string segments = cutCode + ": is truncated: it has 20000 bytes but its loadable segments end at byte ";
  ASSERT_EQ(q.error().rfind(segments, 0), 0u) << q.error();
  EXPECT_GT(std::stoull(q.error().substr(segments.size())), 20000u);

  // One byte short: every segment is whole, but the section headers at the end of the file are not.
  const uintmax_t size = envPluginSize();
  const std::string cutTail = truncatedEnvPlugin(size - 1);
  auto r = loadPlugin(LoadRequest{"", cutTail, "", {}, {}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), cutTail + ": is truncated: it has " + std::to_string(size - 1) +
                           " bytes but its section headers end at byte " + std::to_string(size) + again);
}

TEST(Loader, WholeCopyStillLoads) {
  auto p = loadPlugin(LoadRequest{"", truncatedEnvPlugin(envPluginSize()), "", {}, {}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->name, "env");
}

TEST(Loader, DirectoryIsNotAPluginFile) {
  auto p = loadPlugin(LoadRequest{"", JOBHOST_FIXTURE_DIR, "", {}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), std::filesystem::path(JOBHOST_FIXTURE_DIR).lexically_normal().string() +
                           ": is a directory, not a plugin file; name the plugin's .so file");
}

TEST(Loader, EntrySymbolMissing) {
  auto p = loadPlugin(fixture("noentry"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("noentry") +
                           ": has no \"jobhost_plugin_entry\" entry symbol, so it is not a jobhost "
                           "plugin; export one with JOBHOST_PLUGIN(Class, \"name\", \"version\")");
}

TEST(Loader, AbiMajorMismatch) {
  auto p = loadPlugin(fixture("abimajor"));
  ASSERT_FALSE(p);
  const std::string plugin = std::to_string(JOBHOST_ABI_MAJOR + 1) + "." + std::to_string(JOBHOST_ABI_MINOR);
  const std::string host = std::to_string(JOBHOST_ABI_MAJOR) + "." + std::to_string(JOBHOST_ABI_MINOR);
  EXPECT_EQ(p.error(), fixtureFile("abimajor") + ": plugin \"abimajor\" was built for plugin ABI " + plugin +
                           " but this host speaks ABI " + host +
                           "; rebuild the plugin against jobhost SDK " JOBHOST_SDK_VERSION_STRING);
}

TEST(Loader, AbiMinorNewerThanHost) {
  auto p = loadPlugin(fixture("abiminor"));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().find(": plugin \"abiminor\" needs plugin ABI " + std::to_string(JOBHOST_ABI_MAJOR) + "." +
                           std::to_string(JOBHOST_ABI_MINOR + 1) + " but this host provides only"),
            std::string::npos)
      << p.error();
  EXPECT_NE(p.error().find("upgrade jobhost or rebuild the plugin"), std::string::npos);
}

TEST(Loader, BuildKeyMismatch) {
  auto p = loadPlugin(fixture("buildkey"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("buildkey") +
                           ": plugin \"buildkey\" build key \"itanium/libc++/sdk-0\" does not match the "
                           "host's \"" JOBHOST_BUILD_KEY
                           "\"; rebuild the plugin with the same compiler family and C++ library");
}

TEST(Loader, TruncatedDescriptor) {
  auto p = loadPlugin(fixture("truncated"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("truncated") + ": plugin \"truncated\" has an incomplete descriptor (it is 12 "
                                                  "bytes, this host's is " +
                           std::to_string(sizeof(jobhost_plugin_descriptor)) + "); rebuild it with JOBHOST_PLUGIN");
}

TEST(Loader, DescriptorWithoutCreateNamesTheMissingField) {
  auto p = loadPlugin(fixture("nocreate"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("nocreate") + ": plugin \"nocreate\" has an incomplete descriptor (create is "
                                                 "null); rebuild it with JOBHOST_PLUGIN");
}

TEST(Loader, InvalidDescriptorNameIsRefused) {
  LoadRequest request;
  request.path = fixtureFile("badname");
  auto p = loadPlugin(request);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("badname") +
                           ": plugin \"Bad_Name\" has an invalid name: use lower-case letters, digits and '_', "
                           "starting with a letter, at most 63 characters (as jobhost_add_plugin's NAME); fix "
                           "JOBHOST_PLUGIN's NAME");
}

TEST(Loader, PluginImplementingNoExtensionPointIsRefused) {
  auto p = loadPlugin(fixture("noop"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("noop") +
                           ": plugin \"noop\" implements no extension point; derive its class from "
                           "ValidationPlugin, MLPolicyPlugin, PodGroupPolicyPlugin, PodNetworkPlugin, "
                           "ComponentBuildPlugin, StatusPlugin or JobHooksPlugin");
}

TEST(Loader, UndefinedSymbolSaysToLinkTheLibraryThatDefinesIt) {
  auto p = loadPlugin(fixture("undefinedsym"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("undefinedsym") +
                           ": cannot be loaded (dlopen: undefined symbol: jobhost_fixture_defined_nowhere); link the "
                           "plugin with the library that defines the symbol (jobhost_add_plugin links with "
                           "-Wl,--no-undefined to catch this when building)");
}

TEST(Loader, ConfigureThrowIsReportedNamingConfigure) {
  auto p = loadPlugin(fixture("configurethrows"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("configurethrows") +
                           ": plugin \"configurethrows\" threw while starting (create): configure() threw: no "
                           "profile named prod");
}

TEST(Loader, CreateFails) {
  auto p = loadPlugin(fixture("createfails"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("createfails") +
                           ": plugin \"createfails\" failed to start (create): no GPU driver found");
}

TEST(Loader, CreateThrowsPastItsOwnBarrier) {
  auto p = loadPlugin(fixture("createthrows"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("createthrows") +
                           ": plugin \"createthrows\" threw while starting (create): boom: device table "
                           "unreadable; the plugin must not let exceptions escape, report this to its author");
}

TEST(Loader, ConstructorThrowIsCaughtBySdkBarrier) {
  auto p = loadPlugin(fixture("ctorthrows"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("ctorthrows") +
                           ": plugin \"ctorthrows\" threw while starting (create): the constructor threw: "
                           "cannot open /dev/fixture");
}

TEST(Loader, ArgsRejected) {
  auto p = loadPlugin(fixture("withargs", {"--level=high"}));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("withargs") +
                           ": plugin \"withargs\" rejected its config args: plugin withargs: invalid value "
                           "\"high\" for flag -level: parse error; fix its \"args\" in the config");
}

TEST(Loader, ArgsAccepted) {
  auto p = loadPlugin(fixture("withargs", {"--level", "3", "-mode=fast"}));
  ASSERT_TRUE(p) << p.error();
  Job job;
  RuntimeInfo info(job);
  ASSERT_TRUE(p->instance->mlPolicy()->enforceMLPolicy(info, {}));
  EXPECT_EQ(info.annotations["fixture/level"], "3");
  EXPECT_EQ(info.annotations["fixture/mode"], "fast");
}

TEST(Loader, FileNameMustMatchDescriptorName) {
  auto p = loadPlugin(fixture("wrongname"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), fixtureFile("wrongname") +
                           ": file is named for plugin \"wrongname\" but its descriptor says "
                           "\"somethingelse\"; rename the file or fix the config");
}

TEST(Loader, EnvironmentOverridesConfiguredSearchPath) {
  setenv("JOBHOST_PLUGIN_PATH", "/x:/y", 1);
  auto path = pluginSearchPath({"plugins"}, "/etc/jobhost");
  unsetenv("JOBHOST_PLUGIN_PATH");
  EXPECT_EQ(path, (std::vector<std::string>{"/x", "/y"}));
  EXPECT_EQ(pluginSearchPath({"plugins", "/abs"}, "/etc/jobhost"),
            (std::vector<std::string>{"/etc/jobhost/plugins", "/abs"}));
}

TEST(Loader, CapabilitiesComeFromTheDescriptor) {
  auto p = loadPlugin(fixture("throwing"));
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->capabilities, 0x7Fu);
  auto q = loadPlugin(fixture("statusa"));
  ASSERT_TRUE(q) << q.error();
  EXPECT_EQ(q->capabilities, static_cast<uint32_t>(kStatus));
  EXPECT_EQ(q->instance->mlPolicy(), nullptr);
  EXPECT_NE(q->instance->status(), nullptr);
}

}  // namespace
}  // namespace jobhost
