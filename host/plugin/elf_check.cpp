// Pre-load check of a plugin file: built for this machine, and the ELF header, program headers and
// every loadable segment inside the file (or dlopen would map pages past its end: SIGBUS).
#include "host/plugin/elf_check.h"

#include <elf.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace jobhost {
namespace fs = std::filesystem;
namespace {

// True when [offset, offset + length) reaches past `size` (written so garbage cannot overflow).
bool beyond(uint64_t offset, uint64_t length, uintmax_t size) {
  return length > size || offset > size - length;
}

std::string truncated(uintmax_t size, uint64_t needed, const std::string& what) {
  return "is truncated: it has " + std::to_string(size) + " bytes but its " + what + " end at byte " +
         std::to_string(needed) + "; copy the plugin again or rebuild it";
}

// The machine this host runs on (-1: not checked here; dlopen still refuses a foreign plugin).
#if defined(__x86_64__)
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kHostMachine = EM_AARCH64;
#elif defined(__riscv)
constexpr int kHostMachine = EM_RISCV;
#elif defined(__powerpc64__)
constexpr int kHostMachine = EM_PPC64;
#elif defined(__s390x__)
constexpr int kHostMachine = EM_S390;
#else
constexpr int kHostMachine = -1;
#endif
constexpr unsigned char kHostData = std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;

std::string machineName(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "aarch64";
    case EM_RISCV: return "riscv64";
    case EM_PPC64: return "ppc64";
    case EM_S390: return "s390x";
    case EM_386: return "x86 (32-bit)";
    case EM_ARM: return "arm (32-bit)";
    default: return "ELF machine " + std::to_string(machine);
  }
}

}  // namespace

std::optional<std::string> elfLoadProblem(const std::string& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) return "is a directory, not a plugin file; name the plugin's .so file";
  const uintmax_t size = fs::file_size(file, ec);
  if (ec) return "cannot be read (" + ec.message() + "); check the file and its permissions";
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::string("cannot be opened (") + std::strerror(errno) + "); check its permissions";

  Elf64_Ehdr header{};
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  const auto got = static_cast<uintmax_t>(in.gcount());
  if (got < SELFMAG || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return std::nullopt;
  if (got < EI_CLASS + 1 || header.e_ident[EI_CLASS] != ELFCLASS64) return std::nullopt;
  if (got < sizeof header) return truncated(size, sizeof header, "ELF header would");
  if (kHostMachine >= 0 && header.e_ident[EI_DATA] == kHostData && header.e_machine != kHostMachine)
    return "is built for " + machineName(header.e_machine) + ", but this host runs on " +
           machineName(static_cast<uint16_t>(kHostMachine)) + "; rebuild the plugin for this machine";

  const uint64_t phBytes = uint64_t{header.e_phnum} * header.e_phentsize;
  if (beyond(header.e_phoff, phBytes, size)) return truncated(size, header.e_phoff + phBytes, "program headers");
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return std::nullopt;  // dlopen names this itself
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  in.seekg(static_cast<std::streamoff>(header.e_phoff));
  in.read(reinterpret_cast<char*>(segments.data()),
          static_cast<std::streamsize>(segments.size() * sizeof(Elf64_Phdr)));
  if (!in) return "could not be read to the end of its program headers; check the file";
  for (const auto& s : segments) {
    if (s.p_type != PT_LOAD && s.p_type != PT_DYNAMIC) continue;
    if (beyond(s.p_offset, s.p_filesz, size)) return truncated(size, s.p_offset + s.p_filesz, "loadable segments");
  }
  const uint64_t shBytes = uint64_t{header.e_shnum} * header.e_shentsize;
  if (header.e_shoff != 0 && beyond(header.e_shoff, shBytes, size))
    return truncated(size, header.e_shoff + shBytes, "section headers");
  return std::nullopt;
}

}  // namespace jobhost
